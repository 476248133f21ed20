/** An http(s) address inside free text: up to a space, a quote or an angle bracket. */
const ADDRESS = /https?:\/\/[^\s<>"']+/giu

/** Trailing punctuation a sentence puts after an address is not part of it. */
const TRAILING = /[.,;:!?)\]]+$/u

/** The pieces of `text`: plain runs, and addresses the browser would open as http(s). */
export const linkedPieces = (text: string): ReadonlyArray<{ readonly text: string; readonly href?: string }> => {
  const pieces: Array<{ readonly text: string; readonly href?: string }> = []
  let at = 0
  for (const match of text.matchAll(ADDRESS)) {
    const address = match[0].replace(TRAILING, "")
    const start = match.index
    let href: string | undefined
    try {
      const url = new URL(address)
      href = url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined
    } catch {
      href = undefined
    }
    if (href === undefined) continue
    if (start > at) pieces.push({ text: text.slice(at, start) })
    pieces.push({ text: address, href })
    at = start + address.length
  }
  if (at < text.length) pieces.push({ text: text.slice(at) })
  return pieces
}

/**
 * Text someone outside sent (a report's evidence, a listing's website) with its http(s) addresses
 * as links that open apart from the console (`noopener noreferrer`); anything else, `javascript:`
 * included, stays plain text (docs/security.md, "Input and output").
 */
export const LinkedText = ({ text }: { readonly text: string }) => (
  <>
    {linkedPieces(text).map((piece, index) =>
      piece.href === undefined ? (
        piece.text
      ) : (
        <a key={index} href={piece.href} target="_blank" rel="noopener noreferrer">
          {piece.text}
        </a>
      )
    )}
  </>
)
