/** A `LIKE` pattern for "contains `term`", lower-cased, with the user's %, _ and \ taken literally. */
export const containsPattern = (term: string): string =>
  `%${term
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, "\\$&")}%`
