import "./scam-reports.css"
import { ReloadIcon } from "@radix-ui/react-icons"
import { Button, Callout, Text } from "@radix-ui/themes"
import { useActorRef, useSelector } from "@xstate/react"
import { useCallback, useEffect, useMemo, useState } from "react"
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
import { changeFailed, notesOpen, savingNotes, scamReportMachine, shownReport } from "../../../machines/scam-report.ts"
import { changeScamReport, exportScamReports, listScamReports, oneScamReport } from "../../api/scam-reports.ts"
import { useChanges } from "../../api/change-stream.ts"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { useListScreen } from "../../lib/list/use-list-screen.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import type { RowAction } from "../../lib/list/use-row-focus.ts"
import { CountCards } from "../../ui/CountCards.tsx"
import { filterOf, ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import { ScamReportCard } from "./ScamReportCard.tsx"
import { ScamReportDetails } from "./ScamReportDetails.tsx"
import { reportLabel, scamTexts as t } from "./texts.ts"

const statuses = StatusSchema.literals
const priorities = PrioritySchema.literals
const spec = {
  title: t.title,
  noun: "scam reports",
  querySpec: { filters: { status: statuses, scamType: ScamType.literals, priority: priorities } },
  fetchPage: listScamReports,
  idOf: (report: ScamReport) => report._id,
  history: { kind: "scam-report" as const, labelOf: reportLabel },
  exportCsv: exportScamReports
}
const filters = [
  filterOf("status", t.filters.status, t.allOf(t.filters.status), statuses, (value) => t.statuses[value]),
  filterOf("scamType", t.filters.scamType, t.allOf(t.filters.scamType), ScamType.literals, (value) => scamTypeLabels[value]),
  filterOf("priority", t.filters.priority, t.allOf(t.filters.priority), priorities, (value) => t.priorities[value])
]

/** Whether a report belongs in the list its filters describe (the search is left to the server). */
const matches = (report: ScamReport, filters: Readonly<Record<string, string>>) =>
  (filters.status === undefined || report.status === filters.status) &&
  (filters.scamType === undefined || report.scamType === filters.scamType) &&
  (filters.priority === undefined || report.priority === filters.priority)

type Change = { field: "status"; value: ScamReportStatus } | { field: "priority"; value: ScamReportPriority }

/**
 * docs/product-spec.md §2 "Scam Reports", triaged from the keyboard on the one list screen: the
 * triage machine (machines/scam-report.ts) shows each change at once and sends them in order;
 * the change stream announces new reports without moving the list, and refreshes a card another
 * admin changed, in place. A report has two things to set, its status and its priority, so a key
 * never moves on: the report stays current (and shown, even when the change takes it out of the
 * filter) until `j` or `k` (docs/architecture.md, "Keys on a list").
 */
export const ScamReportsScreen = () => {
  const listChanged = useStableCallback((): void => reload())
  const [triageLogic] = useState(() =>
    scamReportMachine.provide({
      actors: { change: fromPromise(({ input }) => changeScamReport(input)), saveNotes: fromPromise(({ input }) => changeScamReport(input)) },
      actions: { listChanged }
    })
  )
  const triage = useActorRef(triageLogic)
  const snapshot = useSelector(triage, (current) => current)
  // Live: reports that arrived since the list was read, and cards another admin changed.
  const [arrived, setArrived] = useState<ReadonlySet<string>>(new Set())
  const [fresh, setFresh] = useState<Readonly<Record<string, ScamReport>>>({})
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set())

  /** A row, or the newer copy another admin's change brought. */
  const latest = useCallback(
    (row: ScamReport): ScamReport => {
      const newer = fresh[row._id]
      return newer !== undefined && newer.version > row.version ? newer : row
    },
    [fresh]
  )
  /** A row as the screen shows it: the latest copy with this screen's own changes on it. */
  const current = useCallback((row: ScamReport): ScamReport => shownReport(snapshot.context, latest(row)), [snapshot, latest])
  const set = useStableCallback((row: ScamReport, change: Change) => {
    if (gone.has(row._id)) return
    screen.keepShown(row)
    triage.send({ type: "SET", change: { ...change, report: latest(row) } as never })
  })
  const openDetails = useCallback((row: ScamReport) => triage.send({ type: "OPEN_NOTES", report: current(row) }), [triage, current])
  const open = notesOpen(snapshot)
  const actions = useMemo((): ReadonlyArray<RowAction<ScamReport>> => {
    const name = (row: ScamReport) => t.title8(row._id)
    const changeable = (row: ScamReport) => !gone.has(row._id)
    return [
      ...statuses.map((value, at): RowAction<ScamReport> => ({
        id: `scam-reports:status:${value}`,
        key: String(at + 1),
        label: (row) => `Set status ${t.statuses[value]}: ${name(row)}`,
        when: (row) => changeable(row) && current(row).status !== value,
        run: (row) => set(row, { field: "status", value })
      })),
      ...priorities.map((value, at): RowAction<ScamReport> => ({
        id: `scam-reports:priority:${value}`,
        key: `shift+${at + 1}`,
        label: (row) => `Set priority ${t.priorities[value]}: ${name(row)}`,
        when: (row) => changeable(row) && current(row).priority !== value,
        run: (row) => set(row, { field: "priority", value })
      })),
      { id: "scam-reports:details", key: "Enter", label: (row) => `Open details: ${name(row)}`, when: changeable, run: openDetails },
      { id: "scam-reports:notes", key: "n", label: (row) => `Add admin notes: ${name(row)}`, when: changeable, run: openDetails }
    ]
  }, [gone, current, set, openDetails])
  const screen = useListScreen(spec, { actions, idle: !open })
  const { url, query, list } = screen
  const reload = list.reload

  // Judged by the filters when the report arrives, not when the notice did.
  const matchesFilters = useStableCallback((report: ScamReport) => matches(report, query.filters))
  useChanges((change) => {
    if (!change.type.startsWith("scam-report.")) return
    const shown = list.rows.some((row) => row._id === change.entityId)
    if (change.type === "scam-report.deleted") {
      if (shown) setGone((before) => new Set(before).add(change.entityId))
      return
    }
    if (change.type === "scam-report.created" && shown) return
    if (change.type === "scam-report.updated" && !shown) return
    void oneScamReport(change.entityId).then(
      (report) => {
        if (change.type === "scam-report.updated") setFresh((before) => ({ ...before, [report._id]: report }))
        else if (matchesFilters(report)) setArrived((before) => new Set(before).add(report._id))
      },
      () => undefined
    )
  })
  // A new query is a new list: what arrived before it is in it, or not meant for it.
  useEffect(() => setArrived(new Set()), [query])
  const waiting = [...arrived].filter((id) => !list.rows.some((row) => row._id === id)).length
  const showArrived = useStableCallback(() => {
    setArrived(new Set())
    if (query.page === 1) reload()
    else url.go({ page: 1 })
  })

  const detailsOf = snapshot.context.notesOf
  const detailsRow = detailsOf === null ? undefined : screen.rows.find((row) => row._id === detailsOf._id)
  // The report opened keeps its modal even when a reload takes its card off this page.
  const details = detailsRow === undefined ? (detailsOf as ScamReport | null) : current(detailsRow)
  const filtered = Object.keys(query.filters).length > 0 || query.search.trim() !== ""
  const commands = useMemo(
    (): ReadonlyArray<Command> => [
      ...(waiting > 0 ? [{ id: "scam-reports:show-new", label: `Show ${t.newReports(waiting)}`, group: t.title, run: showArrived }] : []),
      ...statuses.map((value): Command => ({
        id: `scam-reports:filter:${value}`,
        label: `Show ${t.statuses[value].toLowerCase()} reports`,
        group: t.title,
        guard: () => query.filters.status !== value,
        run: () => url.filter("status", value)
      })),
      {
        id: "scam-reports:filter:all",
        label: "Show all reports",
        group: t.title,
        guard: () => filtered,
        run: () => url.go({ filters: {}, search: "", page: 1 })
      }
    ],
    [waiting, query, filtered, url, showArrived]
  )
  useRegisterCommands(commands)

  const counts = list.page?.statusCounts
  const countOf = (status: string) => counts?.find((count) => count._id === status)?.count
  return (
    <ListScreen
      screen={screen}
      texts={{ ...listTextsOf(t), empty: filtered ? t.emptyFiltered : t.empty }}
      above={
        <CountCards
          label={t.countsLabel}
          cards={[
            {
              key: "total",
              label: t.total,
              value: counts?.reduce((sum, count) => sum + count.count, 0),
              active: query.filters.status === undefined,
              onClick: () => url.filter("status", "")
            },
            ...statuses.map((value) => ({
              key: value,
              label: t.statuses[value],
              value: countOf(value),
              active: query.filters.status === value,
              onClick: () => url.filter("status", value)
            }))
          ]}
        />
      }
      filters={filters}
      tools={
        <Button
          variant="soft"
          onClick={() => {
            setArrived(new Set())
            reload()
          }}
        >
          <ReloadIcon /> {t.refresh}
        </Button>
      }
      notices={
        <>
          {waiting > 0 && (
            <div className="arrivals" role="status">
              <Text size="2">{t.newReports(waiting)} · </Text>
              <Button size="1" variant="ghost" onClick={showArrived}>
                {t.show}
              </Button>
            </div>
          )}
          {changeFailed(snapshot) && snapshot.context.error !== null && (
            <Callout.Root color="red" role="alert" mb="3">
              <Callout.Text>
                {snapshot.context.error}{" "}
                <Button size="1" variant="soft" color="red" onClick={() => triage.send({ type: "DISMISS" })}>
                  {t.dismiss}
                </Button>
              </Callout.Text>
            </Callout.Root>
          )}
        </>
      }
      view={{
        cards: {
          label: t.title,
          card: (row) => (
            <ScamReportCard report={current(row)} deleted={gone.has(row._id)} onSet={(change) => set(row, change)} onDetails={() => openDetails(row)} />
          )
        }
      }}
    >
      <ScamReportDetails
        details={open ? details : null}
        saving={savingNotes(snapshot)}
        error={snapshot.context.notesError}
        issues={snapshot.context.notesIssues}
        onSave={(notes) => triage.send({ type: "SAVE_NOTES", notes })}
        onClose={() => triage.send({ type: "CLOSE" })}
      />
    </ListScreen>
  )
}
