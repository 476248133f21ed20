import type { UrlQuery } from "../../lib/list/url-query.ts"

/**
 * One of a list's filters as a select beside its search: the value lives in the URL (`name`),
 * the empty option is "all". Used by every queue and inbox screen.
 */
export const FilterSelect = ({ url, name, label, allLabel, options }: {
  readonly url: Pick<UrlQuery, "query" | "filter">
  readonly name: string
  readonly label: string
  readonly allLabel: string
  readonly options: ReadonlyArray<readonly [value: string, label: string]>
}) => (
  <select className="native-select queue-filter" aria-label={label} value={url.query.filters[name] ?? ""} onChange={(event) => url.filter(name, event.target.value)}>
    <option value="">{allLabel}</option>
    {options.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
  </select>
)
