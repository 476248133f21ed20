import "./list.css"
import { Card, Grid, Text } from "@radix-ui/themes"
import type { ReactNode } from "react"
import type { RowElementProps } from "./ListTable.tsx"

export interface CardListProps<Row> {
  readonly label: string
  /** The rows and whether more are loading, from `useList`. */
  readonly list: { readonly rows: ReadonlyArray<Row>; readonly loading: boolean }
  readonly rowKey: (row: Row) => string
  /** Each card's focus and current mark, from the list's keys (`useRowFocus`). */
  readonly rowProps: (index: number) => RowElementProps<HTMLDivElement>
  readonly card: (row: Row) => ReactNode
  readonly empty: string
}

/** The card variant of a list (the spec's card screens): same keys, same focus rules as the table. */
export const CardList = <Row,>(props: CardListProps<Row>) => (
  <Grid role="list" aria-label={props.label} aria-busy={props.list.loading} columns={{ initial: "1", md: "2" }} gap="3">
    {props.list.rows.length === 0 && !props.list.loading && (
      <Text color="gray" role="listitem">
        {props.empty}
      </Text>
    )}
    {props.list.rows.map((row, index) => (
      <Card key={props.rowKey(row)} role="listitem" className="list-row" {...props.rowProps(index)}>
        {props.card(row)}
      </Card>
    ))}
  </Grid>
)
