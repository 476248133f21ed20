import { useSelector } from "@xstate/react"
import { fromPromise } from "xstate"
import type { ScamReport, ScamReportPriority, ScamReportStatus } from "../../../contract/scam-reports.ts"
import { scamReportPriorities, scamReportStatuses } from "../../../contract/scam-report-rules.ts"
import { notesOpen, type ReportChange, scamReportMachine, triageErrors } from "../../../machines/scam-report.ts"
import { REPORT_KIND, saveReportNotes, type ScamReportsPage } from "../../api/scam-reports.ts"
import { decisionAction } from "../../kinds/decision.ts"
import { reportDecision } from "../../kinds/scam-reports.ts"
import { answeredOrKept, useStore, withStore } from "../../lib/store/handle.ts"
import { openedVersion } from "../../lib/store/use-open-record.ts"
import { type ListAction, type ListScreenSpec, useListScreen } from "../../lib/list/use-list-screen.ts"
import { useMachine } from "../../lib/use-machine.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { scamTexts as t } from "./texts.ts"

const statuses = scamReportStatuses
const priorities = scamReportPriorities

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
      const when = (row: ScamReport) => decision.when(shown(row))
      const decide = (rows: ReadonlyArray<ScamReport>, bulk: boolean) => (bulk ? setMany(rows, change) : rows.forEach((row) => set(row, change)))
      return [decisionAction(decision, { nameOf: (row) => t.title8(row._id), when, decide })]
    }),
    { id: "scam-reports:details", key: "Enter", hint: "details", label: (row) => `Open details: ${t.title8(row._id)}`, run: openDetails },
    { id: "scam-reports:notes", key: "n", hint: "notes", label: (row) => `Add admin notes: ${t.title8(row._id)}`, run: openDetails }
  ]
}

/**
 * The reports' triage on the list screen (machines/scam-report.ts): each change shown at once and
 * sent in order, the details and their notes. A report has two things to set, its status and its
 * priority, so a key never moves on: the report stays current (and shown, even when the change
 * takes it out of the filter) until `j` or `k` (docs/architecture.md, "Keys on a list").
 */
export const useReportTriage = (spec: ListScreenSpec<ScamReportsPage>) => {
  const triage = useMachine(() =>
    scamReportMachine.provide({
      actors: { saveNotes },
      actions: {
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
  /** A row as the screen shows it: the newest copy with this browser's changes still on their way on it. */
  const current = (row: ScamReport): ScamReport => store?.view(REPORT_KIND, row._id, row) ?? row
  const set = useStableCallback((row: ScamReport, change: Change) => {
    screen.keepShown(row)
    triage.send({ type: "SET", change: { ...change, report: current(row) } as never })
  })
  // One key for a selection: each report's own change, in order; the current report stays put.
  const setMany = useStableCallback((rows: ReadonlyArray<ScamReport>, change: Change) => {
    const now = screen.focus.current
    if (now !== undefined) screen.keepShown(now)
    for (const row of rows) triage.send({ type: "SET", change: { ...change, report: current(row) } as never })
  })
  const openDetails = useStableCallback((row: ScamReport) => {
    const shown = current(row)
    // The notes name the version the report will have once this browser's changes to it are in.
    triage.send({ type: "OPEN_NOTES", report: { ...shown, version: openedVersion(store, REPORT_KIND, shown) } })
  })
  const actions = reportActions(current, set, setMany, openDetails)
  const screen = useListScreen(spec, { actions, idle: !open })
  const detailsRow = context.notesOf === null ? undefined : screen.rows.find((row) => row._id === context.notesOf?._id)
  // The report opened keeps its modal even when a reload takes its card off this page.
  const details = detailsRow === undefined ? (context.notesOf as ScamReport | null) : current(detailsRow)
  return { screen, triage, open, details, current, set, openDetails }
}
