import { httpAddresses } from "../../contract/text.ts"

/** The pieces of `text`: plain runs, and the http(s) addresses in it with the link they open. */
export const linkedPieces = (text: string): ReadonlyArray<{ readonly text: string; readonly href?: string }> => {
  const pieces: Array<{ readonly text: string; readonly href?: string }> = []
  let at = 0
  for (const found of httpAddresses(text)) {
    if (found.at > at) pieces.push({ text: text.slice(at, found.at) })
    pieces.push({ text: found.address, href: found.href })
    at = found.at + found.address.length
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
