import "./list.css"
import { Card, Grid, Text } from "@radix-ui/themes"
import type { ReactNode } from "react"
import type { RowProps } from "../../lib/list/use-row-keyboard.ts"

export interface CardListProps<Row> {
  readonly label: string
  /** The rows and whether more are loading, from `useList`. */
  readonly list: { readonly rows: ReadonlyArray<Row>; readonly loading: boolean }
  readonly rowKey: (row: Row) => string
  /** The cards' keys and focus, from `useRowKeyboard`. */
  readonly keyboard: { readonly rowProps: (index: number) => RowProps<HTMLDivElement>; readonly onBlurList: () => void }
  readonly card: (row: Row) => ReactNode
  readonly empty: string
}

/** The card variant of a list (the spec's card screens): same keys, same focus rules as the table. */
export const CardList = <Row,>(props: CardListProps<Row>) => (
  <Grid
    role="list"
    aria-label={props.label}
    aria-busy={props.list.loading}
    columns={{ initial: "1", md: "2" }}
    gap="3"
    onBlur={(event) => !event.currentTarget.contains(event.relatedTarget) && props.keyboard.onBlurList()}
  >
    {props.list.rows.length === 0 && !props.list.loading && <Text color="gray" role="listitem">{props.empty}</Text>}
    {props.list.rows.map((row, index) => (
      <Card key={props.rowKey(row)} role="listitem" className="list-row" {...props.keyboard.rowProps(index)}>
        {props.card(row)}
      </Card>
    ))}
  </Grid>
)
