import { useEffect, useState } from "react"
import type { ScamReport } from "../../../contract/scam-reports.ts"
import type { ListQuery } from "../../../machines/list.ts"
import { oneScamReport } from "../../api/scam-reports.ts"
import { useChanges } from "../../api/change-stream.ts"
import { useStableCallback } from "../../lib/use-stable.ts"

/** Whether a report belongs in the list its filters describe (the search is left to the server). */
const matches = (report: ScamReport, filters: Readonly<Record<string, string>>) =>
  (filters.status === undefined || report.status === filters.status) &&
  (filters.scamType === undefined || report.scamType === filters.scamType) &&
  (filters.priority === undefined || report.priority === filters.priority)

/** The list as the change stream leaves it: what `useLiveReports` reads of the list screen. */
interface ShownList {
  readonly rows: ReadonlyArray<ScamReport>
  readonly query: ListQuery
  readonly reload: () => void
  readonly firstPage: () => void
}

/**
 * The change stream on the scam-report list: reports that arrived since the list was read are
 * announced without moving the list, a card another admin changed is refreshed in place, and a
 * deleted one is marked. `list` is read when a change arrives (the screen made after this hook).
 */
export const useLiveReports = (list: () => ShownList) => {
  const [arrived, setArrived] = useState<ReadonlySet<string>>(new Set())
  const [fresh, setFresh] = useState<Readonly<Record<string, ScamReport>>>({})
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set())
  // Judged by the filters when the report arrives, not when the notice did.
  const matchesFilters = useStableCallback((report: ScamReport) => matches(report, list().query.filters))
  useChanges((change) => {
    if (!change.type.startsWith("scam-report.")) return
    const shown = list().rows.some((row) => row._id === change.entityId)
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
  return {
    gone,
    /** A row, or the newer copy another admin's change brought. */
    latest: (row: ScamReport): ScamReport => {
      const newer = fresh[row._id]
      return newer !== undefined && newer.version > row.version ? newer : row
    },
    /** How many reports arrived that the rows shown do not hold. */
    waiting: arrived.size,
    /** The rows shown now hold these: they are no longer waiting. */
    shown: (rows: ReadonlyArray<ScamReport>) =>
      setArrived((before) => (rows.some((row) => before.has(row._id)) ? new Set([...before].filter((id) => !rows.some((row) => row._id === id))) : before)),
    /** Shows what arrived: the first page, read again. */
    show: () => {
      setArrived(new Set())
      list().firstPage()
    },
    /** A new query is a new list: what arrived before it is in it, or not meant for it. */
    forget: () => setArrived(new Set())
  }
}

/** The arrivals as the list moves: a new query forgets them, rows that hold them take them. */
export const useArrivals = (live: ReturnType<typeof useLiveReports>, query: ListQuery, rows: ReadonlyArray<ScamReport>) => {
  const forget = useStableCallback(live.forget)
  const shown = useStableCallback(live.shown)
  useEffect(() => forget(), [query, forget])
  useEffect(() => shown(rows), [rows, shown])
}
