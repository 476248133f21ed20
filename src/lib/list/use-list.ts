import { useSelector } from "@xstate/react"
import { useMachine } from "../use-machine.ts"
import { useCallback, useEffect, useRef, useState } from "react"
import { fromPromise } from "xstate"
import type { Pagination } from "../../../contract/common.ts"
import { failureOf } from "../../../contract/call-failure.ts"
import { type ListPage, type ListQuery, listMachine, queryKey } from "../../../machines/list.ts"
import { AuthContext } from "../auth.tsx"
import { firstScreenShown } from "../first-screen.ts"
import { useStableCallback } from "../use-stable.ts"

export interface ListState<Row, P extends ListPage<Row> = ListPage<Row>> {
  /** The last page that arrived, with whatever else its answer carries (a queue's counts). */
  readonly page: P | null
  readonly rows: ReadonlyArray<Row>
  readonly pagination: Pagination | undefined
  /** A request is in flight (the last page, if any, is still shown). */
  readonly loading: boolean
  /** Nothing has arrived yet: the screen shows its loading text. */
  readonly firstLoad: boolean
  /** The last request failed; what was shown stays. */
  readonly error: string | null
  readonly reload: () => void
  /** When the last read of the server began (performance.now()); 0 before any: a page start-up brought was read earlier. */
  readonly readSince: () => number
}

/**
 * Runs the list machine for a screen: one request per query (the machine's first invoke is the
 * first page, unless start-up's answer for it is already here; the same query again is not a
 * second request), a 401 ends the session.
 */
type RowOf<P> = P extends ListPage<infer Row> ? Row : never

export const useList = <P extends ListPage>(
  query: ListQuery,
  fetchPage: (query: ListQuery) => Promise<P>,
  /** The first page if it is already here (start-up's answer): shown in the first render, not asked for again. */
  arrivedPage?: (query: ListQuery) => P | undefined,
  /** The page the browser's store (or the tab, at once) kept for a query: shown while the server is asked, if it comes first. */
  keptPage?: (query: ListQuery) => Promise<P | undefined> | P | undefined,
  /** Changes when the store opens: a list still waiting for the server asks it again (a reload opens it late). */
  keeper?: unknown
): ListState<RowOf<P>, P & ListPage<RowOf<P>>> => {
  const auth = AuthContext.useActorRef()
  // Read once, at mount: with it the machine starts ready, and asks for nothing.
  // Start-up's answer came in this load: read now, as far as the page can tell.
  const [arrived] = useState(() => {
    const page = arrivedPage?.(query)
    return page === undefined || page.readAt !== undefined ? page : { ...page, readAt: Date.now() }
  })
  // Provided once: the screen's call is read when the machine makes it (a directory screen's kind can change under it).
  const fetchLatest = useStableCallback(fetchPage)
  const readAt = useRef(0)
  const list = useMachine(
    () =>
      listMachine.provide({
        actors: {
          fetchPage: fromPromise(({ input }) => {
            readAt.current = performance.now()
            // Stamped with when the server answered: the stamp stays with the page wherever it is kept.
            return fetchLatest(input).then((page) => ({ ...page, readAt: Date.now() }))
          })
        },
        actions: {
          loadFailed: (_, { error }) => {
            if (failureOf(error).status === 401) auth.send({ type: "SESSION_EXPIRED" })
          }
        }
      }),
    { input: { query, page: arrived } }
  )
  const kept = useStableCallback((asked: ListQuery) => keptPage?.(asked))
  useEffect(() => {
    list.send({ type: "LOAD", query })
    const now = list.getSnapshot()
    // Asked while the server is, or after it could not be reached, for a list that shows nothing yet.
    if (now.matches("ready") || (now.matches("failed") && now.context.page !== null)) return
    const found = kept(query)
    if (found instanceof Promise) void found.then((page) => page !== undefined && list.send({ type: "KEPT", query, page }))
    else if (found !== undefined) list.send({ type: "KEPT", query, page: found })
  }, [query, list, kept, keeper])
  // Each value is its own selection, so a snapshot that changes none of them renders nothing. The
  // list counts as loading from the render its new query arrived in: the machine hears of the
  // query in the effect after that render, and its own `loading` then changes nothing on screen
  // (one render fewer a page turn or search, docs/architecture.md, "Interactions").
  const key = queryKey(query)
  const reload = useCallback(() => list.send({ type: "RELOAD" }), [list])
  const readSince = useCallback(() => readAt.current, [])
  const page = useSelector(list, (current) => current.context.page) as (P & ListPage<RowOf<P>>) | null
  const loading = useSelector(list, (current) => current.matches("loading") || queryKey(current.context.query) !== key)
  const error = useSelector(list, (current) => (current.matches("failed") ? current.context.error : null))
  // The first page on screen: what waited for the first screen may load now.
  const shown = page !== null
  useEffect(() => void (shown && firstScreenShown()), [shown])
  return {
    page,
    rows: page?.rows ?? [],
    pagination: page?.pagination,
    loading,
    firstLoad: loading && page === null,
    error,
    reload,
    readSince
  }
}
