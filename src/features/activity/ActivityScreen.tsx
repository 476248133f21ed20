import { Cross2Icon } from "@radix-ui/react-icons"
import { Badge, Button, Flex, Text, TextField } from "@radix-ui/themes"
import { useMemo } from "react"
import { Link, useLocation } from "wouter"
import type { ActivityEntry } from "../../../contract/activity.ts"
import { activityAreaLabels, activityAreas } from "../../../contract/activity-rules.ts"
import { exportActivity, listActivity } from "../../api/activity.ts"
import { shortDate } from "../../lib/dates.ts"
import { type ListAction, useListScreen } from "../../lib/list/use-list-screen.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { type HistoryOpener, historyActionLabel, useHistory } from "../../lib/history.ts"
import { isHistoryKind } from "../../../contract/history-rules.ts"
import { filterOf } from "../../lib/list/declarations.ts"
import { ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import type { Column } from "../../ui/list/ListTable.tsx"
import { historyHref, recordHref, verbOf } from "../../lib/record-link.ts"
import { Actor, RecordLink } from "../../ui/RecordLink.tsx"
import { fetchFailed } from "../../lib/failure-words.ts"

const t = {
  title: "Activity Log",
  loading: "Loading activity...",
  loadFailed: fetchFailed("the activity log"),
  empty: "No activity matches these filters",
  searchLabel: "Search by admin",
  searchPlaceholder: "Admin name or e-mail...",
  allAreas: "All areas",
  from: "From",
  to: "To",
  refresh: "Refresh",
  clear: "Clear filters",
  record: (id: string) => `Only record ${id.slice(0, 8)}…`
} as const

const day = /^\d{4}-\d{2}-\d{2}$/

const spec = {
  title: t.title,
  refresh: t.refresh,
  noun: "activity log",
  querySpec: {
    filters: { area: activityAreas },
    textFilters: { from: day, to: day, record: /^[\w:.-]{1,64}$/u, action: /^[a-z-]+\.[a-z_]+$/u }
  },
  fetchPage: listActivity,
  idOf: (entry: ActivityEntry) => entry._id,
  // Every change is an event: the log is read again, quietly, after any (docs/architecture.md, "The browser's store").
  store: "any" as const,
  exportCsv: exportActivity,
  filters: [filterOf("area", "Area", t.allAreas, activityAreas, (area) => activityAreaLabels[area], { show: (label) => `Show activity in ${label}` })],
  clearFilters: t.clear
}

const columns: ReadonlyArray<Column<ActivityEntry>> = [
  {
    label: "When",
    cell: (entry) => (
      <time dateTime={entry.at} title={entry.at}>
        {shortDate(entry.at)} {new Date(entry.at).toLocaleTimeString()}
      </time>
    )
  },
  { label: "Who", cell: (entry) => <Actor entry={entry} /> },
  {
    label: "Area",
    cell: (entry) => (
      <Badge highContrast color="gray">
        {activityAreaLabels[entry.area as keyof typeof activityAreaLabels] ?? entry.area}
      </Badge>
    )
  },
  {
    label: "What",
    cell: (entry) => (
      <Text>
        {verbOf(entry.action)}
        {entry.toState !== null && entry.fromState !== null ? ` (${entry.fromState} → ${entry.toState})` : entry.toState !== null ? ` (${entry.toState})` : ""}
      </Text>
    )
  },
  { label: "Record", cell: (entry) => <RecordLink entry={entry} /> },
  {
    label: "History",
    cell: (entry) =>
      entry.entityId === null ? null : (
        <Link href={historyHref(entry.entityId)} tabIndex={-1} aria-label={`History of ${entry.record.label ?? entry.entityId}`}>
          History
        </Link>
      )
  },
  {
    label: "Address",
    cell: (entry) => (
      <Text size="1" color="gray">
        {entry.ip ?? ""}
      </Text>
    )
  }
]

const entryActions = (
  navigate: (href: string) => void,
  showHistory: HistoryOpener["show"],
  onlyRecord: (entry: ActivityEntry) => void
): ReadonlyArray<ListAction<ActivityEntry>> => [
  {
    id: "activity:open",
    key: "Enter",
    hint: "open the record",
    label: (entry) => `Open ${entry.record.label ?? "the record"}`,
    when: (entry) => recordHref(entry) !== null,
    run: (entry) => {
      const href = recordHref(entry)
      if (href !== null) navigate(href)
    }
  },
  {
    id: "activity:history",
    key: "h",
    hint: "its history",
    label: () => historyActionLabel,
    when: (entry) => entry.entityId !== null && isHistoryKind(entry.area),
    run: (entry) => {
      if (entry.entityId !== null && isHistoryKind(entry.area))
        showHistory({ kind: entry.area, id: entry.entityId, label: entry.record.label ?? entry.entityId })
    }
  },
  {
    id: "activity:record",
    key: "f",
    hint: "only its events",
    label: () => "Only this record's events",
    when: (entry) => entry.entityId !== null,
    run: onlyRecord
  }
]

/**
 * The activity log (docs/api.md, "Activity log") on the one list screen: who did what to which
 * record and when, filtered by admin, area, record and dates in the URL, each event linked to its
 * record, exported as CSV.
 */
export const ActivityScreen = () => {
  const [, navigate] = useLocation()
  const records = useHistory()
  // The row action is made once; the query it narrows is the one shown when it runs.
  const onlyRecord = useStableCallback((entry: ActivityEntry) => {
    if (entry.entityId !== null) url.go({ filters: { ...query.filters, record: entry.entityId }, page: 1 })
  })
  const actions = useMemo(() => entryActions(navigate, records.show, onlyRecord), [navigate, records.show, onlyRecord])
  const screen = useListScreen(spec, { actions, idle: true })
  const { url, query, filtered } = screen

  const dateField = (name: "from" | "to", label: string) => (
    <Flex gap="1" align="center">
      <Text as="label" size="2" htmlFor={`activity-${name}`}>
        {label}
      </Text>
      <TextField.Root
        id={`activity-${name}`}
        type="date"
        value={query.filters[name] ?? ""}
        onChange={(event) => url.filter(name, event.target.value)}
        onKeyDown={(event) => event.key === "Escape" && screen.focus.backToRows()}
      />
    </Flex>
  )

  return (
    <ListScreen
      screen={screen}
      texts={listTextsOf(t)}
      view={{ table: { caption: t.title, columns } }}
      tools={
        <>
          {dateField("from", t.from)}
          {dateField("to", t.to)}
        </>
      }
      notices={
        (query.filters.record !== undefined || query.filters.action !== undefined || filtered) && (
          <Flex gap="2" mb="3" align="center" wrap="wrap">
            {query.filters.record !== undefined && (
              <Badge highContrast color="violet">
                {t.record(query.filters.record)}
              </Badge>
            )}
            {query.filters.action !== undefined && (
              <Badge highContrast color="violet">
                {query.filters.action}
              </Badge>
            )}
            <Button size="1" variant="soft" color="gray" onClick={() => url.go({ filters: {}, search: "", page: 1 })}>
              <Cross2Icon /> {t.clear}
            </Button>
          </Flex>
        )
      }
    />
  )
}
