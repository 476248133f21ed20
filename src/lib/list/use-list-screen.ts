import { useCallback, useEffect, useMemo, useRef, useState } from "react"
import { MAX_SEARCH } from "../../../contract/list-rules.ts"
import type { ListPage, ListQuery } from "../../../machines/list.ts"
import { currentStore, useStore } from "../store/handle.ts"
import { ANY_KIND, type MixedKinds } from "../store/kinds.ts"
import type { CallAs } from "../store/console-store.ts"
import { type Command, useDeclaredCommands } from "../commands.tsx"
import type { CsvFile } from "../../../contract/lists.ts"
import { useCsvExport } from "./export-csv.ts"
import { listCommands } from "./list-commands.ts"
import { useReadWhenRowsLeave, useStoredRows } from "./use-stored-rows.ts"
import { useArrivals } from "./use-arrivals.ts"
import { deletionAs } from "./deletion.ts"
import type { QuerySpec } from "./query-string.ts"
import { useUrlQuery } from "./url-query.ts"
import { useDebouncedSearch } from "./use-debounced-search.ts"
import { useList } from "./use-list.ts"
import { type RowAction, useRowFocus } from "./use-row-focus.ts"
import { useStableCallback } from "../use-stable.ts"
import { AuthContext } from "../auth.tsx"
import { takeSnapshot } from "./tab-snapshot.ts"
import { type KeptRow, keepRow, withKept } from "./kept-row.ts"
import type { HistoryKind } from "../../../contract/history-rules.ts"
import type { ActivityArea } from "../../../contract/activity.ts"
import { historyActionLabel, useHistory } from "../history.ts"
import type { KeyHint, ListCounts, ListFilter, Selectable, Selection } from "./declarations.ts"

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
  /** The toolbar's selects, each with its palette commands. */
  readonly filters?: ReadonlyArray<ListFilter>
  /** The toolbar's Refresh button, in these words: the rows read again (the palette's "Reload the …" does the same). */
  readonly refresh?: string
  /** A palette command that clears every filter and the search ("Clear filters"), offered while one is set. */
  readonly clearFilters?: string
  /** The count cards above the list, from the page's counts. */
  readonly counts?: ListCounts<P>
  /** Rows can be selected (`selectable` of ./declarations.ts: `x`, Shift+J/K, Escape) for the actions that take a selection (`bulk`). */
  readonly selectable?: Selectable
  /**
   * The rows' kind in the browser's store (the change stream's area: "listing"): the rows show
   * as the store has them, with this browser's waiting commands, a colleague's change arrives
   * live, and a page seen before shows at once (docs/architecture.md, "The browser's store").
   */
  readonly store?: ActivityArea | typeof ANY_KIND | MixedKinds
  /** New records are announced in these words ("3 new reports") instead of read into the rows (./use-arrivals.ts). */
  readonly arrivals?: (count: number) => string
  /**
   * Whether a row, as the store has it now, still belongs in the list (a desk item decided
   * elsewhere does not): one that no longer does leaves at once, before the list is read again,
   * unless it is the row this screen keeps shown.
   */
  readonly stillListed?: (row: RowOf<P>) => boolean
  /** The page's rows in the order shown, under the query (the desk groups related reports): `j`/`k` follow it. */
  readonly arrange?: (rows: ReadonlyArray<RowOf<P>>, query: ListQuery) => ReadonlyArray<RowOf<P>>
}

/** A row action's button in the row (a table's last column, a card's buttons): out of the tab order, the key does the same. */
export interface RowButton<Row> {
  readonly label: string | ((row: Row) => string)
  readonly tone?: "red" | "green"
  /** What the button does, when not the action itself (a card's Approve acts on that card, and stays on it). */
  readonly onClick?: (row: Row) => void
}

/** Asked before the action runs: the dialog's words, and the call, which the list reloads after. */
export interface Confirmation<Row> {
  readonly title: string
  readonly question: string
  /** What is acted on, under the question. */
  readonly subject: (row: Row) => string
  readonly texts: { readonly cancel: string; readonly delete: string; readonly deleting: string }
  /** What a refusal is prefixed with: "Failed to delete listing". */
  readonly failed: string
  /** The call deletes the row's record: on a list kept in the store it is a command, and the row goes at once. */
  readonly removes?: boolean
  /**
   * The call; `as` says what it is to the browser's store, on a list kept there: the row goes at
   * once, the command goes out after the ones before it, a refusal puts it back and says why.
   */
  readonly run: (row: Row, as?: CallAs) => Promise<unknown>
}

/**
 * One thing a person can do to a row, declared once: its key and the hint's words for it, its
 * palette label, its button, its confirmation, and what it does to a selection.
 */
