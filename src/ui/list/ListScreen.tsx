import { Callout, Flex, Text } from "@radix-ui/themes"
import type { ReactNode } from "react"
import { MAX_SEARCH } from "../../../contract/list-rules.ts"
import type { ListPage } from "../../../machines/list.ts"
import type { ListScreenState } from "../../lib/list/use-list-screen.ts"
import { Screen } from "../Screen.tsx"
import { SearchField } from "../SearchField.tsx"
import { CardList } from "./CardList.tsx"
import { FilterSelect } from "./FilterSelect.tsx"
import { ExportCsvButton, ListFrame } from "./ListFrame.tsx"
import { type Column, ListTable } from "./ListTable.tsx"
import { SortSelect, tableAsCards } from "./TableCards.tsx"
import { listTexts } from "./texts.ts"
import { useTableFits } from "./use-table-fits.ts"

type RowOf<P> = P extends ListPage<infer Row> ? Row : never

export interface ListFilter {
  readonly name: string
  readonly label: string
  readonly allLabel: string
  readonly options: ReadonlyArray<readonly [value: string, label: string]>
}

/** A filter whose options are `values`, each shown as `labelOf` names it. */
export const filterOf = <V extends string>(
  name: string,
  label: string,
  allLabel: string,
  values: ReadonlyArray<V>,
  labelOf: (value: V) => string = (value) => value
): ListFilter => ({ name, label, allLabel, options: values.map((value) => [value, labelOf(value)] as const) })

/**
 * How the rows are shown: a table with columns (and the last column's buttons), or cards. A table
 * that does not fit its box (a phone) shows its rows as cards of label and value, with the buttons.
 */
export type ListView<Row> =
  | { readonly table: { readonly caption: string; readonly columns: ReadonlyArray<Column<Row>>; readonly actions?: (row: Row) => ReactNode } }
  | { readonly cards: { readonly label: string; readonly card: (row: Row) => ReactNode } }

export interface ListScreenTexts {
  /** The search field's name and placeholder; a list without search has neither. */
  readonly searchLabel?: string
  readonly searchPlaceholder?: string
  readonly loading: string
  readonly loadFailed: string
  readonly empty: string
  /** The screen's keys, under the list. */
  readonly hint: string
}

/** A feature's texts as the list screen takes them: its search, loading, failure, empty and keys lines. */
export const listTextsOf = (texts: {
  readonly searchLabel?: string
  readonly searchPlaceholder?: string
  readonly loading: string
  readonly loadFailed: string
  readonly empty: string
  readonly keyboardHint: string
}): ListScreenTexts => ({
  ...(texts.searchLabel === undefined ? {} : { searchLabel: texts.searchLabel }),
  ...(texts.searchPlaceholder === undefined ? {} : { searchPlaceholder: texts.searchPlaceholder }),
  loading: texts.loading,
  loadFailed: texts.loadFailed,
  empty: texts.empty,
  hint: texts.keyboardHint
})

/**
 * The one list screen (docs/architecture.md, "The list pattern"): the title, what sits above the
 * list (count cards), one toolbar row (search, filters, the screen's buttons, Export CSV), the
 * screen's notices, the rows as a table or cards with their loading, empty and failed states and
 * the pager, the keys' hint, and the screen's dialogs (`children`).
 */
export const ListScreen = <P extends ListPage>({
  screen,
  texts,
  view,
  above,
  filters,
  tools,
  notices,
  children
}: {
  readonly screen: ListScreenState<P>
  readonly texts: ListScreenTexts
  readonly view: ListView<RowOf<P>>
  readonly above?: ReactNode
  readonly filters?: ReadonlyArray<ListFilter>
  readonly tools?: ReactNode
  readonly notices?: ReactNode
  readonly children?: ReactNode
}) => {
  const { list, url, focus, csv, search } = screen
  const rowsList = { rows: screen.rows, loading: list.loading }
  const shape = useTableFits(screen.rows)
  const cards = "cards" in view ? view.cards : shape.fits ? undefined : tableAsCards(view.table)
  return (
    <Screen title={screen.spec.title}>
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
        {filters?.map((filter) => (
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
        {csv !== undefined && <ExportCsvButton busy={csv.busy} onExport={csv.run} />}
      </Flex>
      {search.cut && (
        <Callout.Root color="amber" role="status" mb="3">
          <Callout.Text>{listTexts.searchCut(MAX_SEARCH)}</Callout.Text>
        </Callout.Root>
      )}
      {notices}
      <ListFrame list={list} loadingText={texts.loading} loadFailedText={texts.loadFailed} onPage={(page) => url.go({ page })} exportError={csv?.error ?? null}>
        <div ref={shape.box}>
          {cards !== undefined ? (
            <CardList label={cards.label} list={rowsList} rowKey={screen.spec.idOf} rowProps={focus.rowProps} empty={texts.empty} card={cards.card} />
          ) : (
            "table" in view && (
              <ListTable
                caption={view.table.caption}
                columns={view.table.columns}
                list={rowsList}
                rowProps={focus.rowProps}
                empty={texts.empty}
                url={url}
                scrollRef={shape.scroller}
                {...(view.table.actions === undefined ? {} : { actions: view.table.actions })}
              />
            )
          )}
        </div>
      </ListFrame>
      <Text as="p" size="1" color="gray" mt="3">
        {screen.spec.history === undefined ? texts.hint : `${texts.hint} · ${listTexts.historyKey}`}
      </Text>
      {children}
    </Screen>
  )
}
