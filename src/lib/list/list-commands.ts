import type { Command } from "../commands.tsx"
import type { UrlQuery } from "./url-query.ts"
import type { ListState } from "./use-list.ts"

/**
 * The palette commands every list has: reload, the next and previous page (offered only
 * when there is one), and the CSV export of what the filters match.
 */
export const listCommands = ({
  group,
  noun,
  list,
  url,
  csv
}: {
  readonly group: string
  /** What the list holds, for the labels: "Reload the {noun}", "Export {noun} as CSV". */
  readonly noun: string
  readonly list: Pick<ListState<unknown>, "pagination" | "reload">
  readonly url: Pick<UrlQuery, "query" | "go">
  /** The CSV export, for lists that have one. */
  readonly csv?: { readonly busy: boolean; readonly run: () => void }
}): ReadonlyArray<Command> => {
  const { pagination } = list
  const page = url.query.page
  const prefix = group.toLowerCase().replace(/\s+/g, "-")
  return [
    { id: `${prefix}:reload`, label: `Reload the ${noun}`, group, keywords: ["refresh"], run: list.reload },
    {
      id: `${prefix}:next-page`,
      label: "Next page",
      group,
      guard: () => pagination !== undefined && pagination.page < pagination.pages,
      run: () => url.go({ page: page + 1 })
    },
    { id: `${prefix}:previous-page`, label: "Previous page", group, guard: () => page > 1, run: () => url.go({ page: page - 1 }) },
    ...(csv === undefined
      ? []
      : [
          {
            id: `${prefix}:export-csv`,
            label: `Export ${noun} as CSV`,
            group,
            keywords: ["download", "spreadsheet", "csv"],
            guard: () => !csv.busy,
            run: csv.run
          }
        ])
  ]
}