export type ListAction<Row> = Omit<RowAction<Row>, "run" | "key"> & {
  readonly button?: RowButton<Row>
  /** With rows selected, the action acts on them instead of the current row. */
  readonly bulk?: {
    readonly label: (rows: ReadonlyArray<Row>) => string
    readonly when?: (rows: ReadonlyArray<Row>) => boolean
    readonly run: (rows: ReadonlyArray<Row>) => void
  }
} & ({ readonly key: string; readonly hint: string } | { readonly key?: undefined; readonly hint?: undefined }) &
  ({ readonly run: (row: Row) => void; readonly confirm?: undefined } | { readonly confirm: Confirmation<Row>; readonly run?: undefined })

/**
 * A screen's own command (group: the screen's title); one with a key says it in the hint. It waits
 * while the screen is not idle, unless it is what closes the screen's form again (`evenOpen`).
 */
export type ListCommand = Omit<Command, "group"> & { readonly hint?: string; readonly evenOpen?: boolean }

/** A row action asking its confirmation. */
export interface Asking<Row> {
  readonly row: Row
  readonly confirm: Confirmation<Row>
  /** The row's deletion as a command (the list is on the store, and it is open): done at once. */
  readonly as?: CallAs
}

const noSelection: Selection = { ids: new Set(), anchor: null }
const noRows: ReadonlyArray<never> = []

/** A search longer than the API takes is asked with its first characters, and the screen says so. */
const bounded = (query: ListQuery): ListQuery => (query.search.length <= MAX_SEARCH ? query : { ...query, search: query.search.slice(0, MAX_SEARCH) })

/**
 * Everything a list screen repeats, in one place: the URL query, the list machine, the debounced
 * search, paging (a page past the last shows the last), the current row and its keys, the row
 * actions' buttons and confirmations, the filters' and the screen's palette commands, the count
 * cards, a selection, the keys' hint, CSV export and the standard commands. A screen gives its
 * spec (stable: a module constant or `useMemo`), its row actions, its commands and whether it
 * is idle (no dialog or form of its own open), and renders the frame with `<ListScreen>`.
 */
