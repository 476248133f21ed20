import type { ReactNode } from "react"
import type { Column } from "./ListTable.tsx"

/** A table's row as a card (a phone, docs/architecture.md "The list pattern"): each column's label and value, then the row's buttons. */
export const ColumnsCard = <Row,>({
  row,
  columns,
  actions
}: {
  readonly row: Row
  readonly columns: ReadonlyArray<Column<Row>>
  readonly actions?: ((row: Row) => ReactNode) | undefined
}) => (
  <>
    <dl className="list-card-fields">
      {columns.map((column) => (
        <div key={column.label}>
          <dt>{column.label}</dt>
          <dd>{column.cell(row)}</dd>
        </div>
      ))}
    </dl>
    {actions !== undefined && <div className="list-card-actions">{actions(row)}</div>}
  </>
)

/** A table's rows as cards: the list named by the table's caption, each row a `ColumnsCard`. */
export const tableAsCards = <Row,>(table: {
  readonly caption: string
  readonly columns: ReadonlyArray<Column<Row>>
  readonly actions?: ((row: Row) => ReactNode) | undefined
}) => ({
  label: table.caption,
  card: (row: Row) => <ColumnsCard row={row} columns={table.columns} actions={table.actions} />
})
