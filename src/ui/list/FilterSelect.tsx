import type { UrlQuery } from "../../lib/list/url-query.ts"

/** A compact select in a list's toolbar; Escape gives the keyboard back to the rows. */
export const ToolbarSelect = ({
  label,
  value,
  options,
  onChange,
  onEscape
}: {
  readonly label: string
  readonly value: string
  readonly options: ReadonlyArray<readonly [value: string, label: string]>
  readonly onChange: (value: string) => void
  readonly onEscape?: (() => void) | undefined
}) => (
  <select
    className="native-select queue-filter"
    aria-label={label}
    value={value}
    onChange={(event) => onChange(event.target.value)}
    onKeyDown={(event) => {
      if (event.key !== "Escape" || onEscape === undefined) return
      event.preventDefault()
      onEscape()
    }}
  >
    {options.map(([optionValue, text]) => (
      <option key={optionValue} value={optionValue}>
        {text}
      </option>
    ))}
  </select>
)

/**
 * One of a list's filters as a compact select in the toolbar, beside the search: the value lives
 * in the URL (`name`), the empty option is "all".
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
  <ToolbarSelect
    label={label}
    value={url.query.filters[name] ?? ""}
    options={[["", allLabel], ...options]}
    onChange={(value) => url.filter(name, value)}
    onEscape={onEscape}
  />
)
