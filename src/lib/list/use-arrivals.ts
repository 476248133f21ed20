import { useEffect, useMemo, useState } from "react"
import type { ListQuery } from "../../../machines/list.ts"
import type { ConsoleStore } from "../store/console-store.ts"
import { useStableCallback } from "../use-stable.ts"
import { listedBy } from "./listed.ts"
import type { QuerySpec } from "./query-string.ts"

const none: ReadonlySet<string> = new Set()

/**
 * Records new to a list that announces them instead of taking them in ("3 new reports · Show",
 * docs/console.md): heard from the browser's store, the one reader of the change stream
 * (docs/architecture.md, "The browser's store"), and counted when the store holds the record
 * whole and its fields match the list's filters (the search is the server's to judge when the
 * list is read). The rows stay as they are, and the focus with them, until the person asks.
 * A new query forgets them (they are in it, or not meant for it); rows read that hold them take them.
 */
export const useArrivals = (
  kind: string | undefined,
  words: ((count: number) => string) | undefined,
  group: string,
  querySpec: QuerySpec,
  query: ListQuery,
  store: ConsoleStore | undefined,
  rowIds: ReadonlyArray<string>,
  showFirstPage: () => void
) => {
  const [arrived, setArrived] = useState(none)
  const filtered = useMemo(() => listedBy(querySpec, { ...query, search: "" }), [querySpec, query])
  const hear = useStableCallback((id: string) => {
    const held = store?.held(kind ?? "", id)
    if (held !== undefined && !rowIds.includes(id) && filtered(held) === true) setArrived((before) => new Set(before).add(id))
  })
  useEffect(
    () => (kind === undefined ? undefined : store?.onNews((news) => news.kind === kind && !news.deleted && news.whole && hear(news.id))),
    [kind, store, hear]
  )
  useEffect(() => setArrived(none), [query])
  useEffect(() => setArrived((before) => (rowIds.some((id) => before.has(id)) ? new Set([...before].filter((id) => !rowIds.includes(id))) : before)), [rowIds])
  const count = arrived.size
  /** Shows what arrived: the first page, read again. */
  const show = () => {
    setArrived(none)
    showFirstPage()
  }
  const said = words?.(count)
  return {
    /** What the list shows of them, and how (`show`), while any are waiting. */
    arrivals: said === undefined ? undefined : { count, words: said, show, forget: () => setArrived(none) },
    /** The palette's "Show 3 new reports", while any are waiting. */
    commands: said === undefined || count === 0 ? [] : [{ id: `${group}:show-new`, label: `Show ${said}`, group, run: show }]
  }
}
