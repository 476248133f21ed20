// No effect here: the console's first screen imports this module (docs/architecture.md, "First screen").

/**
 * A stored value as text: strings as they are, numbers and flags written out, anything else
 * (absent, an object) empty. For values read from a record by field name, where the type says
 * `unknown`.
 */
export const plainText = (value: unknown): string =>
  typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" || typeof value === "bigint" ? String(value) : ""

/** An http(s) address inside free text: up to a space, a quote or an angle bracket. */
const ADDRESS = /https?:\/\/[^\s<>"']+/giu

/** Trailing punctuation a sentence puts after an address is not part of it. */
const TRAILING = /[.,;:!?)\]]+$/u

/**
 * The http(s) addresses in free text (a report's evidence), each with where it starts, as a
 * browser would open them: what is not a valid http(s) URL is left out. The console links them
 * (src/ui/LinkedText.tsx); the server finds reports naming the same one.
 */
export const httpAddresses = (text: string): ReadonlyArray<{ readonly address: string; readonly at: number; readonly href: string }> =>
  [...text.matchAll(ADDRESS)].flatMap((match) => {
    const address = match[0].replace(TRAILING, "")
    try {
      const url = new URL(address)
      return url.protocol === "http:" || url.protocol === "https:" ? [{ address, at: match.index, href: url.href }] : []
    } catch {
      return []
    }
  })