export const useListScreen = <P extends ListPage>(
  spec: ListScreenSpec<P>,
  options: {
    readonly actions: ReadonlyArray<ListAction<RowOf<P>>>
    readonly idle: boolean
    readonly commands?: ReadonlyArray<ListCommand>
  }
) => {
  type Row = RowOf<P>
  const url = useUrlQuery(spec.querySpec)
  const query = useMemo(() => bounded(url.query), [url.query])
  const searchCut = url.query.search.length > MAX_SEARCH
  // The browser's store, once open, for a list that names its kind (docs/architecture.md, "The browser's store").
  const store = useStore()
  const lists = spec.store === undefined ? undefined : store?.lists(spec.store, spec.title, spec.idOf as (row: unknown) => string)
  // Who the rows are shown to: a page the tab kept is for them only.
  const owner = AuthContext.useSelector((snapshot) => snapshot.context.user?._id)
  const snapshots = spec.store !== undefined && spec.store !== ANY_KIND && owner !== undefined
  const list = useList(
    query,
    spec.fetchPage,
    spec.arrivedPage,
    (asked) =>
      spec.store === undefined
        ? undefined
        : ((snapshots ? (takeSnapshot(owner, spec.title, asked) as P | undefined) : undefined) ??
          (currentStore()
            ?.lists(spec.store, spec.title, spec.idOf as (row: unknown) => string)
            .kept(asked) as Promise<P | undefined> | undefined)),
    // The store opening late (a reload) asks it for a page the server has not given yet.
    store
  )
  const { pageRows, shown, served, storeVersion } = useStoredRows(spec, query, list, store, lists, snapshots ? owner : undefined)
  const pageIds = useMemo(() => pageRows.map(spec.idOf), [pageRows, spec])
  const announced = spec.arrivals !== undefined && typeof spec.store === "string" ? spec.store : undefined
  const arrived = useArrivals(announced, spec.arrivals, spec.title, spec.querySpec, query, store, pageIds, () =>
    query.page === 1 ? list.reload() : url.go({ page: 1 })
  )
  const [searchText, setSearchText] = useDebouncedSearch(query.search, (search) => url.go({ search, page: 1 }, { replace: true }))
  const searchField = useRef<HTMLInputElement | null>(null)
  const exportCsv = spec.exportCsv
  const csv = useCsvExport(() => (exportCsv === undefined ? Promise.reject(new Error("This list has no CSV export")) : exportCsv(query)))
  // A record this screen changed in place stays shown, and current, until the person moves off
  // it, even when the list read after the change no longer holds it (it left the filter): the
  // next key then acts on the record the person meant (docs/architecture.md, "Keys on a list").
  const [kept, setKept] = useState<KeptRow<Row> | null>(null)
  // Arranged apart: a list that arranges nothing keeps its rows' identity when only the address changes.
  const arranged = useMemo(() => (spec.arrange === undefined ? served : spec.arrange(served, query)), [served, spec, query])
  // The kept row as the store has it now: the change made on it shows, not the row as it was kept.
  const keptShown = useMemo(() => {
    if (kept === null || lists === undefined) return kept
    // A record deleted meanwhile is not kept shown.
    const now = lists.rows([kept.row])[0] as Row | undefined
    return now === undefined ? null : { ...kept, row: now }
    // The store's version says when its view of the kept row changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kept, lists, storeVersion])
  const rows = useMemo(() => withKept(arranged, spec.idOf, keptShown), [arranged, keptShown, spec])
  useReadWhenRowsLeave(list, rows.length)
  // A new store version may change which rows wait.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const waiting = useCallback((row: Row) => lists?.waiting(row) === true, [lists, storeVersion])
  const history = useHistory()
  const historyOf = spec.history
  const showHistory = useStableCallback((row: Row) => {
    if (historyOf !== undefined) history.show({ kind: historyOf.kind, id: spec.idOf(row), label: historyOf.labelOf(row) })
  })
  /** The row action asking its confirmation (the dialog, its busy and error states: src/ui/list/RowConfirmation.tsx). */
  const [asking, setAsking] = useState<Asking<Row> | null>(null)
  const openConfirm = useStableCallback((row: Row, confirm: Confirmation<Row>) => {
    const as = store === undefined ? undefined : deletionAs(spec.store, row, spec.idOf, confirm)
    setAsking({ row, confirm, ...(as === undefined ? {} : { as }) })
  })
  const [selection, setSelectionState] = useState<Selection>(noSelection)
  // Keys pressed faster than the screen renders each build on the one before (x, Shift+J, Shift+J…):
  // the selection as it is now, not as the last render saw it.
  const selectionNow = useRef(selection)
  const setSelection = useCallback((change: (now: Selection) => Selection) => {
    selectionNow.current = change(selectionNow.current)
    setSelectionState(selectionNow.current)
  }, [])
  const currentNow = useStableCallback((): string | null => focus.currentNow())
  const pick = useStableCallback((id: string): void => focus.pick(id))
  const selecting = spec.selectable?.({ selection, set: setSelection, rows, idOf: spec.idOf, pick, current: currentNow, group: spec.title })
  const selected = selecting?.rows ?? noRows
  const clearSelection = useStableCallback(() => setSelection(() => noSelection))
  const actions = useMemo((): ReadonlyArray<RowAction<Row>> => {
    const declared = options.actions.map(({ button: _button, bulk, confirm, hint: _hint, ...action }): RowAction<Row> => {
      const run = confirm === undefined ? action.run : (row: Row) => openConfirm(row, confirm)
      if (run === undefined) throw new Error(`Row action ${action.id} does nothing`)
      if (bulk === undefined || selected.length === 0) return { ...action, run }
      const runBulk = () => {
        bulk.run(selected)
        clearSelection()
      }
      return { ...action, label: () => bulk.label(selected), when: () => bulk.when?.(selected) ?? true, run: runBulk }
    })
    const historyKey: ReadonlyArray<RowAction<Row>> =
      historyOf === undefined ? [] : [{ id: "history", key: "h", label: () => historyActionLabel, run: showHistory }]
    return [...declared, ...(selecting?.actions ?? []), ...historyKey]
  }, [options.actions, historyOf, showHistory, openConfirm, selected, selecting?.actions, clearSelection])
  const idle = options.idle && asking === null && !history.open
  const focus = useRowFocus<Row, HTMLElement>({
    rows,
    idOf: spec.idOf,
    group: spec.title,
    noun: spec.noun,
    actions,
    idle,
    ...(spec.searchable === false ? {} : { search: searchField })
  })

  const currentId = focus.current === undefined ? null : spec.idOf(focus.current)
  // Judged on the kept row as it is when the update applies, not as this render saw it: a key
  // that keeps the row it moved to (`2` right after `j`) can be handled before this effect runs,
  // and must not be undone by it.
  useEffect(() => setKept((now) => (now !== null && now.id !== currentId ? null : now)), [currentId])
  // Another page or filter is another list: the kept row and the selection do not follow.
  useEffect(() => {
    setKept(null)
    setSelection(() => noSelection)
  }, [query, setSelection])
  // The same function for the screen's whole life: row actions made once can call it.
  const keepShown = useStableCallback((row: Row) => {
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

  const group = spec.title
  const guarded = (command: Command, evenOpen = false): Command => ({
    ...command,
    guard: () => (evenOpen ? asking === null : idle) && (command.guard?.() ?? true)
  })
  const filtered = Object.keys(query.filters).length > 0 || query.search !== ""
  const screenCommands: ReadonlyArray<Command> = [
    ...(options.commands ?? []).map(({ hint: _hint, evenOpen, ...command }) => guarded({ ...command, group }, evenOpen)),
    ...arrived.commands.map((command) => guarded(command)),
    ...[
      ...(selecting?.commands ?? []),
      ...[...(spec.filters ?? []), spec.counts].flatMap((declared) => declared?.commands?.(group, query.filters, url.filter) ?? [])
    ].map((command) => guarded(command)),
    ...(spec.clearFilters === undefined
      ? []
      : [
          guarded({
            id: `${group}:clear-filters`,
            label: spec.clearFilters,
            group,
            guard: () => filtered,
            run: () => url.go({ filters: {}, search: "", page: 1 })
          })
        ]),
    ...(historyOf === undefined
      ? []
      : [
          {
            id: `${group}:removed`,
            label: `Deleted ${spec.noun}`,
            group,
            keywords: ["removed", "restore", "undelete", "trash"],
            guard: () => idle,
            run: () => history.showRemoved(historyOf.kind)
          }
        ]),
    ...listCommands({
      group,
      noun: spec.noun,
      list: { pagination, reload },
      url,
      ...(exportCsv === undefined ? {} : { csv: { busy: csv.busy, run: csv.run } })
    })
  ]
  useDeclaredCommands([...focus.commands, ...screenCommands])

  // The line under the list, from the keys the screen has.
  const keys: ReadonlyArray<KeyHint> = [
    ...options.actions.flatMap((action) => (action.key === undefined ? [] : [{ key: action.key, hint: action.hint }])),
    ...(selecting?.keys ?? []),
    ...(options.commands ?? []).flatMap((command) =>
      command.hint === undefined ? [] : (command.shortcut ?? []).map((key) => ({ key, hint: command.hint ?? "" }))
    ),
    ...(spec.searchable === false ? [] : [{ key: "s", hint: "search" }]),
    ...(historyOf === undefined ? [] : [{ key: "h", hint: "history" }])
  ]

  /** The buttons a row shows: its actions' that it is offered and the person's role may use. */
  const buttonsOf = useMemo(() => {
    const withButtons = options.actions.filter((action) => action.button !== undefined && action.refused === undefined)
    return (row: Row) =>
      withButtons
        .filter((action) => action.when === undefined || action.when(row))
        .map((action) => {
          const button = action.button as RowButton<Row>
          const run = button.onClick ?? action.run ?? ((target: Row) => action.confirm !== undefined && openConfirm(target, action.confirm))
          return { id: action.id, label: typeof button.label === "string" ? button.label : button.label(row), tone: button.tone, onClick: () => run(row) }
        })
  }, [options.actions, openConfirm])

  return {
    spec,
    url,
    query,
    list,
    rows,
    focus,
    csv: exportCsv === undefined ? undefined : csv,
    search: { text: searchText, set: setSearchText, field: searchField, cut: searchCut },
    /** New records announced, not yet shown (./use-arrivals.ts). */
    arrivals: arrived.arrivals,
    /** Keeps `row` on screen until the current row leaves it (a change that may take it out of the filter). */
    keepShown,
    /** Whether a filter or the search narrows the list. */
    filtered,
    /** The keys the list has, for the hint under it. */
    keys,
    /** The row's buttons, for a list whose actions have any. */
    buttonsOf: options.actions.some((action) => action.button !== undefined) ? buttonsOf : undefined,
    counts:
      spec.counts === undefined
        ? undefined
        : {
            label: spec.counts.label,
            cards: spec.counts.cards((list.page as P | null) ?? undefined, query.filters, url.filter, lists?.moved(spec.counts.field, pageRows, shown))
          },
    /** A command about the row waits for the server's answer. */
    waiting,
    selection: {
      rows: selected,
      has: (row: Row) => selection.ids.has(spec.idOf(row)),
      clear: clearSelection,
      /** Selects these rows (by id), the first the anchor: "the related reports" on the desk. */
      choose: (ids: ReadonlyArray<string>) => setSelection(() => ({ ids: new Set(ids), anchor: ids[0] ?? null })),
      words: selecting?.words
    },
    // A deletion the store made at once needs no reading again: the row is gone, and the news of its answer rereads.
    confirmation: { asking, close: () => setAsking(null), done: () => (setAsking(null), asking?.as === undefined && reload()) }
  }
}

export type ListScreenState<P extends ListPage> = ReturnType<typeof useListScreen<P>>
