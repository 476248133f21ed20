/**
 * The bounds every list shares, without the schema library, so the console's first screen can
 * use them without loading it (docs/architecture.md, "First screen").
 */

/** A list's search: at most this many characters (the API refuses more). */
export const MAX_SEARCH = 200
