import "./list.css"
import { Text } from "@radix-ui/themes"
import { type HTMLAttributes, memo, type ReactNode, type Ref } from "react"
import { listTexts } from "./texts.ts"

/** What a row element takes from the list's keys: its ref, its tab stop and its handlers. */
export type RowElementProps<E extends HTMLElement> = { readonly ref: (element: E | null) => void; readonly tabIndex: number } & Omit<HTMLAttributes<E>, "ref">

export interface Column<Row> {
  readonly label: string
  readonly cell: (row: Row) => ReactNode
  /** The server's sort key, when the column sorts. */
  readonly sort?: string
  /** Long unbroken values (an address's identifier) break anywhere instead of widening the table. */
  readonly breakAnywhere?: boolean
}

export interface ListTableProps<Row> {
  readonly caption: string
  readonly columns: ReadonlyArray<Column<Row>>
  /** The rows and whether more are loading, from `useList`. */
  readonly list: { readonly rows: ReadonlyArray<Row>; readonly loading: boolean }
  /** Each row's focus and current mark, from the list's keys (`useRowFocus`). */
  readonly rowProps: (index: number) => RowElementProps<HTMLTableRowElement>
  /**
   * The last column's buttons; they are out of the tab order, the row's keys do the same. A row
   * re-renders when its record, its focus, `columns` or `actions` change: a screen keeps both
   * the same functions between renders (`useMemo`, `useCallback`) unless what they show changed.
   */
  readonly actions?: (row: Row) => ReactNode
  readonly empty: string
  /** Sorting, from `useUrlQuery`, for tables whose columns sort. */
  readonly url?: { readonly sorted: { readonly sort: string | undefined; readonly order: "asc" | "desc" }; readonly sortBy: (sort: string) => void }
  /** The box the table scrolls in, for judging whether it fits (`useTableFits`). */
  readonly scrollRef?: Ref<HTMLDivElement>
}

const SortHeader = ({
  label,
  active,
  order,
  onSort
}: {
  readonly label: string
  readonly active: boolean
  readonly order: "asc" | "desc"
  readonly onSort: () => void
}) => (
  <button type="button" className="sort-button" onClick={onSort}>
    {label}
    {active && <span aria-hidden="true">{order === "asc" ? " ▲" : " ▼"}</span>}
  </button>
)

type TableRowProps<Row> = RowElementProps<HTMLTableRowElement> & Pick<ListTableProps<Row>, "columns" | "actions"> & { readonly row: Row }

const TableRow = memo(<Row,>({ row, columns, actions, ref, ...keyboard }: TableRowProps<Row>) => (
  <tr className="rt-TableRow list-row" ref={ref} {...keyboard}>
    {columns.map((column) => (
      <td key={column.label} className={column.breakAnywhere === true ? "rt-TableCell break-anywhere" : "rt-TableCell"}>
        {column.cell(row)}
      </td>
    ))}
    {actions !== undefined && <td className="rt-TableCell">{actions(row)}</td>}
  </tr>
)) as <Row>(props: TableRowProps<Row>) => ReactNode

/** A list as a table: sortable headers, one focusable row per record, the empty text in the body. */
export const ListTable = <Row,>(props: ListTableProps<Row>) => {
  const {
    columns,
    list: { rows, loading },
    rowProps
  } = props
  const sorted = props.url?.sorted
  const onSort = props.url?.sortBy
  const span = columns.length + (props.actions === undefined ? 0 : 1)
  return (
    // Radix Themes' table markup and classes, without its Table.Root: that one wraps the table
    // in Radix's ScrollArea, 30 kB of JavaScript on the first screen for a scrollbar the browser
    // draws anyway (docs/architecture.md, "First screen").
    <div className="rt-TableRoot rt-r-size-2 rt-variant-surface" aria-busy={loading}>
      <div className="list-table-scroll" ref={props.scrollRef}>
        <table className="rt-TableRootTable">
          <caption className="visually-hidden">{props.caption}</caption>
          <thead className="rt-TableHeader">
            <tr className="rt-TableRow">
              {columns.map((column) => {
                const active = column.sort !== undefined && sorted?.sort === column.sort
                const order = sorted?.order ?? "asc"
                return (
                  <th
                    key={column.label}
                    scope="col"
                    className="rt-TableCell rt-TableColumnHeaderCell"
                    aria-sort={active ? (order === "asc" ? "ascending" : "descending") : undefined}
                  >
                    {column.sort === undefined || onSort === undefined ? (
                      column.label
                    ) : (
                      <SortHeader label={column.label} active={active} order={order} onSort={() => column.sort !== undefined && onSort(column.sort)} />
                    )}
                  </th>
                )
              })}
              {props.actions !== undefined && (
                <th scope="col" className="rt-TableCell rt-TableColumnHeaderCell">
                  {listTexts.actions}
                </th>
              )}
            </tr>
          </thead>
          <tbody className="rt-TableBody">
            {rows.length === 0 && !loading && (
              <tr className="rt-TableRow">
                <td className="rt-TableCell" colSpan={span}>
                  <Text color="gray">{props.empty}</Text>
                </td>
              </tr>
            )}
            {/* Rows are keyed by place: the next page writes its records into the same rows,
                and the focused row keeps its element (docs/architecture.md, "Interactions"). */}
            {rows.map((row, index) => (
              <TableRow key={index} row={row} columns={columns} actions={props.actions} {...rowProps(index)} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
