import "./scam-reports.css"
import { ReloadIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Dialog, Flex, Text, TextArea } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
import { useEffect, useMemo, useRef, useState } from "react"
import { fromPromise } from "xstate"
import {
  type ScamReport,
  type ScamReportPriority,
  ScamReportPriority as PrioritySchema,
  type ScamReportStatus,
  ScamReportStatus as StatusSchema,
  ScamType,
  scamTypeLabels
} from "../../../contract/scam-reports.ts"
import { changeFailed, notesOpen, type ReportChange, savingNotes, scamReportMachine, shownReport } from "../../../machines/scam-report.ts"
import { changeScamReport, listScamReports, oneScamReport, scamReportExportPath } from "../../api/scam-reports.ts"
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
import { priorityColors, scamTexts as t, statusColors } from "./texts.ts"
import { useProvidedActorRef } from "../../lib/use-provided-actor.ts"

const statuses = StatusSchema.literals
const priorities = PrioritySchema.literals
const querySpec = { filters: { status: statuses, scamType: ScamType.literals, priority: priorities } }
const filterOptions = [
  { name: "status", label: t.filters.status, options: statuses.map((value) => [value, t.statuses[value]] as const) },
  { name: "scamType", label: t.filters.scamType, options: ScamType.literals.map((value) => [value, scamTypeLabels[value]] as const) },
  { name: "priority", label: t.filters.priority, options: priorities.map((value) => [value, t.priorities[value]] as const) }
] as const

/** Whether a report belongs in the list its filters describe (the search is left to the server). */
const matches = (report: ScamReport, filters: Readonly<Record<string, string>>) =>
  (filters.status === undefined || report.status === filters.status) &&
  (filters.scamType === undefined || report.scamType === filters.scamType) &&
  (filters.priority === undefined || report.priority === filters.priority)

/**
 * docs/product-spec.md §2 "Scam Reports", triaged from the keyboard: the triage machine
 * (machines/scam-report.ts) shows each change at once and sends them in order; the change
 * stream (src/lib/change-stream.ts) announces new reports without moving the list, and refreshes
 * a card another admin changed, in place.
 */
