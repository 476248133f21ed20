import "./dashboard.css"
import "../../ui/count-cards.css"
import { CalendarIcon, ClipboardIcon, Pencil2Icon, ReloadIcon } from "@radix-ui/react-icons"
import { Badge, Button, Card, Flex, Grid, Heading, Spinner, Text } from "@radix-ui/themes"
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react"
import { Link, useLocation } from "wouter"
import { type ActivityEntry, type Analytics, type AnalyticsPeriod, listingStatistics } from "../../../contract/activity.ts"
import type { Health } from "../../../contract/system.ts"
import { fetchAnalytics, listActivity } from "../../api/activity.ts"
import { listOwners } from "../../api/triage.ts"
import { fetchHealth } from "../../api/auth.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { useStore } from "../../lib/store/handle.ts"
import { ANY_KIND } from "../../lib/store/kinds.ts"
import { useWaitingFigures } from "./waiting-figures.ts"
import { type Loaded, useLoaded } from "./use-loaded.ts"
import { firstScreenShown } from "../../lib/first-screen.ts"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { FailureCallout } from "../../ui/list/ListFrame.tsx"
import { ask } from "../../lib/intents.ts"
import { ACTIVITY_PATH, TRIAGE_PATH, listingPaths, newRecordIntent } from "../../lib/paths.ts"
import { verbOf } from "../../lib/record-link.ts"
import { Actor, RecordLink } from "../../ui/RecordLink.tsx"
import { CreatedChart } from "./CreatedChart.tsx"
import { fetchFailed } from "../../lib/failure-words.ts"
import { colleagueLabel } from "../../lib/people.ts"

/** docs/product-spec.md §2 "Dashboard", made real (docs/decisions.md): quoted texts are the spec's. */
const t = {
  title: "Dashboard",
  welcome: (who: string) => `Hello, ${who}`,
  welcomeText: "Here is what the site holds and what is waiting for you.",
  pendingReviews: "Pending Reviews",
  byOwner: "On the triage desk, by owner",
  mine: "Mine",
  nobody: "Nobody",
  addBlogPost: "Add Blog Post",
  addEvent: "Add Event",
  viewAnalytics: "View Analytics",
  recentActivity: "Recent Activity",
  noActivity: "Nothing has happened yet.",
  systemStatus: "System Status",
  database: "Database",
  api: "API",
  email: "Email Service",
  disk: "Disk",
  diskFree: (mb: number) => `${mb.toLocaleString("en-US")} MB free`,
  diskLow: (mb: number) => `Full: ${mb.toLocaleString("en-US")} MB free, changes paused`,
  // PostgreSQL's disk is not this server's to measure: it is known by the writes it refuses.
  databaseSize: (mb: number | null) => (mb === null ? "Writes saved" : `Database ${mb.toLocaleString("en-US")} MB, writes saved`),
  databaseFull: "Full: the database refuses changes",
  online: "Online",
  offline: "Offline",
  outbox: "Outbox (no SMTP server)",
  checking: "Checking…",
  loadFailed: fetchFailed("the dashboard"),
  refresh: "Refresh",
  allActivity: "All activity",
  newRecords: "New records",
  periods: { "7d": "Last 7 days", "30d": "Last 30 days", all: "All time" } satisfies Record<AnalyticsPeriod, string>
} as const

const periods = ["7d", "30d", "all"] as const

/** The spec's names of the listing types' count cards. */
const listingLabels = {
  community: "Communities",
  influencer: "Influencers",
  business: "Businesses",
  startup: "Startups",
  project: "Projects",
  event: "Events",
  hackathon: "Hackathons"
} as const satisfies Record<keyof typeof listingPaths, string>

/** The eight count cards, each linking to its list. */
const countCards: ReadonlyArray<{ readonly key: keyof Analytics["statistics"]; readonly label: string; readonly path: string }> = [
  { key: "totalBlogs", label: "Blog Posts", path: "/blog" },
  ...(Object.keys(listingLabels) as ReadonlyArray<keyof typeof listingLabels>).map((type) => ({
    key: listingStatistics[type],
    label: listingLabels[type],
    path: listingPaths[type]
  }))
]

const isListingType = (type: string): type is keyof typeof listingPaths => type in listingPaths

