import { useSelector } from "@xstate/react"
import { useEffect, useState } from "react"
import { fromPromise } from "xstate"
import type { Pagination } from "../../../contract/common.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { type ListPage, type ListQuery, listMachine, queryKey } from "../../../machines/list.ts"
import { AuthContext } from "../auth.tsx"
import { firstScreenShown } from "../first-screen.ts"
import { useProvidedActorRef } from "../use-provided-actor.ts"

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
}

/**
 * Runs the list machine for a screen: one request per query (the machine's first invoke is the
 * first page, unless start-up's answer for it is already here; the same query again is not a
 * second request), a 401 ends the session.
 */
type RowOf<P> = P extends ListPage<infer Row> ? Row : never

export const useList = <P extends ListPage>(
  query: ListQuery,
  fetchPage: (token: string, query: ListQuery) => Promise<P>,
  /** The first page if it is already here (start-up's answer): shown in the first render, not asked for again. */
  arrivedPage?: (token: string, query: ListQuery) => P | undefined
): ListState<RowOf<P>, P & ListPage<RowOf<P>>> => {
  const auth = AuthContext.useActorRef()
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  // Read once, at mount: with it the machine starts ready, and asks for nothing.
  const [arrived] = useState(() => (arrivedPage === undefined ? undefined : arrivedPage(token, query)))
  const list = useProvidedActorRef<typeof listMachine>(
    listMachine, {
      actors: {
        fetchPage: fromPromise(({ input }) => fetchPage(token, input))
      },
      actions: {
        loadFailed: (_, { error }) => {
          if (failureOf(error).status === 401) auth.send({ type: "SESSION_EXPIRED" })
        }
      }
    },
    { input: { query, page: arrived } }
  )
  useEffect(() => list.send({ type: "LOAD", query }), [query, list])
  // Each value is its own selection, so a snapshot that changes none of them renders nothing. The
  // list counts as loading from the render its new query arrived in: the machine hears of the
  // query in the effect after that render, and its own `loading` then changes nothing on screen
  // (one render fewer a page turn or search, docs/architecture.md, "Interactions").
  const key = queryKey(query)
  const page = useSelector(list, (current) => current.context.page) as (P & ListPage<RowOf<P>>) | null
  const loading = useSelector(list, (current) => current.matches("loading") || queryKey(current.context.query) !== key)
  const error = useSelector(list, (current) => (current.matches("failed") ? current.context.error : null))
  // The first page on screen: what waited for the first screen may load now.
  useEffect(() => void (page !== null && firstScreenShown()), [page !== null])
  return {
    page,
    rows: page?.rows ?? [],
    pagination: page?.pagination,
    loading,
    firstLoad: loading && page === null,
    error,
    reload: () => list.send({ type: "RELOAD" })
  }
}
