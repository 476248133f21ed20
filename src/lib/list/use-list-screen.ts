import { useEffect, useMemo, useRef, useState } from "react"
import { MAX_SEARCH } from "../../../contract/list-rules.ts"
import type { ListPage, ListQuery } from "../../../machines/list.ts"
import { type Command, useRegisterCommands } from "../commands.tsx"
import type { CsvFile } from "../../../contract/lists.ts"
import { useCsvExport } from "./export-csv.ts"
import { listCommands } from "./list-commands.ts"
import type { QuerySpec } from "./query-string.ts"
import { useUrlQuery } from "./url-query.ts"
import { useDebouncedSearch } from "./use-debounced-search.ts"
import { useList } from "./use-list.ts"
import { type RowAction, useRowFocus } from "./use-row-focus.ts"
import { useStableCallback } from "../use-stable.ts"
import { type KeptRow, keepRow, withKept } from "./kept-row.ts"
import type { HistoryKind } from "../../../contract/history-rules.ts"
import { historyActionLabel, useHistory } from "../history.ts"

type RowOf<P> = P extends ListPage<infer Row> ? Row : never

/** What a list screen is, beyond the pieces every list shares (docs/architecture.md, "The list pattern"). */
export interface ListScreenSpec<P extends ListPage> {
  /** The screen's title: its heading, and the palette's group for its commands. */
  readonly title: string
  /** What the rows are, in the plural: "addresses", for "Reload the addresses". */
  readonly noun: string
  readonly querySpec: QuerySpec
  readonly fetchPage: (query: ListQuery) => Promise<P>
  /** The first page when start-up's answer for it is already here. */
  readonly arrivedPage?: (query: ListQuery) => P | undefined
  readonly idOf: (row: RowOf<P>) => string
  /** False for a list with no search (a short list: the allowed addresses, the sessions). */
  readonly searchable?: boolean
  /** Every row the filters match, as a file. */
  readonly exportCsv?: (query: ListQuery) => Promise<CsvFile>
  /** The rows' records keep a history: `h` and the palette's "Show history" open it (docs/architecture.md, "Record history"). */
  readonly history?: { readonly kind: HistoryKind; readonly labelOf: (row: RowOf<P>) => string }
}

/** A search longer than the API takes is asked with its first characters, and the screen says so. */
const bounded = (query: ListQuery): ListQuery => (query.search.length <= MAX_SEARCH ? query : { ...query, search: query.search.slice(0, MAX_SEARCH) })

/**
 * Everything a list screen repeats, in one place: the URL query, the list machine, the debounced
 * search, paging (a page past the last shows the last), the current row and its keys, CSV export
 * and the standard palette commands. A screen gives its spec (stable: a module constant or
 * `useMemo`), its row actions and whether it is idle (no dialog or form of its own open); it
 * renders the frame with `<ListScreen>` and registers only its own further commands.
 */
