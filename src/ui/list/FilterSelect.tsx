import type { UrlQuery } from "../../lib/list/url-query.ts"

/**
 * One of a list's filters as a compact select in the toolbar, beside the search: the value lives
 * in the URL (`name`), the empty option is "all". Escape gives the keyboard back to the rows.
 */
export const FilterSelect = ({
  url,
  name,
  label,
  allLabel,
  options,
  onEscape
}: {
  readonly url: Pick<UrlQuery, "query" | "filter">
  readonly name: string
  readonly label: string
  readonly allLabel: string
  readonly options: ReadonlyArray<readonly [value: string, label: string]>
  readonly onEscape?: () => void
}) => (
  <select
    className="native-select queue-filter"
    aria-label={label}
    value={url.query.filters[name] ?? ""}
    onChange={(event) => url.filter(name, event.target.value)}
    onKeyDown={(event) => {
      if (event.key !== "Escape" || onEscape === undefined) return
      event.preventDefault()
      onEscape()
    }}
  >
    <option value="">{allLabel}</option>
    {options.map(([value, text]) => (
      <option key={value} value={value}>
        {text}
      </option>
    ))}
  </select>
)
