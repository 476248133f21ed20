import type { ReactNode } from "react"
import type { UrlQuery } from "../../lib/list/url-query.ts"
import { ToolbarSelect } from "./FilterSelect.tsx"
import type { Column } from "./ListTable.tsx"
import { listTexts } from "./texts.ts"

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

/** The sortable columns' headers, for cards: one select of column and order, kept in the URL as the headers keep it. */
export const SortSelect = ({
  columns,
  url,
  onEscape
}: {
  readonly columns: ReadonlyArray<Pick<Column<unknown>, "label" | "sort">>
  readonly url: Pick<UrlQuery, "sorted" | "go">
  readonly onEscape: () => void
}) => {
  const sorts = columns.flatMap((column) => (column.sort === undefined ? [] : [[column.sort, column.label] as const]))
  if (sorts.length === 0) return null
  const { sort, order } = url.sorted
  const options = sorts.flatMap(([key, label]) =>
    (["asc", "desc"] as const).map((direction) => [`${key} ${direction}`, listTexts.sortOrder(label, direction)] as const)
  )
  return (
    <ToolbarSelect
      label={listTexts.sortBy}
      value={sort === undefined ? "" : `${sort} ${order}`}
      options={sort === undefined ? [["", listTexts.unsorted], ...options] : options}
      onChange={(value) => {
        const [key, direction] = value.split(" ")
        if (key !== undefined && (direction === "asc" || direction === "desc")) url.go({ sort: key, order: direction, page: 1 })
      }}
      onEscape={onEscape}
    />
  )
}
