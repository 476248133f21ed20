import "./advertising.css"
import { CheckCircledIcon, ClockIcon, CrossCircledIcon, EnvelopeClosedIcon, EyeOpenIcon, QuestionMarkCircledIcon, ReloadIcon, StarIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Dialog, Flex, Heading, Text, TextArea } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
import { useEffect, useMemo, useRef } from "react"
import { fromPromise } from "xstate"
import type { AdvertisingInquiry } from "../../../contract/advertising.ts"
import { industries, inquiryMoves, type InquiryStatus, inquiryStatuses } from "../../../contract/inquiry-rules.ts"
import { detailOpen, inquiryMachine, inquiryTexts, movesFor } from "../../../machines/inquiry.ts"
import { inquiryExportPath, listInquiries, moveInquiry } from "../../api/inquiries.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { useChanges } from "../../lib/change-stream.ts"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { shortDate } from "../../lib/dates.ts"
import { useCsvExport } from "../../lib/list/export-csv.ts"
import { listCommands } from "../../lib/list/list-commands.ts"
import { useUrlQuery } from "../../lib/list/url-query.ts"
import { useDebouncedSearch } from "../../lib/list/use-debounced-search.ts"
import { useList } from "../../lib/list/use-list.ts"
import { useRowKeyboard } from "../../lib/list/use-row-keyboard.ts"
import { CountCards } from "../../ui/CountCards.tsx"
import { CardList } from "../../ui/list/CardList.tsx"
import { FilterSelect } from "../../ui/list/FilterSelect.tsx"
import { ExportCsvButton, ListFrame } from "../../ui/list/ListFrame.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { SearchField } from "../../ui/SearchField.tsx"
import { useProvidedActorRef } from "../../lib/use-provided-actor.ts"

/** docs/product-spec.md §2 "Advertising Inquiries", §4, §8; quoted texts are exact. */
const t = {
  title: "Advertising Inquiries",
  counts: { total: "Total Inquiries", pending: "Pending", contacted: "Contacted", converted: "Converted" },
  countsLabel: "Inquiries by status",
  empty: "No inquiries found",
  loading: "Loading inquiries...",
  loadFailed: "Failed to fetch inquiries",
  searchLabel: "Search inquiries",
  searchPlaceholder: "Search company, contact, email...",
  allStatuses: "All statuses",
  allIndustries: "All industries",
  heading: (count: number) => `${count} ${count === 1 ? "inquiry" : "inquiries"}`,
  statuses: { pending: "Pending", paid: "Paid", reviewed: "Reviewed", contacted: "Contacted", converted: "Converted", rejected: "Rejected" } satisfies Record<InquiryStatus, string>,
  moves: { contacted: inquiryTexts.markContacted, converted: "Mark Converted", rejected: "Reject" } as Partial<Record<InquiryStatus, string>>,
  done: (status: InquiryStatus, company: string) => `${t.statuses[status]}: ${company}`,
  view: "View",
  paymentCompleted: "Payment Completed",
  amount: (amount: number | null) => `${amount ?? 0} π`,
  plan: (plan: string) => (plan === "" ? "" : ` · ${plan} plan`),
  adminNotes: "Admin Notes",
  notesLine: (notes: string) => `Notes: ${notes}`,
  close: "Close",
  dismiss: "Dismiss",
  refresh: "Refresh",
  submitted: (date: string) => `Submitted ${date}`,
  keyboardHint: "j/k move · Enter view · c mark as contacted · the palette marks converted or rejects"
} as const

/** Each status's colour and icon; a status this console does not know gets a neutral one. */
const statusLook: Record<string, { readonly color: "orange" | "violet" | "blue" | "yellow" | "green" | "red" | "gray"; readonly Icon: typeof ClockIcon }> = {
  pending: { color: "orange", Icon: ClockIcon },
  paid: { color: "violet", Icon: StarIcon },
  reviewed: { color: "blue", Icon: EyeOpenIcon },
  contacted: { color: "yellow", Icon: EnvelopeClosedIcon },
  converted: { color: "green", Icon: CheckCircledIcon },
  rejected: { color: "red", Icon: CrossCircledIcon }
}
const neutralLook = { color: "gray", Icon: QuestionMarkCircledIcon } as const

export const StatusBadge = ({ status }: { readonly status: string }) => {
  const { color, Icon } = statusLook[status] ?? neutralLook
  return <Badge highContrast color={color}><Icon aria-hidden /> {t.statuses[status as InquiryStatus] ?? status}</Badge>
}

const querySpec = { filters: { status: inquiryStatuses, industry: industries } }

/**
 * The advertising inquiries (docs/product-spec.md §2): the four counts, filters, cards with the
 * payment when there is one, and the detail modal driven by the inquiry machine
 * (machines/inquiry.ts), whose snapshot decides the buttons, `c` and the palette's moves.
 */
