import type { ReactNode } from "react"
import { CardList } from "./CardList.tsx"
import type { Column, RowElementProps } from "./ListTable.tsx"
import { tableAsCards } from "./TableCards.tsx"

/** What the list shows as cards: the screen's cards, or a table that does not fit its box, as cards of label and value. */
export interface CardsViewProps<Row> {
  readonly view:
    | { readonly label: string; card(this: void, row: Row): ReactNode }
    | { readonly caption: string; readonly columns: ReadonlyArray<Column<Row>>; actions?(this: void, row: Row): ReactNode }
  readonly list: { readonly rows: ReadonlyArray<Row>; readonly loading: boolean }
  rowKey(this: void, row: Row): string
  readonly rowProps: (index: number) => RowElementProps<HTMLDivElement>
  readonly empty: string
}

/**
 * A list's rows as cards (src/ui/list/ListScreen.tsx), kept out of the first screen's code: a
 * directory's first screen is a table (docs/architecture.md, "First screen").
 */
export const CardsView = <Row,>({ view, list, rowKey, rowProps, empty }: CardsViewProps<Row>) => {
  const cards = "card" in view ? view : tableAsCards(view)
  return <CardList label={cards.label} list={list} rowKey={rowKey} rowProps={rowProps} empty={empty} card={cards.card} />
}