export const useListScreen = <P extends ListPage>(
  spec: ListScreenSpec<P>,
  options: {
    readonly actions: ReadonlyArray<RowAction<RowOf<P>>>
    readonly idle: boolean
  }
) => {
  const url = useUrlQuery(spec.querySpec)
  const query = useMemo(() => bounded(url.query), [url.query])
  const searchCut = url.query.search.length > MAX_SEARCH
  const list = useList(query, spec.fetchPage, spec.arrivedPage)
  const [searchText, setSearchText] = useDebouncedSearch(query.search, (search) => url.go({ search, page: 1 }, { replace: true }))
  const searchField = useRef<HTMLInputElement | null>(null)
  const exportCsv = spec.exportCsv
  const csv = useCsvExport(() => (exportCsv === undefined ? Promise.reject(new Error("This list has no CSV export")) : exportCsv(query)))
  // A record this screen changed in place stays shown, and current, until the person moves off
  // it, even when the list read after the change no longer holds it (it left the filter): the
  // next key then acts on the record the person meant (docs/architecture.md, "Keys on a list").
  const [kept, setKept] = useState<KeptRow<RowOf<P>> | null>(null)
  const served = list.rows as ReadonlyArray<RowOf<P>>
  const rows = useMemo(() => withKept(served, spec.idOf, kept), [served, kept, spec])
  const history = useHistory()
  const historyOf = spec.history
  const showHistory = useStableCallback((row: RowOf<P>) => {
    if (historyOf !== undefined) history.show({ kind: historyOf.kind, id: spec.idOf(row), label: historyOf.labelOf(row) })
  })
  const actions = useMemo(
    (): ReadonlyArray<RowAction<RowOf<P>>> =>
      historyOf === undefined ? options.actions : [...options.actions, { id: "history", key: "h", label: () => historyActionLabel, run: showHistory }],
    [options.actions, historyOf, showHistory]
  )
  const focus = useRowFocus<RowOf<P>, HTMLElement>({
    rows,
    idOf: spec.idOf,
    group: spec.title,
    noun: spec.noun,
    actions,
    idle: options.idle && !history.open,
    ...(spec.searchable === false ? {} : { search: searchField })
  })

  const currentId = focus.current === undefined ? null : spec.idOf(focus.current)
  // Judged on the kept row as it is when the update applies, not as this render saw it: a key
  // that keeps the row it moved to (`2` right after `j`) can be handled before this effect runs,
  // and must not be undone by it.
  useEffect(() => setKept((now) => (now !== null && now.id !== currentId ? null : now)), [currentId])
  useEffect(() => setKept(null), [query])
  // The same function for the screen's whole life: row actions made once can call it.
  const keepShown = useStableCallback((row: RowOf<P>) => {
    const index = rows.findIndex((candidate) => spec.idOf(candidate) === spec.idOf(row))
    const keeping = keepRow(rows, spec.idOf, index)
    if (keeping !== undefined) setKept({ ...keeping, row })
  })

  // `?page=999` on a list of two pages: the last page, in place of the address asked for.
  const { pagination, reload } = list
  const { go } = url
  // A restore in the history dialog changed a record: the rows are read again.
  const restores = history.changes
  const restoresSeen = useRef(restores)
  useEffect(() => {
    if (restores === restoresSeen.current) return
    restoresSeen.current = restores
    reload()
  }, [restores, reload])
  useEffect(() => {
    if (pagination !== undefined && pagination.total > 0 && query.page > pagination.pages) go({ page: pagination.pages }, { replace: true })
  }, [pagination, query.page, go])

  const { busy: csvBusy, run: csvRun } = csv
  const { showRemoved } = history
  const idle = options.idle && !history.open
  const commands = useMemo(
    (): ReadonlyArray<Command> => [
      ...focus.commands,
      ...(historyOf === undefined
        ? []
        : [
            {
              id: `${spec.title}:removed`,
              label: `Deleted ${spec.noun}`,
              group: spec.title,
              keywords: ["removed", "restore", "undelete", "trash"],
              guard: () => idle,
              run: () => showRemoved(historyOf.kind)
            }
          ]),
      ...listCommands({
        group: spec.title,
        noun: spec.noun,
        list: { pagination, reload },
        url,
        ...(exportCsv === undefined ? {} : { csv: { busy: csvBusy, run: csvRun } })
      })
    ],
    [focus.commands, spec, pagination, reload, url, exportCsv, csvBusy, csvRun, historyOf, showRemoved, idle]
  )
  useRegisterCommands(commands)

  return {
    spec,
    url,
    query,
    list,
    rows,
    focus,
    csv: exportCsv === undefined ? undefined : csv,
    search: { text: searchText, set: setSearchText, field: searchField, cut: searchCut },
    /** Keeps `row` on screen until the current row leaves it (a change that may take it out of the filter). */
    keepShown
  }
}

export type ListScreenState<P extends ListPage> = ReturnType<typeof useListScreen<P>>
