import "./list.css"
import { Card, Grid, Text } from "@radix-ui/themes"
import { memo, type ReactNode } from "react"
import type { RowElementProps } from "./ListTable.tsx"

export interface CardListProps<Row> {
  readonly label: string
  /** The rows and whether more are loading, from `useList`. */
  readonly list: { readonly rows: ReadonlyArray<Row>; readonly loading: boolean }
  readonly rowKey: (row: Row) => string
  /** Each card's focus and current mark, from the list's keys (`useRowFocus`). */
  readonly rowProps: (index: number) => RowElementProps<HTMLDivElement>
  readonly card: (row: Row) => ReactNode
  /**
   * Everything a card shows besides its record, as a string: a card whose record (the same
   * object), signature and focus are unchanged is not rendered again, so a key re-renders the
   * cards it changed, not the queue (docs/architecture.md, "Interactions"). Without it every card
   * renders each time.
   */
  readonly signature?: (row: Row) => string
  readonly empty: string
}

interface ListCardProps<Row> {
  readonly row: Row
  readonly signature: string | undefined
  readonly card: (row: Row) => ReactNode
  readonly element: RowElementProps<HTMLDivElement>
}

const sameElement = (a: RowElementProps<HTMLDivElement>, b: RowElementProps<HTMLDivElement>) => {
  const keys = Object.keys(a) as Array<keyof typeof a>
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key])
}

// `card` is left out of the comparison on purpose: a screen makes it afresh each render, and what
// it shows is the record and the signature; a card rendered again takes the newest.
const ListCard = memo(
  <Row,>({ row, card, element }: ListCardProps<Row>) => (
    <Card role="listitem" className="list-row" {...element}>
      {card(row)}
    </Card>
  ),
  (before, after) =>
    after.signature !== undefined && before.signature === after.signature && before.row === after.row && sameElement(before.element, after.element)
) as <Row>(props: ListCardProps<Row>) => ReactNode

/** The card variant of a list (the spec's card screens): same keys, same focus rules as the table. */
export const CardList = <Row,>(props: CardListProps<Row>) => (
  <Grid role="list" aria-label={props.label} aria-busy={props.list.loading} columns={{ initial: "1", md: "2" }} gap="3">
    {props.list.rows.length === 0 && !props.list.loading && (
      <Text color="gray" role="listitem">
        {props.empty}
      </Text>
    )}
    {props.list.rows.map((row, index) => (
      <ListCard key={props.rowKey(row)} row={row} signature={props.signature?.(row)} card={props.card} element={props.rowProps(index)} />
    ))}
  </Grid>
)