export const ScamReportsScreen = () => {
  const url = useUrlQuery(querySpec)
  const { query } = url
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  const list = useList(query, listScamReports)
  const reload = list.reload
  const call = (change: ReportChange) => changeScamReport(token, change)
  const triage = useProvidedActorRef<typeof scamReportMachine>(scamReportMachine, {
    actors: { change: fromPromise(({ input }) => call(input)), saveNotes: fromPromise(({ input }) => call(input)) },
    actions: { listChanged: () => reload() }
  })
  const snapshot = useSelector(triage, (current) => current)
  const [searchText, setSearchText] = useDebouncedSearch(query.search, (search) => url.go({ search, page: 1 }, { replace: true }))
  const csv = useCsvExport(() => scamReportExportPath(query), "scam-reports.csv")
  const [draft, setDraft] = useState("")

  // Live: reports that arrived since the list was read, and cards another admin changed.
  const [arrived, setArrived] = useState<ReadonlySet<string>>(new Set())
  const [fresh, setFresh] = useState<Readonly<Record<string, ScamReport>>>({})
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set())
  const rowsRef = useRef<ReadonlyArray<ScamReport>>([])
  rowsRef.current = list.rows
  const filtersRef = useRef(query.filters)
  filtersRef.current = query.filters
  useChanges(token, (change) => {
    if (!change.type.startsWith("scam-report.")) return
    const shown = rowsRef.current.some((row) => row._id === change.entityId)
    if (change.type === "scam-report.deleted") {
      if (shown) setGone((before) => new Set(before).add(change.entityId))
      return
    }
    if (change.type === "scam-report.created" && shown) return
    if (change.type === "scam-report.updated" && !shown) return
    void oneScamReport(token, change.entityId).then((report) => {
      if (change.type === "scam-report.updated") setFresh((before) => ({ ...before, [report._id]: report }))
      else if (matches(report, filtersRef.current)) setArrived((before) => new Set(before).add(report._id))
    }, () => undefined)
  })
  // A new query is a new list: what arrived before it is in it, or not meant for it.
  useEffect(() => setArrived(new Set()), [query])
  const waiting = [...arrived].filter((id) => !list.rows.some((row) => row._id === id)).length
  const showArrived = () => {
    setArrived(new Set())
    if (query.page === 1) reload()
    else url.go({ page: 1 })
  }

  /** A row, or the newer copy another admin's change brought. */
  const latest = (row: ScamReport): ScamReport => {
    const newer = fresh[row._id]
    return newer !== undefined && newer.version > row.version ? newer : row
  }
  /** A row as the screen shows it: the latest copy with this screen's own changes on it. */
  const current = (row: ScamReport): ScamReport => shownReport(snapshot.context, latest(row))
  const rows = list.rows
  const set = (row: ScamReport, change: { field: "status"; value: ScamReportStatus } | { field: "priority"; value: ScamReportPriority }) => {
    if (gone.has(row._id)) return
    triage.send({ type: "SET", change: { ...change, report: latest(row) } as never })
  }
  const setStatus = (row: ScamReport, value: ScamReportStatus, index?: number) => {
    set(row, { field: "status", value })
    // The next new report takes the focus, so a queue is worked through key after key.
    if (index === undefined) return
    const next = rows.findIndex((other, at) => at > index && current(other).status === "new" && !gone.has(other._id))
    if (next >= 0) keyboard.focusRow(next)
  }
  const openDetails = (row: ScamReport, focusNotes = false) => {
    const report = current(row)
    setDraft(report.adminNotes)
    notesFocus.current = focusNotes
    triage.send({ type: "OPEN_NOTES", report })
  }
  const notesFocus = useRef(false)
  const keyboard = useRowKeyboard<ScamReport, HTMLDivElement>(rows, {
    open: (row) => openDetails(row),
    keys: {
      ...Object.fromEntries(statuses.map((value, at) => [String(at + 1), (row: ScamReport) => setStatus(row, value, rows.indexOf(row))])),
      n: (row) => openDetails(row, true)
    },
    codes: Object.fromEntries(priorities.map((value, at) => [`Shift+Digit${at + 1}`, (row: ScamReport) => set(row, { field: "priority", value })]))
  })

  const focused = keyboard.focusedRow
  const detailsOf = snapshot.context.notesOf
  const detailsRow = detailsOf === null ? undefined : rows.find((row) => row._id === detailsOf._id)
  // The report opened keeps its modal even when a reload takes its card off this page.
  const details = detailsRow === undefined ? detailsOf as ScamReport | null : current(detailsRow)
  const filtered = Object.keys(query.filters).length > 0 || query.search.trim() !== ""
  const open = notesOpen(snapshot)
  const commands = useMemo((): ReadonlyArray<Command> => {
    const group = t.title
    const report = focused === undefined || gone.has(focused._id) ? undefined : current(focused)
    const name = report === undefined ? "" : t.title8(report._id)
    return [
      ...(report === undefined || focused === undefined ? [] : [
        ...statuses.filter((value) => value !== report.status).map((value): Command => ({
          id: `scam-reports:status:${value}`,
          label: `Set status ${t.statuses[value]}: ${name}`,
          group,
          shortcut: [String(statuses.indexOf(value) + 1)],
          guard: () => !open,
          run: () => setStatus(focused, value)
        })),
        ...priorities.filter((value) => value !== report.priority).map((value): Command => ({
          id: `scam-reports:priority:${value}`,
          label: `Set priority ${t.priorities[value]}: ${name}`,
          group,
          // Shown, not matched: the card matches Shift with a digit by `event.code` (use-row-keyboard.ts).
          shortcut: [`shift+${priorities.indexOf(value) + 1}`],
          guard: () => !open,
          run: () => set(focused, { field: "priority", value })
        })),
        { id: "scam-reports:details", label: `Open details: ${name}`, group, shortcut: ["Enter"], guard: () => !open, run: () => openDetails(focused) },
        { id: "scam-reports:notes", label: `Add admin notes: ${name}`, group, shortcut: ["n"], guard: () => !open, run: () => openDetails(focused, true) }
      ]),
      ...(waiting > 0 ? [{ id: "scam-reports:show-new", label: `Show ${t.newReports(waiting)}`, group, run: showArrived }] : []),
      ...statuses.map((value): Command => ({
        id: `scam-reports:filter:${value}`,
        label: `Show ${t.statuses[value].toLowerCase()} reports`,
        group,
        guard: () => query.filters.status !== value,
        run: () => url.filter("status", value)
      })),
      { id: "scam-reports:filter:all", label: "Show all reports", group, guard: () => filtered, run: () => url.go({ filters: {}, search: "", page: 1 }) },
      ...listCommands({ group, noun: "scam reports", list, url, csv })
    ]
  }, [focused, snapshot, fresh, gone, waiting, query, list.pagination, csv.busy, open])
  useRegisterCommands(commands)

  const counts = list.page?.statusCounts
  const countOf = (status: string) => counts?.find((count) => count._id === status)?.count
  const total = counts?.reduce((sum, count) => sum + count.count, 0)
  return (
    <Screen title={t.title}>
      <CountCards label={t.countsLabel} cards={[
        { key: "total", label: t.total, value: total, active: query.filters.status === undefined, onClick: () => url.filter("status", "") },
        ...statuses.map((value) => ({
          key: value,
          label: t.statuses[value],
          value: countOf(value),
          active: query.filters.status === value,
          onClick: () => url.filter("status", value)
        }))
      ]} />
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <SearchField label={t.searchLabel} placeholder={t.searchPlaceholder} value={searchText} onChange={setSearchText} busy={list.loading && !list.firstLoad} />
        {filterOptions.map((filter) => (
          <FilterSelect key={filter.name} url={url} name={filter.name} label={filter.label} allLabel={t.allOf(filter.label)} options={filter.options} />
        ))}
        <Button variant="soft" onClick={() => { setArrived(new Set()); reload() }}><ReloadIcon /> {t.refresh}</Button>
        <ExportCsvButton busy={csv.busy} onExport={csv.run} />
      </Flex>
      {waiting > 0 && (
        <div className="arrivals" role="status">
          <Text size="2">{t.newReports(waiting)} · </Text>
          <Button size="1" variant="ghost" onClick={showArrived}>{t.show}</Button>
        </div>
      )}
      {changeFailed(snapshot) && snapshot.context.error !== null && (
        <Callout.Root color="red" role="alert" mb="3">
          <Callout.Text>
            {snapshot.context.error}{" "}
            <Button size="1" variant="soft" color="red" onClick={() => triage.send({ type: "DISMISS" })}>{t.dismiss}</Button>
          </Callout.Text>
        </Callout.Root>
      )}
      <ListFrame list={list} loadingText={t.loading} loadFailedText={t.loadFailed} onPage={(page) => url.go({ page })} exportError={csv.error}>
        <CardList
          label={t.title}
          list={list}
          rowKey={(row) => row._id}
          keyboard={keyboard}
          empty={filtered ? t.emptyFiltered : t.empty}
          card={(row) => {
            const report = current(row)
            const title = t.title8(report._id)
            const deleted = gone.has(report._id)
            return (
              <div className="scam-card" aria-label={title} data-deleted={deleted}>
                <Flex justify="between" align="start" gap="2">
                  <Text as="div" weight="bold">{title}</Text>
                  <Flex gap="2" align="center">
                    {deleted && <Badge color="gray">{t.deleted}</Badge>}
                    <Badge color="gray" variant="outline">{scamTypeLabels[report.scamType]}</Badge>
                  </Flex>
                </Flex>
                <Text as="p" size="2" my="2" className="scam-description">{report.description}</Text>
                {report.walletAddress !== "" && <Text as="div" size="1" className="scam-wallet">{t.wallet}: {report.walletAddress}</Text>}
                <Text as="div" size="1" color="gray">{t.reported(shortDate(report.createdAt))}</Text>
                <Flex gap="2" mt="3" wrap="wrap" align="center">
                  <select className="native-select scam-select" data-color={statusColors[report.status]} aria-label={t.statusOf(title)} tabIndex={-1}
                    value={report.status} disabled={deleted} onChange={(event) => set(row, { field: "status", value: event.target.value as ScamReportStatus })}>
                    {statuses.map((value) => <option key={value} value={value}>{t.statuses[value]}</option>)}
                  </select>
                  <select className="native-select scam-select" data-color={priorityColors[report.priority]} aria-label={t.priorityOf(title)} tabIndex={-1}
                    value={report.priority} disabled={deleted} onChange={(event) => set(row, { field: "priority", value: event.target.value as ScamReportPriority })}>
                    {priorities.map((value) => <option key={value} value={value}>{t.priorities[value]}</option>)}
                  </select>
                  <Button size="1" variant="soft" color="gray" tabIndex={-1} disabled={deleted} onClick={() => openDetails(row)}>{t.details}</Button>
                </Flex>
              </div>
            )
          }}
        />
      </ListFrame>
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}</Text>
      <Dialog.Root open={open && details !== null} onOpenChange={(next) => !next && !savingNotes(snapshot) && triage.send({ type: "CLOSE" })}>
        <Dialog.Content maxWidth="620px" onOpenAutoFocus={(event) => {
          if (!notesFocus.current) return
          event.preventDefault()
          document.getElementById("scam-notes")?.focus()
        }}>
          {details !== null && (
            <>
              <Dialog.Title>{t.title8(details._id)}</Dialog.Title>
              <Dialog.Description size="2" color="gray">{scamTypeLabels[details.scamType]} · {t.reported(shortDate(details.createdAt))}</Dialog.Description>
              <Flex gap="2" my="3">
                <Badge highContrast color={statusColors[details.status]}>{t.statuses[details.status]}</Badge>
                <Badge highContrast color={priorityColors[details.priority]}>{t.priorities[details.priority]}</Badge>
              </Flex>
              <dl className="scam-facts">
                <dt>{t.type}</dt><dd>{scamTypeLabels[details.scamType]}</dd>
                <dt>Description</dt><dd className="scam-description">{details.description}</dd>
                {details.evidence !== "" && <><dt>{t.evidence}</dt><dd className="scam-description">{details.evidence}</dd></>}
                {details.walletAddress !== "" && <><dt>{t.wallet}</dt><dd className="scam-wallet">{details.walletAddress}</dd></>}
                {details.reporterContact !== "" && <><dt>{t.contact}</dt><dd>{details.reporterContact}</dd></>}
                <dt>{t.ipAddress}</dt><dd>{details.ipAddress === "" ? "–" : details.ipAddress}</dd>
              </dl>
              <label htmlFor="scam-notes"><Text as="div" size="2" weight="medium" mb="1">{t.adminNotes}</Text></label>
              <TextArea id="scam-notes" rows={4} maxLength={5000} value={draft} placeholder={t.notesPlaceholder} onChange={(event) => setDraft(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                    event.preventDefault()
                    triage.send({ type: "SAVE_NOTES", notes: draft })
                  }
                }} />
              {snapshot.context.notesError !== null && (
                <Callout.Root color="red" role="alert" mt="3"><Callout.Text>{snapshot.context.notesError}</Callout.Text></Callout.Root>
              )}
              <Flex gap="3" mt="4" justify="end">
                <Dialog.Close><Button variant="soft" color="gray" disabled={savingNotes(snapshot)}>{t.close}</Button></Dialog.Close>
                <Button disabled={savingNotes(snapshot) || draft.trim() === details.adminNotes} onClick={() => triage.send({ type: "SAVE_NOTES", notes: draft })}>
                  {savingNotes(snapshot) ? t.savingNotes : t.saveNotes}
                </Button>
              </Flex>
            </>
          )}
        </Dialog.Content>
      </Dialog.Root>
    </Screen>
  )
}
