// No effect here: the console's first screen imports this module (docs/architecture.md, "First screen").

/**
 * A stored value as text: strings as they are, numbers and flags written out, anything else
 * (absent, an object) empty. For values read from a record by field name, where the type says
 * `unknown`.
 */
export const plainText = (value: unknown): string =>
  typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" || typeof value === "bigint" ? String(value) : ""