/** What makes up the pending reviews, each linked to its list filtered to what waits. */
const pendingParts = (pending: Analytics["pending"]) => [
  ...pending.listings
    .filter((part) => isListingType(part.type))
    .map((part) => {
      const type = part.type as keyof typeof listingPaths
      return { key: type, label: listingLabels[type], count: part.count, href: `${listingPaths[type]}?status=pending` }
    }),
  { key: "scam-reports", label: "New scam reports", count: pending.scamReports, href: "/scam-reports?status=new" },
  { key: "contacts", label: "New core-team contacts", count: pending.contacts, href: "/core-team?status=new" },
  { key: "inquiries", label: "Pending inquiries", count: pending.inquiries, href: "/advertising-inquiries?status=pending" },
  { key: "paid-inquiries", label: "Paid inquiries to review", count: pending.paidInquiries, href: "/advertising-inquiries?status=paid" }
]

const StatusRow = ({ label, ok, text }: { readonly label: string; readonly ok: boolean | null; readonly text: string }) => (
  <Flex justify="between" align="center" py="1">
    <Text size="2">{label}</Text>
    <Badge highContrast color={ok === null ? "gray" : ok ? "green" : "red"} aria-label={`${label}: ${text}`}>
      {text}
    </Badge>
  </Flex>
)

const diskText = ({ disk, database }: Health) => {
  if (disk.freeMb === null) return disk.status === "ok" ? t.databaseSize(database.sizeMb) : t.databaseFull
  return disk.status === "ok" ? t.diskFree(disk.freeMb) : t.diskLow(disk.freeMb)
}

const SystemStatus = ({ health }: { readonly health: Loaded<Health> }) => {
  const value = health.value
  if (value === null) return health.error === null ? <Text color="gray">{t.checking}</Text> : <StatusRow label={t.api} ok={false} text={t.offline} />
  const mail = value.mail
  const mailText =
    mail.transport === "outbox" ? t.outbox : mail.reachable === false ? `${t.offline}${mail.lastError === null ? "" : `: ${mail.lastError}`}` : t.online
  return (
    <>
      <StatusRow
        label={t.database}
        ok={value.database.status === "connected"}
        text={
          value.database.status === "connected"
            ? `${t.online} (${value.database.engine === "pglite" ? "PGlite" : "PostgreSQL"}${value.database.latencyMs === null ? "" : `, ${value.database.latencyMs} ms`})`
            : t.offline
        }
      />
      <StatusRow label={t.api} ok={health.error === null} text={health.error === null ? `${t.online} (v${value.version})` : t.offline} />
      <StatusRow label={t.email} ok={mail.transport === "outbox" ? null : mail.reachable !== false && mail.failedLastDay === 0} text={mailText} />
      {mail.pending > 0 && (
        <Text size="1" color="gray">
          {mail.pending} mail(s) waiting to be sent
        </Text>
      )}
      <StatusRow label={t.disk} ok={value.disk.status === "ok"} text={diskText(value)} />
    </>
  )
}

const Tile = ({
  icon,
  title,
  children,
  onClick,
  className
}: {
  readonly icon: ReactNode
  readonly title: string
  readonly children?: ReactNode
  readonly onClick?: () => void
  readonly className?: string
}) => (
  <Card className={className === undefined ? "dashboard-tile" : `dashboard-tile ${className}`} asChild={onClick !== undefined}>
    {onClick === undefined ? (
      <div>
        <Flex gap="2" align="center" mb="2">
          {icon}
          <Heading as="h3" size="3">
            {title}
          </Heading>
        </Flex>
        {children}
      </div>
    ) : (
      <button type="button" onClick={onClick}>
        <Flex gap="2" align="center">
          {icon}
          <Text weight="bold">{title}</Text>
        </Flex>
        {children}
      </button>
    )}
  </Card>
)

/**
 * What waits on the triage desk per owner (docs/console.md, "The triage desk"): the person's own
 * and nobody's open the desk's views; a colleague's are a figure. Owners with nothing waiting are left out.
 */