export const AdvertisingScreen = () => {
  const url = useUrlQuery(querySpec)
  const { query } = url
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  const list = useList(query, listInquiries)
  const reload = list.reload
  const detail = useProvidedActorRef<typeof inquiryMachine>(inquiryMachine, {
    actors: { update: fromPromise(({ input }) => moveInquiry(token, input)) },
    actions: { listChanged: () => reload() }
  })
  const snapshot = useSelector(detail, (current) => current)
  const [searchText, setSearchText] = useDebouncedSearch(query.search, (search) => url.go({ search, page: 1 }, { replace: true }))
  const csv = useCsvExport(() => inquiryExportPath(query), "advertising-inquiries.csv")
  const rows = list.rows
  const open = detailOpen(snapshot)
  const shown = snapshot.context.inquiry === null ? null : rows.find((row) => row._id === snapshot.context.inquiry?._id) ?? null

  // Another admin changed an inquiry on this page: the list reloads (and an open modal takes the newer copy, below).
  const rowsRef = useRef(rows)
  rowsRef.current = rows
  useChanges(token, (change) => {
    if (change.type === "inquiry.updated" && rowsRef.current.some((row) => row._id === change.entityId)) reload()
  })

  // The list holds a newer copy of the open inquiry: the machine takes it, so a retry names its version.
  // Offered again on every state change: a copy that arrived while a move was on its way is
  // taken once the answer is in.
  useEffect(() => {
    const open = snapshot.context.inquiry
    if (shown !== null && open !== null && shown.version > open.version) detail.send({ type: "REFRESH", inquiry: shown })
  }, [shown?.version, snapshot])

  /** Opens an inquiry and, for a key or a palette command, makes the move at once with its notes as they are. */
  const act = (inquiry: AdvertisingInquiry, status?: InquiryStatus) => {
    if (!open) detail.send({ type: "OPEN", inquiry })
    if (status !== undefined) detail.send({ type: "MOVE", status })
  }
  const keyboard = useRowKeyboard<AdvertisingInquiry, HTMLDivElement>(rows, {
    open: (inquiry) => act(inquiry),
    keys: { c: (inquiry) => act(inquiry, "contacted") }
  })
  const focused = keyboard.focusedRow
  const commands = useMemo((): ReadonlyArray<Command> => {
    const group = t.title
    const target = open ? shown : focused ?? null
    // In the modal the machine decides; on a focused card, the funnel's next steps from its status.
    const moves = target === null ? [] : open ? movesFor(snapshot) : inquiryMoves[target.status]
    return [
      ...(target === null ? [] : moves.map((status): Command => ({
        id: `advertising:move:${status}`,
        label: `${t.moves[status] ?? status}: ${target.companyName}`,
        group,
        ...(status === "contacted" ? { shortcut: ["c"] } : {}),
        run: () => act(target, status)
      }))),
      ...(focused === undefined || open ? [] : [{ id: "advertising:view", label: `View ${focused.companyName}`, group, shortcut: ["Enter"], run: () => act(focused) }]),
      ...inquiryStatuses.map((status): Command => ({
        id: `advertising:filter:${status}`,
        label: `Show ${t.statuses[status].toLowerCase()} inquiries`,
        group,
        guard: () => query.filters.status !== status,
        run: () => url.filter("status", status)
      })),
      ...listCommands({ group, noun: "inquiries", list, url, csv })
    ]
  }, [focused, snapshot, shown, query, list.pagination, csv.busy, open])
  useRegisterCommands(commands)

  const counts = list.page?.counts
  const done = snapshot.matches("done") ? snapshot.context.done : null
  return (
    <Screen title={t.title}>
      <CountCards label={t.countsLabel} cards={(["total", "pending", "contacted", "converted"] as const).map((key) => ({
        key,
        label: t.counts[key],
        value: counts?.[key],
        active: key === "total" ? query.filters.status === undefined : query.filters.status === key,
        onClick: () => url.filter("status", key === "total" ? "" : key)
      }))} />
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <SearchField label={t.searchLabel} placeholder={t.searchPlaceholder} value={searchText} onChange={setSearchText} busy={list.loading && !list.firstLoad} />
        <FilterSelect url={url} name="status" label="Status" allLabel={t.allStatuses} options={inquiryStatuses.map((status) => [status, t.statuses[status]] as const)} />
        <FilterSelect url={url} name="industry" label="Industry" allLabel={t.allIndustries} options={industries.map((industry) => [industry, industry] as const)} />
        <Button variant="soft" onClick={reload}><ReloadIcon /> {t.refresh}</Button>
        <ExportCsvButton busy={csv.busy} onExport={csv.run} />
      </Flex>
      {done !== null && (
        <div className="inquiry-done" role="status">
          <Text size="2">{t.done(done.status, done.inquiry.companyName)}</Text>
          <Button size="1" variant="ghost" color="gray" onClick={() => detail.send({ type: "DISMISS" })}>{t.dismiss}</Button>
        </div>
      )}
      <ListFrame list={list} loadingText={t.loading} loadFailedText={t.loadFailed} onPage={(page) => url.go({ page })} exportError={csv.error}>
        <Heading as="h2" size="3" mb="2">{t.heading(list.pagination?.total ?? 0)}</Heading>
        <CardList
          label={t.title}
          list={list}
          rowKey={(row) => row._id}
          keyboard={keyboard}
          empty={t.empty}
          card={(inquiry) => (
            <div aria-label={inquiry.companyName}>
              <Flex justify="between" align="start" gap="2">
                <Text as="div" weight="bold">{inquiry.companyName}</Text>
                <StatusBadge status={inquiry.status} />
              </Flex>
              <Text as="div" size="2">{inquiry.contactName} · {inquiry.email}</Text>
              <Text as="div" size="1" color="gray" mt="1">{[inquiry.industry, inquiry.budget].filter((part) => part !== "").join(" · ")}</Text>
              <Text as="div" size="1" color="gray">{t.submitted(shortDate(inquiry.createdAt))}</Text>
              {inquiry.website !== "" && (
                <Text as="div" size="1"><a href={inquiry.website} target="_blank" rel="noopener noreferrer" tabIndex={-1}>{inquiry.website}</a></Text>
              )}
              {inquiry.adminNotes !== "" && <Text as="div" size="1" color="gray" mt="1" className="inquiry-notes">{t.notesLine(inquiry.adminNotes)}</Text>}
              {inquiry.paymentId !== "" && (
                <div className="payment-block">
                  <Text size="2" weight="bold">{t.paymentCompleted}</Text>
                  <Text size="2"> · {t.amount(inquiry.amount)}{t.plan(inquiry.selectedPlan)}</Text>
                </div>
              )}
              <Flex gap="2" mt="3">
                <Button size="1" variant="soft" color="gray" tabIndex={-1} onClick={() => act(inquiry)}>{t.view}</Button>
              </Flex>
            </div>
          )}
        />
      </ListFrame>
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}</Text>
      <Dialog.Root open={open} onOpenChange={(next) => !next && !snapshot.matches("updating") && detail.send({ type: "CLOSE" })}>
        <Dialog.Content maxWidth="620px">
          {snapshot.context.inquiry !== null && (() => {
            const inquiry = shown ?? (snapshot.context.inquiry as unknown as AdvertisingInquiry)
            return (
              <>
                <Dialog.Title>{inquiry.companyName}</Dialog.Title>
                <Dialog.Description size="2" color="gray">{inquiry.contactName} · {inquiry.email}</Dialog.Description>
                <Flex my="3"><StatusBadge status={inquiry.status} /></Flex>
                <dl className="inquiry-facts">
                  {([
                    ["Phone", inquiry.phone], ["Website", inquiry.website], ["Industry", inquiry.industry], ["Budget", inquiry.budget],
                    ["Campaign type", inquiry.campaignType], ["Duration", inquiry.duration], ["Plan", inquiry.selectedPlan],
                    ["Target audience", inquiry.targetAudience], ["Campaign goals", inquiry.campaignGoals], ["Additional info", inquiry.additionalInfo],
                    ["Payment id", inquiry.paymentId], ["Transaction", inquiry.txid], ["Amount", inquiry.paymentId === "" ? "" : t.amount(inquiry.amount)]
                  ] as const).filter(([, value]) => value !== undefined && value !== "").map(([label, value]) => (
                    <div key={label} className="inquiry-fact"><dt>{label}</dt><dd>{value}</dd></div>
                  ))}
                </dl>
                <label htmlFor="inquiry-notes"><Text as="div" size="2" weight="medium" mb="1">{t.adminNotes}</Text></label>
                <TextArea id="inquiry-notes" rows={3} maxLength={5000} value={snapshot.context.notes} disabled={snapshot.matches("updating")}
                  onChange={(event) => detail.send({ type: "EDIT", notes: event.target.value })} />
                {snapshot.matches("failed") && snapshot.context.error !== null && (
                  <Callout.Root color="red" role="alert" mt="3"><Callout.Text>{snapshot.context.error}</Callout.Text></Callout.Root>
                )}
                <Flex gap="3" mt="4" justify="end" wrap="wrap">
                  <Dialog.Close><Button variant="soft" color="gray" disabled={snapshot.matches("updating")}>{t.close}</Button></Dialog.Close>
                  {snapshot.matches("updating") && <Button disabled>{inquiryTexts.updating}</Button>}
                  {movesFor(snapshot).map((status) => (
                    <Button key={status} color={status === "rejected" ? "red" : status === "converted" ? "green" : undefined} onClick={() => detail.send({ type: "MOVE", status })}>
                      {t.moves[status] ?? status}
                    </Button>
                  ))}
                </Flex>
              </>
            )
          })()}
        </Dialog.Content>
      </Dialog.Root>
    </Screen>
  )
}
