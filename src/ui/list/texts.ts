/** Words every list screen shares; quoted ones are the spec's, exact. */
export const listTexts = {
  previous: "Previous",
  next: "Next",
  page: (page: number, pages: number) => `Page ${page} of ${pages}`,
  retry: "Retry",
  /** A list shown with no link: its rows are the ones this browser keeps. */
  keptOffline: (readAt: string | undefined) =>
    readAt === undefined ? "Offline: showing what this browser keeps." : `Offline: showing what this browser keeps, as read at ${readAt}.`,
  exportCsv: "Export CSV",
  exporting: "Exporting…",
  exportFailed: "Could not export",
  actions: "Actions",
  /** A row this browser changed, before the server's answer (docs/architecture.md, "The browser's store"). */
  waiting: "Saving…",
  sortBy: "Sort by",
  sortOrder: (column: string, order: "asc" | "desc") => `${column}, ${order === "asc" ? "ascending" : "descending"}`,
  unsorted: "As listed",
  /** Shows the records a list announced as new. */
  show: "Show",
  searchCut: (max: number) => `A search is at most ${max} characters: the list shows what the first ${max} find.`
} as const
