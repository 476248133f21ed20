import type { UrlQuery } from "../../lib/list/url-query.ts"
import { ToolbarSelect } from "./FilterSelect.tsx"
import type { Column } from "./ListTable.tsx"
import { listTexts } from "./texts.ts"

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
