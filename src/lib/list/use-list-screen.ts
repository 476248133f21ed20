import { useCallback, useEffect, useMemo, useRef, useState } from "react"
import { MAX_SEARCH } from "../../../contract/list-rules.ts"
import type { ListPage, ListQuery } from "../../../machines/list.ts"
import { type Command, useRegisterCommands } from "../commands.tsx"
import { useCsvExport } from "./export-csv.ts"
import { listCommands } from "./list-commands.ts"
import type { QuerySpec } from "./query-string.ts"
import { useUrlQuery } from "./url-query.ts"
import { useDebouncedSearch } from "./use-debounced-search.ts"
import { useList } from "./use-list.ts"
import { type RowAction, useRowFocus } from "./use-row-focus.ts"

type RowOf<P> = P extends ListPage<infer Row> ? Row : never

/** What a list screen is, beyond the pieces every list shares (docs/architecture.md, "The list pattern"). */
export interface ListScreenSpec<P extends ListPage> {
  /** The screen's title: its heading, and the palette's group for its commands. */
  readonly title: string
  /** What the rows are, in the plural: "addresses", for "Reload the addresses". */
  readonly noun: string
  readonly querySpec: QuerySpec
  readonly fetchPage: (token: string, query: ListQuery) => Promise<P>
  /** The first page when start-up's answer for it is already here. */
  readonly arrivedPage?: (token: string, query: ListQuery) => P | undefined
  readonly idOf: (row: RowOf<P>) => string
  /** False for a list with no search (a short list: the allowed addresses, the sessions). */
  readonly searchable?: boolean
  /** Every row the filters match, as a file. */
  readonly csv?: { readonly path: (query: ListQuery) => string; readonly file: string }
}

/** A search longer than the API takes is asked with its first characters, and the screen says so. */
const bounded = (query: ListQuery): ListQuery =>
  query.search.length <= MAX_SEARCH ? query : { ...query, search: query.search.slice(0, MAX_SEARCH) }

/**
 * Everything a list screen repeats, in one place: the URL query, the list machine, the debounced
 * search, paging (a page past the last shows the last), the current row and its keys, CSV export
 * and the standard palette commands. A screen gives its spec (stable: a module constant or
 * `useMemo`), its row actions and whether it is idle (no dialog or form of its own open); it
 * renders the frame with `<ListScreen>` and registers only its own further commands.
 */
export const useListScreen = <P extends ListPage>(spec: ListScreenSpec<P>, options: {
  readonly actions: ReadonlyArray<RowAction<RowOf<P>>>
  readonly idle: boolean
}) => {
  const url = useUrlQuery(spec.querySpec)
  const query = useMemo(() => bounded(url.query), [url.query])
  const searchCut = url.query.search.length > MAX_SEARCH
  const list = useList(query, spec.fetchPage, spec.arrivedPage)
  const [searchText, setSearchText] = useDebouncedSearch(query.search, (search) => url.go({ search, page: 1 }, { replace: true }))
  const searchField = useRef<HTMLInputElement | null>(null)
  const csvPath = spec.csv
  const csv = useCsvExport(() => csvPath?.path(query) ?? "", csvPath?.file ?? "export.csv")
  // A record this screen changed in place stays shown, and current, until the person moves off
  // it, even when the list read after the change no longer holds it (it left the filter): the
  // next key then acts on the record the person meant (docs/architecture.md, "Keys on a list").
  const [kept, setKept] = useState<{ readonly id: string; readonly row: RowOf<P>; readonly index: number } | null>(null)
  const served = list.rows as ReadonlyArray<RowOf<P>>
  const rows = useMemo(() => {
    if (kept === null || served.some((row) => spec.idOf(row) === kept.id)) return served
    return [...served.slice(0, kept.index), kept.row, ...served.slice(kept.index)]
  }, [served, kept, spec])
  const focus = useRowFocus<RowOf<P>, HTMLElement>({
    rows,
    idOf: spec.idOf,
    group: spec.title,
    noun: spec.noun,
    actions: options.actions,
    idle: options.idle,
    ...(spec.searchable === false ? {} : { search: searchField })
  })

  const currentId = focus.current === undefined ? null : spec.idOf(focus.current)
  useEffect(() => {
    if (kept !== null && currentId !== kept.id) setKept(null)
  }, [currentId])
  useEffect(() => setKept(null), [query])
  // The same function for the screen's whole life: row actions made once can call it.
  const shown = useRef(rows)
  shown.current = rows
  const keepShown = useCallback((row: RowOf<P>) => {
    const index = shown.current.findIndex((candidate) => spec.idOf(candidate) === spec.idOf(row))
    if (index >= 0) setKept({ id: spec.idOf(row), row, index })
  }, [spec])

  // `?page=999` on a list of two pages: the last page, in place of the address asked for.
  const pagination = list.pagination
  useEffect(() => {
    if (pagination !== undefined && pagination.total > 0 && query.page > pagination.pages) url.go({ page: pagination.pages }, { replace: true })
  }, [pagination, query.page])

  const commands = useMemo((): ReadonlyArray<Command> => [
    ...focus.commands,
    ...listCommands({ group: spec.title, noun: spec.noun, list, url, ...(csvPath === undefined ? {} : { csv }) })
  ], [focus.commands, spec, list.pagination, list.error, query, csv.busy])
  useRegisterCommands(commands)

  return {
    spec,
    url,
    query,
    list,
    rows,
    focus,
    csv: csvPath === undefined ? undefined : csv,
    search: { text: searchText, set: setSearchText, field: searchField, cut: searchCut },
    /** Keeps `row` on screen until the current row leaves it (a change that may take it out of the filter). */
    keepShown
  }
}

export type ListScreenState<P extends ListPage> = ReturnType<typeof useListScreen<P>>
