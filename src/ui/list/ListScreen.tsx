import { ReloadIcon } from "@radix-ui/react-icons"
import { Button, Callout, Flex, Text } from "@radix-ui/themes"
import { type ReactNode, useEffect, useMemo, useState } from "react"
import { MAX_SEARCH } from "../../../contract/list-rules.ts"
import type { ListPage } from "../../../machines/list.ts"
import type { Asking, ListScreenState } from "../../lib/list/use-list-screen.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { loadWhenShown, whenQuiet } from "../deferred.tsx"
import { Screen } from "../Screen.tsx"
import { SearchField } from "../SearchField.tsx"
import { FilterSelect } from "./FilterSelect.tsx"
import { ExportCsvButton, ListFrame } from "./ListFrame.tsx"
import { type Column, ListTable } from "./ListTable.tsx"
import { CardList } from "./CardList.tsx"
import { SortSelect } from "./SortSelect.tsx"
import { tableAsCards } from "./TableCards.tsx"
import { RowActions } from "./RowActions.tsx"
import { listTexts } from "./texts.ts"
import { useTableFits } from "./use-table-fits.ts"

type RowOf<P> = P extends ListPage<infer Row> ? Row : never

// Only the screens that have them load the count cards and the confirmation, and the hint's
// words load after the rows: the first screen's code does not grow with them (docs/architecture.md,
// "First screen").
const CountCards = loadWhenShown(() => import("../CountCards.tsx").then((module) => module.CountCards))
const RowConfirmation = loadWhenShown(() =>
  import("./RowConfirmation.tsx").then((module) => module.RowConfirmation as (props: Parameters<typeof module.RowConfirmation<unknown>>[0]) => ReactNode)
)
const KeysHint = loadWhenShown(() => import("./KeysHint.tsx").then((module) => module.KeysHint))

/**
 * How the rows are shown: a table with columns (and the last column's buttons), or cards. A table
 * that does not fit its box (a phone) shows its rows as cards of label and value, with the buttons.
 */
export type ListView<Row> =
  | { readonly table: { readonly caption: string; readonly columns: ReadonlyArray<Column<Row>>; readonly actions?: (row: Row) => ReactNode } }
  | {
      readonly cards: {
        readonly label: string
        readonly card: (row: Row, buttons: ReactNode) => ReactNode
        /**
         * What a card shows besides its record, its buttons and its waiting mark (a selection
         * mark), when that is all: then a card is rendered again only when one of them changed
         * (src/ui/list/CardList.tsx). A card that shows the screen's own state leaves it out.
         */
        readonly signature?: (row: Row) => string
      }
    }

export interface ListScreenTexts {
  /** The search field's name and placeholder; a list without search has neither. */
  readonly searchLabel?: string
  readonly searchPlaceholder?: string
  readonly loading: string
  readonly loadFailed: string
  readonly empty: string
  /** What the line of keys under the list adds after them. */
  readonly hintAfter?: string
}

/** A feature's texts as the list screen takes them: its search, loading, failure, empty and keys lines. */
export const listTextsOf = (texts: {
  readonly searchLabel?: string
  readonly searchPlaceholder?: string
  readonly loading: string
  readonly loadFailed: string
  readonly empty: string
}): ListScreenTexts => ({
  ...(texts.searchLabel === undefined ? {} : { searchLabel: texts.searchLabel }),
  ...(texts.searchPlaceholder === undefined ? {} : { searchPlaceholder: texts.searchPlaceholder }),
  loading: texts.loading,
  loadFailed: texts.loadFailed,
  empty: texts.empty
})

/** Said beside a row while a command about it waits for the server. */
const WaitingMark = () => (
  <Text size="1" color="gray" className="row-waiting">
    {listTexts.waiting}
  </Text>
)

/**
 * The one list screen (docs/architecture.md, "The list pattern"): the title, the count cards and
 * what else sits above the list, one toolbar row (search, filters, the screen's buttons, the
 * selection, Export CSV), new records announced, the screen's notices, the rows as a table or cards with their buttons,
 * loading, empty and failed states and the pager, the keys' hint, the row actions' confirmation
 * and the screen's dialogs (`children`).
 */
