import "./scam-reports.css"
import { ReloadIcon } from "@radix-ui/react-icons"
import { Button, Text } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
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
import { notesOpen, type ReportChange, scamReportMachine, triageErrors } from "../../../machines/scam-report.ts"
import { exportScamReports, listScamReports, REPORT_KIND, saveReportNotes, type ScamReportsPage } from "../../api/scam-reports.ts"
import { decisionAction } from "../../kinds/decision.ts"
import { reportDecision } from "../../kinds/scam-reports.ts"
import { answeredOrKept, useStore, withStore } from "../../lib/store/handle.ts"
import { openedVersion } from "../../lib/store/use-open-record.ts"
import { type ListAction, useListScreen } from "../../lib/list/use-list-screen.ts"
import { useMachine } from "../../lib/use-machine.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { countsOf, filterOf, selectable } from "../../lib/list/declarations.ts"
import { ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import { ScamReportCard } from "./ScamReportCard.tsx"
import { ScamReportDetails } from "./ScamReportDetails.tsx"
import { reportLabel, scamTexts as t } from "./texts.ts"
import { useArrivals, useLiveReports } from "./use-live-reports.ts"

const statuses = StatusSchema.literals
const priorities = PrioritySchema.literals
const spec = {
  title: t.title,
  noun: "scam reports",
  querySpec: { filters: { status: statuses, scamType: ScamType.literals, priority: priorities } },
  fetchPage: listScamReports,
  // A report another admin changed is read again with the rows; one that arrived is announced (./use-live-reports.ts).
  store: "scam-report" as const,
  rereadShownOnly: true,
  idOf: (report: ScamReport) => report._id,
  history: { kind: "scam-report" as const, labelOf: reportLabel },
  exportCsv: exportScamReports,
  selectable,
  filters: [
    filterOf("status", t.filters.status, t.allOf(t.filters.status), statuses, (value) => t.statuses[value], {
      show: (label) => `Show ${label.toLowerCase()} reports`
    }),
    filterOf("scamType", t.filters.scamType, t.allOf(t.filters.scamType), ScamType.literals, (value) => scamTypeLabels[value]),
    filterOf("priority", t.filters.priority, t.allOf(t.filters.priority), priorities, (value) => t.priorities[value])
  ],
  clearFilters: "Show all reports",
  counts: countsOf({
    label: t.countsLabel,
    filter: "status",
    total: t.total,
    cards: statuses.map((value) => [value, t.statuses[value]] as const),
    of: (page: ScamReportsPage) => ({
      total: page.statusCounts.reduce((sum, count) => sum + count.count, 0),
      ...Object.fromEntries(page.statusCounts.map((count) => [count._id, count.count]))
    })
  })
}

/**
 * The notes, a command after the report's changes still on their way, at the version the details
 * opened at (counting those): shown at once; kept offline, the details close (docs/architecture.md, "Forms").
 */
const saveNotes = fromPromise<unknown, ReportChange>(({ input }) =>
  answeredOrKept((kept) =>
    saveReportNotes(input, {
      kind: REPORT_KIND,
      recordIds: [input.report._id],
      effect: { adminNotes: input.value },
      label: `${t.adminNotes}: ${t.title8(input.report._id)}`,
      failed: triageErrors.notes,
      quiet: true,
      kept
    })
  )
)

type Change = { field: "status"; value: ScamReportStatus } | { field: "priority"; value: ScamReportPriority }

/**
 * A key per status and per priority, each changing the report shown, or every selected report
 * that differs (`x`, Shift+J/K); Enter and `n` open its details and notes.
 */
const reportActions = (
  shown: (row: ScamReport) => ScamReport,
  changeable: (row: ScamReport) => boolean,
  set: (row: ScamReport, change: Change) => void,
  setMany: (rows: ReadonlyArray<ScamReport>, change: Change) => void,
  openDetails: (row: ScamReport) => void
): ReadonlyArray<ListAction<ScamReport>> => {
  const changes: ReadonlyArray<Change> = [
    ...statuses.map((value) => ({ field: "status", value }) as const),
    ...priorities.map((value) => ({ field: "priority", value }) as const)
  ]
  return [
    ...changes.flatMap((change) => {
      const decision = reportDecision(change)
      if (decision === undefined) return []
      const when = (row: ScamReport) => changeable(row) && decision.when(shown(row))
      const decide = (rows: ReadonlyArray<ScamReport>, bulk: boolean) => (bulk ? setMany(rows, change) : rows.forEach((row) => set(row, change)))
      return [decisionAction(decision, { nameOf: (row) => t.title8(row._id), when, decide })]
    }),
    { id: "scam-reports:details", key: "Enter", hint: "details", label: (row) => `Open details: ${t.title8(row._id)}`, when: changeable, run: openDetails },
    { id: "scam-reports:notes", key: "n", hint: "notes", label: (row) => `Add admin notes: ${t.title8(row._id)}`, when: changeable, run: openDetails }
  ]
}

/**
 * docs/product-spec.md §2 "Scam Reports", triaged from the keyboard on the one list screen: the
 * triage machine (machines/scam-report.ts) shows each change at once and sends them in order;
 * the change stream announces new reports without moving the list, and refreshes a card another
 * admin changed, in place. A report has two things to set, its status and its priority, so a key
 * never moves on: the report stays current (and shown, even when the change takes it out of the
 * filter) until `j` or `k` (docs/architecture.md, "Keys on a list").
 */
export const ScamReportsScreen = () => {
  const listChanged = useStableCallback((): void => screen.list.reload())
  const triage = useMachine(() =>
    scamReportMachine.provide({
      actors: { saveNotes },
      actions: {
        listChanged,
        change: (_, { change }) =>
          withStore((store) => {
            for (const command of reportDecision(change)?.commands(change.report as ScamReport, { title: t.title8(change.report._id), reason: "" }) ?? [])
              store.command(command)
          })
      }
    })
  )
  const context = useSelector(triage, (snapshot) => snapshot.context)
  const open = useSelector(triage, notesOpen)
  const store = useStore()
  const live = useLiveReports(() => ({ rows: screen.list.rows, query: screen.query, reload: screen.list.reload, firstPage: showFirstPage }))
  /** A row as the screen shows it: the latest copy with this browser's changes still on their way on it. */
  const current = (row: ScamReport): ScamReport => store?.view(REPORT_KIND, row._id, live.latest(row)) ?? live.latest(row)
  const set = useStableCallback((row: ScamReport, change: Change) => {
    if (live.gone.has(row._id)) return
    screen.keepShown(row)
    triage.send({ type: "SET", change: { ...change, report: current(row) } as never })
  })
  // One key for a selection: each report's own change, in order; the current report stays put.
  const setMany = useStableCallback((rows: ReadonlyArray<ScamReport>, change: Change) => {
    const now = screen.focus.current
    if (now !== undefined) screen.keepShown(now)
    for (const row of rows) if (!live.gone.has(row._id)) triage.send({ type: "SET", change: { ...change, report: current(row) } as never })
  })
  const openDetails = useStableCallback((row: ScamReport) => {
    const shown = current(row)
    // The notes name the version the report will have once this browser's changes to it are in.
    triage.send({ type: "OPEN_NOTES", report: { ...shown, version: openedVersion(store, REPORT_KIND, shown) } })
  })
  const actions = reportActions(current, (row) => !live.gone.has(row._id), set, setMany, openDetails)
  const commands = live.waiting === 0 ? [] : [{ id: "scam-reports:show-new", label: `Show ${t.newReports(live.waiting)}`, run: live.show }]
  const screen = useListScreen(spec, { actions, idle: !open, commands })
  const { url, query, list } = screen
  const showFirstPage = () => (query.page === 1 ? list.reload() : url.go({ page: 1 }))
  useArrivals(live, query, list.rows)
  const detailsRow = context.notesOf === null ? undefined : screen.rows.find((row) => row._id === context.notesOf?._id)
  // The report opened keeps its modal even when a reload takes its card off this page.
  const details = detailsRow === undefined ? (context.notesOf as ScamReport | null) : current(detailsRow)
  return (
    <ListScreen
      screen={screen}
      texts={{ ...listTextsOf(t), empty: screen.filtered ? t.emptyFiltered : t.empty }}
      view={{
        cards: {
          label: t.title,
          card: (row, waiting) => (
            <ScamReportCard
              report={current(row)}
              deleted={live.gone.has(row._id)}
              onSet={(change) => set(row, change)}
              onDetails={() => openDetails(row)}
              waiting={waiting}
            />
          )
        }
      }}
      tools={
        <Button
          variant="soft"
          onClick={() => {
            live.forget()
            list.reload()
          }}
        >
          <ReloadIcon /> {t.refresh}
        </Button>
      }
      notices={
        <>
          {live.waiting > 0 && (
            <div className="arrivals" role="status">
              <Text size="2">{t.newReports(live.waiting)} · </Text>
              <Button size="1" variant="ghost" onClick={live.show}>
                {t.show}
              </Button>
            </div>
          )}
        </>
      }
    >
      <ScamReportDetails details={open ? details : null} triage={triage} />
    </ListScreen>
  )
}
