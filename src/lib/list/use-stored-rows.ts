import { useEffect, useMemo, useRef } from "react"
import { type ListPage, type ListQuery, queryKey } from "../../../machines/list.ts"
import { ANY_KIND, type StoreKind } from "../store/kinds.ts"
import type { ConsoleStore, RecordNews, StoredList } from "../store/console-store.ts"
import { useStableCallback } from "../use-stable.ts"
import { listedBy } from "./listed.ts"
import { keepSnapshot } from "./tab-snapshot.ts"
import type { ListState } from "./use-list.ts"
import type { QuerySpec } from "./query-string.ts"

type RowOf<P> = P extends ListPage<infer Row> ? Row : never

/** What of a list screen's spec (./use-list-screen.ts, `ListScreenSpec`) its rows from the store need. */
interface StoredRowsSpec<Row> {
  readonly title: string
  readonly querySpec: QuerySpec
  readonly idOf: (row: Row) => string
  readonly store?: StoreKind
  readonly arrivals?: unknown
  readonly stillListed?: (row: Row) => boolean
}

/**
 * A list screen's rows as a query over the browser's store (docs/architecture.md, "The list
 * pattern"; "The browser's store"): the page the server sent fills the store and is kept for the
 * next visit (in the store, and with the tab as it goes: `owner`); what shows is the store's
 * newest copy of each row with this browser's waiting commands on top; a record the store says
 * has left the query leaves at once; the server is asked again only for what the store cannot
 * decide (news of a record the rows lack, a search's new match, a filter no field holds).
 */
export const useStoredRows = <P extends ListPage>(
  spec: StoredRowsSpec<RowOf<P>>,
  query: ListQuery,
  list: ListState<RowOf<P>, P & ListPage<RowOf<P>>>,
  store: ConsoleStore | undefined,
  lists: StoredList | undefined,
  owner: string | undefined
) => {
  type Row = RowOf<P>
  const listed = useMemo(() => listedBy(spec.querySpec, query), [spec.querySpec, query])
  // A page the server sent is kept for the next visit; a change in the rows' kind reads them again, quietly.
  // Not after a failed read: the page shown is then another query's, or the store's own.
  const arrived = list.loading || list.error !== null ? null : list.page
  useEffect(() => lists?.keep(query, arrived), [lists, query, arrived])
  // The server's last page for this query stays the one shown while it is read again (a change in
  // its kind, the stream going live): a reload then still has it.
  const lastArrived = useRef<{ readonly query: ListQuery; readonly page: P } | null>(null)
  useEffect(() => void (arrived !== null && (lastArrived.current = { query, page: arrived })), [arrived, query])
  // The page shown stays with the tab as the page goes away: a reload shows it before the store opens.
  const keepForReload = useStableCallback(() => {
    // The server's page for this query only: while another loads, or after a failed read, the page shown is not it.
    const shown = lastArrived.current
    if (owner !== undefined && list.error === null && shown !== null && queryKey(shown.query) === queryKey(query) && shown.page === list.page)
      keepSnapshot(owner, spec.title, query, shown.page)
  })
  useEffect(() => {
    addEventListener("pagehide", keepForReload)
    return () => removeEventListener("pagehide", keepForReload)
  }, [keepForReload])
  // News the rows shown do not have yet: a record changed past the version shown, gone, or new.
  const unseen = useStableCallback((news: RecordNews) => {
    const row = list.rows.find((candidate) => spec.idOf(candidate) === news.id) as { readonly version?: unknown } | undefined
    // The activity log's rows are events: any change is a new one.
    if (spec.store === ANY_KIND) return true
    if (row === undefined) return !news.deleted && spec.arrivals === undefined
    if (news.deleted) return true
    if (typeof row.version === "number" && news.version !== null && row.version >= news.version) return false
    // The store has the record whole and the record says whether it is listed: the rows shown
    // are worked out from the store (it stays, or leaves), and the server is not asked again.
    const held = news.whole && typeof spec.store === "string" ? store?.held(news.kind, news.id) : undefined
    return held === undefined || listed(held, row) === undefined
  })
  // The link back: the rows are read again, but a list that announces arrivals itself only
  // recovers a failed read (the stream's catch-up brings it what arrived meanwhile).
  const failedReadAgain = useStableCallback(() => void (list.error !== null && list.reload()))
  const back = spec.arrivals !== undefined ? failedReadAgain : undefined
  const reading = useStableCallback(() => list.loading)
  const failed = useStableCallback(() => list.error !== null)
  useEffect(
    () => lists?.watch(list.reload, { unseen, back, reading, readSince: list.readSince, failed }),
    [lists, list.reload, unseen, back, reading, list.readSince, failed]
  )
  const pageRows = list.rows
  // The rows as the store has them: newer copies, and this browser's waiting commands on top.
  const storeVersion = store?.version()
  const shown = useMemo(() => {
    const viewed = lists === undefined ? pageRows : (lists.rows(pageRows) as ReadonlyArray<Row>)
    const still = spec.stillListed
    return still === undefined ? viewed : viewed.filter((row) => still(row))
    // The store's version says when its view of the rows changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pageRows, lists, storeVersion, spec])
  // A record the store says has left the query (a decision answered) leaves the rows at once.
  const served = useMemo(() => {
    if (lists === undefined || typeof spec.store !== "string" || spec.store === ANY_KIND) return shown
    const read = new Map(pageRows.map((row) => [spec.idOf(row), row as object]))
    const still = shown.filter((row) => lists.waiting(row) || listed(row as object, read.get(spec.idOf(row))) !== false)
    // The same rows keep their identity: a screen's keys and focus follow them by it.
    return still.length === shown.length ? shown : still
  }, [shown, pageRows, lists, spec, listed])
  return { pageRows, shown, served, storeVersion }
}

/** How long the rows stay as they are after one leaves before the server is asked what comes up: a burst of keys asks once. */
const FILL_AFTER_MS = 400

/**
 * Rows the page showed have left it (their decisions answered): what comes up in their place is
 * the server's to say, from pages the store has never seen. Every row gone: read at once; some
 * gone while the server has pages after this one: read once the rows have stayed as they are for
 * a moment. Once per page, and only for rows that left while it showed them: a page the store
 * thins as it arrives is not read again.
 */
export const useReadWhenRowsLeave = (list: Pick<ListState<unknown, ListPage>, "page" | "loading" | "reload">, shown: number) => {
  const most = useRef<{ page: unknown; rows: number }>({ page: null, rows: 0 })
  const { page, loading } = list
  const reload = useStableCallback(() => list.reload())
  useEffect(() => {
    if (most.current.page !== page) most.current = { page, rows: shown }
    else most.current.rows = Math.max(most.current.rows, shown)
    if (loading || page === null || most.current.rows <= shown) return
    const emptied = shown === 0
    if (!emptied && page.pagination.page >= page.pagination.pages) return
    const read = () => {
      if (most.current.page !== page) return
      most.current = { page: null, rows: 0 }
      reload()
    }
    if (emptied) return read()
    const timer = setTimeout(read, FILL_AFTER_MS)
    return () => clearTimeout(timer)
  }, [page, loading, shown, reload])
}