export const ListScreen = <P extends ListPage>({
  screen,
  texts,
  view,
  above,
  tools,
  notices,
  aside,
  children
}: {
  readonly screen: ListScreenState<P>
  readonly texts: ListScreenTexts
  readonly view: ListView<RowOf<P>>
  readonly above?: ReactNode
  readonly tools?: ReactNode
  readonly notices?: ReactNode
  /** Beside the list on a wide screen (the current row's details), under it on a narrow one. */
  readonly aside?: ReactNode
  readonly children?: ReactNode
}) => {
  const { list, url, focus, csv, search, buttonsOf, selection, confirmation } = screen
  const rowsList = { rows: screen.rows, loading: list.loading }
  const shape = useTableFits(screen.rows)
  // The same row buttons from one render to the next, so table rows re-render only when their record changed.
  const { waiting } = screen
  // A button runs the newest of its action: a card not rendered again keeps its first handler.
  const press = useStableCallback((row: RowOf<P>, id: string) =>
    buttonsOf?.(row)
      .find((newest) => newest.id === id)
      ?.onClick()
  )
  const buttons = useMemo(
    () =>
      buttonsOf === undefined
        ? undefined
        : (row: RowOf<P>) => (
            <>
              <RowActions actions={buttonsOf(row).map((button) => ({ ...button, onClick: () => press(row, button.id) }))} />
              {waiting(row) && <WaitingMark />}
            </>
          ),
    [buttonsOf, waiting, press]
  )
  const table = "table" in view ? { ...view.table, actions: view.table.actions ?? buttons } : undefined
  const shows = "cards" in view ? view.cards.signature : undefined
  const cards =
    "cards" in view
      ? {
          label: view.cards.label,
          // A card with no buttons still says its record waits for the server.
          card: (row: RowOf<P>) => view.cards.card(row, buttons?.(row) ?? (waiting(row) ? <WaitingMark /> : undefined)),
          signature:
            shows === undefined
              ? undefined
              : (row: RowOf<P>) =>
                  [shows(row), waiting(row), ...(buttonsOf?.(row) ?? []).map((button) => `${button.id}:${button.label}:${String(button.tone)}`)].join("\u0000")
        }
      : shape.fits
        ? undefined
        : tableAsCards(table ?? view.table)
  // The keys' line comes in the first quiet moment after the first screen, its code with it.
  const [late, setLate] = useState(false)
  useEffect(() => whenQuiet(() => Promise.resolve(setLate(true))), [])
  // Mounted from the first time a confirmation opens, and kept, so it closes as it opened.
  const [asked, setAsked] = useState(false)
  if (!asked && confirmation.asking !== null) setAsked(true)
  return (
    <Screen title={screen.spec.title}>
      {screen.counts !== undefined && <CountCards label={screen.counts.label} cards={screen.counts.cards} />}
      {above}
      <Flex gap="2" mb="3" wrap="wrap" align="center" className="list-toolbar">
        {screen.spec.searchable !== false && (
          <SearchField
            label={texts.searchLabel ?? ""}
            placeholder={texts.searchPlaceholder ?? ""}
            value={search.text}
            onChange={search.set}
            busy={list.loading && !list.firstLoad}
            inputRef={search.field}
            onEscape={focus.backToRows}
            maxLength={MAX_SEARCH}
          />
        )}
        {screen.spec.filters?.map((filter) => (
          <FilterSelect
            key={filter.name}
            url={url}
            name={filter.name}
            label={filter.label}
            allLabel={filter.allLabel}
            options={filter.options}
            onEscape={focus.backToRows}
          />
        ))}
        {"table" in view && cards !== undefined && <SortSelect columns={view.table.columns} url={url} onEscape={focus.backToRows} />}
        {tools}
        {screen.spec.refresh !== undefined && (
          <Button variant="soft" onClick={() => (screen.arrivals?.forget(), list.reload())}>
            <ReloadIcon /> {screen.spec.refresh}
          </Button>
        )}
        {selection.rows.length > 0 && selection.words !== undefined && (
          <Flex gap="2" align="center">
            <Text size="2" weight="medium">
              {selection.words.selected}
            </Text>
            <Button size="1" variant="soft" color="gray" onClick={selection.clear}>
              {selection.words.clear}
            </Button>
          </Flex>
        )}
        {csv !== undefined && <ExportCsvButton busy={csv.busy} onExport={csv.run} />}
      </Flex>
      {search.cut && (
        <Callout.Root color="amber" role="status" mb="3">
          <Callout.Text>{listTexts.searchCut(MAX_SEARCH)}</Callout.Text>
        </Callout.Root>
      )}
      {screen.arrivals !== undefined && screen.arrivals.count > 0 && (
        <div className="list-said" role="status">
          <Text size="2">{screen.arrivals.words} · </Text>
          <Button size="1" variant="ghost" onClick={screen.arrivals.show}>
            {listTexts.show}
          </Button>
        </div>
      )}
      {notices}
      <div className={aside === undefined ? undefined : "list-with-aside"}>
        {/* One cell of the grid beside the aside: the list's states, its rows and its pager together. */}
        <div className="list-main">
          <ListFrame
            list={list}
            loadingText={texts.loading}
            loadFailedText={texts.loadFailed}
            onPage={(page) => url.go({ page })}
            exportError={csv?.error ?? null}
          >
            <div ref={shape.box}>
              {cards !== undefined ? (
                <CardList
                  label={cards.label}
                  list={rowsList}
                  rowKey={screen.spec.idOf}
                  rowProps={focus.rowProps}
                  empty={texts.empty}
                  card={cards.card}
                  signature={"signature" in cards ? cards.signature : undefined}
                />
              ) : (
                table !== undefined && (
                  <ListTable
                    caption={table.caption}
                    columns={table.columns}
                    list={rowsList}
                    rowProps={focus.rowProps}
                    empty={texts.empty}
                    url={url}
                    scrollRef={shape.scroller}
                    actions={table.actions}
                  />
                )
              )}
            </div>
          </ListFrame>
        </div>
        {aside}
      </div>
      {late && <KeysHint keys={screen.keys} after={texts.hintAfter} />}
      {asked && <RowConfirmation asking={confirmation.asking as Asking<unknown> | null} onClose={confirmation.close} onDone={confirmation.done} />}
      {children}
    </Screen>
  )
}