const WaitingByOwner = ({ owners, unowned, me }: Awaited<ReturnType<typeof listOwners>> & { readonly me: string | undefined }) => {
  const mine = owners.find((owner) => owner._id === me)
  const others = owners.filter((owner) => owner._id !== me && owner.waiting > 0)
  return (
    <>
      <Text as="p" size="2" weight="medium" mt="3">
        {t.byOwner}
      </Text>
      <ul className="dashboard-pending" aria-label={t.byOwner}>
        <li>
          <Link href={`${TRIAGE_PATH}?owner=me`}>
            {t.mine}: {(mine?.waiting ?? 0).toLocaleString()}
          </Link>
        </li>
        <li>
          <Link href={`${TRIAGE_PATH}?owner=none`}>
            {t.nobody}: {unowned.toLocaleString()}
          </Link>
        </li>
        {others.map((owner) => (
          <li key={owner._id}>
            {colleagueLabel(owner)}: {owner.waiting.toLocaleString()}
          </li>
        ))}
      </ul>
    </>
  )
}

/**
 * The dashboard: real counts from the counts the database keeps, what waits for review and where,
 * the last ten events, and the system's status; read again after a burst of changes and when the link is back.
 */
export const DashboardScreen = () => {
  const me = AuthContext.useSelector((snapshot) => snapshot.context.user?._id)
  const who = AuthContext.useSelector((snapshot) => snapshot.context.user?.name ?? snapshot.context.user?.email ?? "Admin")
  const [, navigate] = useLocation()
  const [period, setPeriod] = useState<AnalyticsPeriod>("7d")
  const store = useStore()
  const analytics = useLoaded(
    useCallback(() => fetchAnalytics(period), [period]),
    store,
    `dashboard:analytics:${period}`
  )
  const figures = useWaitingFigures(analytics.value, analytics.askedAt, store)
  const activity = useLoaded(
    useCallback(() => listActivity({ search: "", page: 1, filters: {} }, 10), []),
    store,
    "dashboard:activity"
  )
  const owners = useLoaded(listOwners, store, "dashboard:owners")
  const health = useLoaded(fetchHealth)
  // The figures on screen: what waited for the first screen may load now.
  const figuresShown = analytics.value !== null
  useEffect(() => void (figuresShown && firstScreenShown()), [figuresShown])
  const { reload: reloadAnalytics } = analytics
  const { reload: reloadActivity } = activity
  const { reload: reloadHealth } = health
  const { reload: reloadOwners } = owners
  const reloadAll = useCallback(() => {
    reloadAnalytics()
    reloadActivity()
    reloadHealth()
    reloadOwners()
  }, [reloadAnalytics, reloadActivity, reloadHealth, reloadOwners])
  // A change anywhere (a report, an inquiry) moves the figures, and the link back may bring some:
  // read again once per burst, as the lists are, from what the browser's store hears; and once
  // its stream is live, if the figures were read before it (a first visit's stream opens late).
  const readSince = useRef(performance.now())
  useEffect(() => store?.lists(ANY_KIND, t.title, String).watch(reloadAll, { readSince: () => readSince.current }), [store, reloadAll])
  const addEvent = () => {
    ask(newRecordIntent("event"))
    navigate(listingPaths.event)
  }
  const commands = useMemo(
    (): ReadonlyArray<Command> => [
      { id: "dashboard:refresh", label: "Refresh the dashboard", group: t.title, keywords: ["reload"], run: reloadAll },
      { id: "dashboard:analytics", label: t.viewAnalytics, group: t.title, keywords: ["activity", "log"], run: () => navigate(ACTIVITY_PATH) },
      ...periods
        .filter((next) => next !== period)
        .map((next): Command => ({
          id: `dashboard:period:${next}`,
          label: `Show new records for ${t.periods[next].toLowerCase()}`,
          group: t.title,
          run: () => setPeriod(next)
        }))
    ],
    [period, reloadAll, navigate]
  )
  useRegisterCommands(commands)

  const stats = figures?.statistics
  return (
    <Screen title={t.title}>
      <Card size="3" mb="4">
        <Flex justify="between" align="center" gap="3" wrap="wrap">
          <div>
            <Heading as="h2" size="5">
              {t.welcome(who)}
            </Heading>
            <Text as="p" color="gray" size="2">
              {t.welcomeText}
            </Text>
          </div>
          <Button variant="soft" onClick={reloadAll} disabled={analytics.loading}>
            {analytics.loading ? <Spinner /> : <ReloadIcon />} {t.refresh}
          </Button>
        </Flex>
      </Card>
      {analytics.error !== null && <FailureCallout title={t.loadFailed} message={analytics.error} onRetry={analytics.reload} />}
      <nav aria-label="Counts" className="count-cards" style={{ "--count-columns": 4 } as React.CSSProperties}>
        {countCards.map((card) => (
          <Link key={card.key} href={card.path} className="count-card">
            <span className="count-card-label">{card.label}</span>
            <span className="count-card-value" data-testid={card.key}>
              {stats === undefined ? "–" : stats[card.key].toLocaleString()}
            </span>
          </Link>
        ))}
      </nav>
      <Grid columns={{ initial: "1", md: "4" }} gap="3" mb="4">
        <Tile icon={<ClipboardIcon />} title={t.pendingReviews} className="dashboard-pending-tile">
          <Text as="div" size="7" weight="bold" data-testid="pendingReviews">
            {stats === undefined ? "–" : stats.pendingReviews.toLocaleString()}
          </Text>
          {figures !== null && (
            <ul className="dashboard-pending" aria-label="Pending reviews by list">
              {pendingParts(figures.pending)
                .filter((part) => part.count > 0)
                .map((part) => (
                  <li key={part.key}>
                    <Link href={part.href}>
                      {part.label}: {part.count.toLocaleString()}
                    </Link>
                  </li>
                ))}
            </ul>
          )}
          {owners.value !== null && <WaitingByOwner {...owners.value} me={me} />}
        </Tile>
        {/* The quick actions, one short button each, stacked beside the figures: not three boxes as tall as them. */}
        <div className="dashboard-actions">
          <Tile icon={<Pencil2Icon />} title={t.addBlogPost} onClick={() => navigate("/blog/new")} />
          <Tile icon={<CalendarIcon />} title={t.addEvent} onClick={addEvent} />
          <Tile icon={<ReloadIcon />} title={t.viewAnalytics} onClick={() => navigate(ACTIVITY_PATH)} />
        </div>
      </Grid>
      <Grid columns={{ initial: "1", md: "3" }} gap="3">
        <Card size="2" className="dashboard-wide">
          <Flex justify="between" align="center" mb="2" gap="2" wrap="wrap">
            <Heading as="h2" size="4">
              {t.newRecords}
            </Heading>
            <select className="native-select" aria-label="Period" value={period} onChange={(event) => setPeriod(event.target.value as AnalyticsPeriod)}>
              {periods.map((option) => (
                <option key={option} value={option}>
                  {t.periods[option]}
                </option>
              ))}
            </select>
          </Flex>
          {analytics.value === null ? <Spinner /> : <CreatedChart created={analytics.value.created} />}
        </Card>
        <Card size="2">
          <Heading as="h2" size="4" mb="2">
            {t.systemStatus}
          </Heading>
          <SystemStatus health={health} />
        </Card>
        <Card size="2" className="dashboard-full">
          <Flex justify="between" align="center" mb="2">
            <Heading as="h2" size="4">
              {t.recentActivity}
            </Heading>
            <Link href={ACTIVITY_PATH}>{t.allActivity}</Link>
          </Flex>
          {activity.error !== null && <FailureCallout title={t.loadFailed} message={activity.error} onRetry={activity.reload} />}
          {activity.value === null ? (
            <Spinner />
          ) : activity.value.rows.length === 0 ? (
            <Text color="gray">{t.noActivity}</Text>
          ) : (
            <ol className="dashboard-activity" aria-label={t.recentActivity}>
              {activity.value.rows.map((entry: ActivityEntry) => (
                <li key={entry._id}>
                  <Actor entry={entry} />{" "}
                  <Text color="gray">
                    {verbOf(entry.action)} {entry.area.replace("-", " ")}
                  </Text>{" "}
                  <RecordLink entry={entry} />
                  <Text as="div" size="1" color="gray">
                    <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time>
                  </Text>
                </li>
              ))}
            </ol>
          )}
        </Card>
      </Grid>
    </Screen>
  )
}
