/**
 * A post body as a reader sees it (docs/architecture.md, "Record history"): its blocks in order
 * (paragraphs, headings, list items, quotes, code), each with its text and the formatting of its
 * words, read from the stored HTML. The stored HTML is the sanitizer's allow-list
 * (server/blog/sanitize.ts), so a small reader of tags and entities is enough; anything else is
 * read as text, never thrown at.
 */

export type BlockKind = "paragraph" | "heading1" | "heading2" | "heading3" | "heading4" | "bulleted" | "numbered" | "quote" | "code"

export type MarkKind = "bold" | "italic" | "underline" | "strike" | "code" | "link"

/** A run of words with one formatting: a link keeps where it goes. */
export interface Mark {
  readonly kind: MarkKind
  readonly text: string
  readonly href?: string
}

export interface Block {
  readonly kind: BlockKind
  /** `left`, `center`, `right`, `justify`, or "" for the default. */
  readonly align: string
  readonly text: string
  readonly marks: ReadonlyArray<Mark>
}

const entities: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" }

/** `&amp;`, `&#39;`, `&#x1F642;` as the characters they stand for; an unknown one stays as written. */
export const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/giu, (whole, name: string) => {
    if (!name.startsWith("#")) return entities[name.toLowerCase()] ?? whole
    const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10)
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })

const inlineMarks: Readonly<Record<string, MarkKind>> = {
  strong: "bold",
  b: "bold",
  em: "italic",
  i: "italic",
  u: "underline",
  s: "strike",
  code: "code",
  a: "link"
}

const headings: Readonly<Record<string, BlockKind>> = { h1: "heading1", h2: "heading2", h3: "heading3", h4: "heading4", h5: "heading4", h6: "heading4" }

/** A run of text with the formatting it had. */
interface Piece {
  readonly text: string
  readonly marks: ReadonlyArray<MarkKind>
  readonly href: string
  /** A line break inside the block (`<br>`): kept where spaces collapse. */
  readonly lineBreak?: boolean
}

interface Open {
  kind: BlockKind
  align: string
  pieces: Array<Piece>
}

const attribute = (attributes: string, name: string): string => {
  const found = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "iu").exec(attributes)
  return decodeEntities(found?.[2] ?? found?.[3] ?? found?.[4] ?? "")
}

const alignOf = (attributes: string) => /text-align\s*:\s*(left|center|right|justify)/iu.exec(attribute(attributes, "style"))?.[1]?.toLowerCase() ?? ""

/** A block's runs as its text (spaces collapsed, outside code blocks) and its marks (each formatting's runs of words). */
const blockOf = (open: Open): Block | undefined => {
  const keepSpaces = open.kind === "code"
  const normal = (text: string) => (keepSpaces ? text : text.replace(/[ \t\r\n\f]+/gu, " "))
  const pieces = open.pieces.map((piece) => (piece.lineBreak === true ? piece : { ...piece, text: normal(piece.text) }))
  const whole = pieces.map((piece) => piece.text).join("")
  const text = keepSpaces ? whole.replace(/^\n+|\n+$/gu, "") : whole.replace(/ *\n */gu, "\n").replace(/^[ \n]+|[ \n]+$/gu, "")
  if (text.trim() === "") return undefined
  const marks: Array<Mark> = []
  for (const kind of Object.values(inlineMarks).filter((value, index, all) => all.indexOf(value) === index)) {
    let run: { text: string; href: string } | undefined
    const close = () => {
      const words = run?.text.trim() ?? ""
      if (run !== undefined && words !== "") marks.push(kind === "link" ? { kind, text: words, href: run.href } : { kind, text: words })
      run = undefined
    }
    for (const piece of pieces) {
      const has = piece.marks.includes(kind)
      if (!has || (run !== undefined && kind === "link" && run.href !== piece.href)) close()
      if (has) run = { text: (run?.text ?? "") + piece.text, href: piece.href }
    }
    close()
  }
  return { kind: open.kind, align: open.align, text, marks }
}

const TOKEN = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>|([^<]+|<)/gu

/** The blocks of a post body, in order. Text outside any block is a paragraph of its own. */
export const readBlocks = (html: string): ReadonlyArray<Block> => {
  const blocks: Array<Block> = []
  const lists: Array<"bulleted" | "numbered"> = []
  const marks: Array<MarkKind> = []
  let href = ""
  let quotes = 0
  let items = 0
  let open: Open | undefined
  const flush = () => {
    const block = open === undefined ? undefined : blockOf(open)
    if (block !== undefined) blocks.push(block)
    open = undefined
  }
  const start = (kind: BlockKind, align: string) => {
    flush()
    open = { kind, align, pieces: [] }
  }
  for (const [, closing, rawName, attributes, text] of html.matchAll(TOKEN)) {
    if (text !== undefined) {
      const words = decodeEntities(text)
      if (open === undefined && words.trim() === "") continue
      open ??= { kind: quotes > 0 ? "quote" : "paragraph", align: "", pieces: [] }
      open.pieces.push({ text: words, marks: [...marks], href })
      continue
    }
    if (rawName === undefined) continue
    const name = rawName.toLowerCase()
    const mark = inlineMarks[name]
    if (mark !== undefined && !(mark === "code" && open?.kind === "code")) {
      if (closing === "") {
        marks.push(mark)
        if (mark === "link") href = attribute(attributes ?? "", "href")
      } else {
        const at = marks.lastIndexOf(mark)
        if (at >= 0) marks.splice(at, 1)
        if (mark === "link") href = ""
      }
    } else if (name === "br") open?.pieces.push({ text: "\n", marks: [...marks], href, lineBreak: true })
    else if (name === "ul" || name === "ol") {
      flush()
      if (closing === "") lists.push(name === "ol" ? "numbered" : "bulleted")
      else lists.pop()
    } else if (name === "blockquote") {
      flush()
      quotes = Math.max(0, quotes + (closing === "" ? 1 : -1))
    } else if (name === "p" || name === "li" || name === "pre" || headings[name] !== undefined) {
      if (name === "li") items = Math.max(0, items + (closing === "" ? 1 : -1))
      if (closing !== "") flush()
      else {
        // The editor writes a list item's words in a paragraph of its own (`<li><p>…</p></li>`):
        // still a list item, as a reader sees it.
        const item = name === "li" || (name === "p" && items > 0)
        const kind = item ? (lists.at(-1) ?? "bulleted") : name === "pre" ? "code" : (headings[name] ?? (quotes > 0 ? "quote" : "paragraph"))
        start(kind, alignOf(attributes ?? "") || (item ? (open?.align ?? "") : ""))
      }
    }
  }
  flush()
  return blocks
}

/** Whether a stored text is markup a reader sees rendered (a post body), not words to show as they are. */
export const isRichText = (value: unknown): value is string =>
  typeof value === "string" && /<\/?(p|h[1-6]|ul|ol|li|blockquote|pre|strong|em|b|i|u|s|a|br|code|span)\b[^>]*>/iu.test(value)
