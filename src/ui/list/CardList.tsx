import "./list.css"
import { Card, Grid, Text } from "@radix-ui/themes"
import type { ReactNode } from "react"
import type { RowProps } from "../../lib/list/use-row-keyboard.ts"

export interface CardListProps<Row> {
  readonly label: string
  readonly rows: ReadonlyArray<Row>
  readonly rowKey: (row: Row) => string
  readonly rowProps: (index: number, row: Row) => RowProps<HTMLDivElement>
  readonly card: (row: Row) => ReactNode
  readonly empty: string
  readonly loading: boolean
  readonly onBlur?: () => void
}

/** The card variant of a list (the spec's card screens): same keys, same focus rules as the table. */
export const CardList = <Row,>(props: CardListProps<Row>) => (
  <Grid
    role="list"
    aria-label={props.label}
    aria-busy={props.loading}
    columns={{ initial: "1", md: "2" }}
    gap="3"
    onBlur={(event) => !event.currentTarget.contains(event.relatedTarget) && props.onBlur?.()}
  >
    {props.rows.length === 0 && !props.loading && <Text color="gray" role="listitem">{props.empty}</Text>}
    {props.rows.map((row, index) => (
      <Card key={props.rowKey(row)} role="listitem" className="list-row" {...props.rowProps(index, row)}>
        {props.card(row)}
      </Card>
    ))}
  </Grid>
)
