import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { blockDiff, type BlockChange, richTextDiff } from "../../src/lib/rich-text-diff.ts"
import { type Block, type BlockKind, isRichText, readBlocks } from "../../src/lib/rich-text.ts"

/** A block as the editor writes it (the sanitizer's allow-list: server/blog/sanitize.ts), from words and which of them are bold. */
interface Written {
  readonly kind: BlockKind
  readonly words: ReadonlyArray<string>
  readonly bold: ReadonlyArray<boolean>
}

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
const tags: Readonly<Record<BlockKind, readonly [string, string]>> = {
  paragraph: ["<p>", "</p>"],
  heading1: ["<h1>", "</h1>"],
  heading2: ["<h2>", "</h2>"],
  heading3: ["<h3>", "</h3>"],
  heading4: ["<h4>", "</h4>"],
  bulleted: ["<ul><li>", "</li></ul>"],
  numbered: ["<ol><li>", "</li></ol>"],
  quote: ["<blockquote><p>", "</p></blockquote>"],
  code: ["<pre>", "</pre>"]
}
const htmlOf = (blocks: ReadonlyArray<Written>) =>
  blocks
    .map((block) => {
      const inner = block.words
        .map((word, index) => (block.bold[index] === true && block.kind !== "code" ? `<strong>${escape(word)}</strong>` : escape(word)))
        .join(" ")
      return `${tags[block.kind][0]}${inner}${tags[block.kind][1]}`
    })
    .join("")

/** Words people write, with the characters markup is made of. */
const word = fc.oneof(fc.constantFrom("Pi", "wallet", "KYC", "<p>", "a&b", "“quoted”", "naïve", "日本", "x>y", "5 < 6"), fc.stringMatching(/^[a-z]{1,8}$/))
const written: fc.Arbitrary<Written> = fc
  .record({
    kind: fc.constantFrom<BlockKind>("paragraph", "heading2", "heading3", "bulleted", "numbered", "quote", "code"),
    words: fc.array(word, { minLength: 1, maxLength: 6 })
  })
  .chain(({ kind, words }) =>
    fc.record({ kind: fc.constant(kind), words: fc.constant(words), bold: fc.array(fc.boolean(), { minLength: words.length, maxLength: words.length }) })
  )
const body = fc.array(written, { maxLength: 8 })

describe("a post body as a reader sees it", () => {
  it("reads the blocks, their kinds and their formatting, never a tag", () => {
    const blocks = readBlocks(
      '<h2>Intro</h2><p style="text-align: center">Some <strong>bold</strong> and <em>slanted</em> words &amp; <a href="https://a.example/?a=1&amp;b=2" rel="noopener noreferrer">a link</a>.</p>' +
        "<ul><li>One</li><li>Two<br>lines</li></ul><ol><li>First</li></ol><blockquote>Said</blockquote><pre>  code\n  kept</pre>stray text"
    )
    expect(blocks).toEqual([
      { kind: "heading2", align: "", text: "Intro", marks: [] },
      {
        kind: "paragraph",
        align: "center",
        text: "Some bold and slanted words & a link.",
        marks: [
          { kind: "bold", text: "bold" },
          { kind: "italic", text: "slanted" },
          { kind: "link", text: "a link", href: "https://a.example/?a=1&b=2" }
        ]
      },
      { kind: "bulleted", align: "", text: "One", marks: [] },
      { kind: "bulleted", align: "", text: "Two\nlines", marks: [] },
      { kind: "numbered", align: "", text: "First", marks: [] },
      { kind: "quote", align: "", text: "Said", marks: [] },
      { kind: "code", align: "", text: "  code\n  kept", marks: [] },
      { kind: "paragraph", align: "", text: "stray text", marks: [] }
    ])
    expect(readBlocks("<p>&#39;&#x1F642;&nbsp;&bogus; &#0;</p>")).toEqual([{ kind: "paragraph", align: "", text: "'🙂\u00a0&bogus; &#0;", marks: [] }])
    expect(readBlocks("<p>  </p><p></p>")).toEqual([])
  })

  it("reads back what the editor wrote: each block's kind, its words and its bold ones", () => {
    fc.assert(
      fc.property(body, (blocks) => {
        const read = readBlocks(htmlOf(blocks))
        expect(read.map((block) => [block.kind, block.text])).toEqual(blocks.map((block) => [block.kind, block.words.join(" ")]))
        for (const [index, block] of read.entries()) {
          const source = blocks[index]!
          const boldWords = source.kind === "code" ? [] : source.words.filter((_, at) => source.bold[at] === true)
          expect(block.marks.flatMap((mark) => (mark.kind === "bold" ? mark.text.split(" ") : []))).toEqual(boldWords.flatMap((text) => text.split(" ")))
        }
      }),
      { numRuns: 300 }
    )
  })

  it("never throws on any text, and reads none of the markup as words", () => {
    const tagged = /<\/?(p|li|ul|ol|strong|h2|h3|blockquote|pre)>/
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), body, (noise, blocks) => {
        const read = readBlocks(htmlOf(blocks) + noise)
        const typed = blocks.some((block) => block.words.some((each) => tagged.test(each))) || tagged.test(noise)
        if (!typed) for (const block of read) expect(block.text).not.toMatch(tagged)
      }),
      { numRuns: 300 }
    )
  })

  it("tells markup from plain words", () => {
    expect(isRichText("<p>Hi</p>")).toBe(true)
    expect(isRichText("Plain, even with 5 < 6 and a <3")).toBe(false)
    expect(isRichText(42)).toBe(false)
  })
})

const side = (changes: ReadonlyArray<BlockChange>, which: "before" | "after"): ReadonlyArray<Block> =>
  changes.flatMap((change) => {
    if (change.kind === "same") return [change.block]
    if (change.kind === "changed") return [change[which]]
    return (change.kind === "deleted") === (which === "before") ? [change.block] : []
  })

describe("what changed in a post body", () => {
  it("keeps every block of both versions, in order: the kept and gone ones are the old body, the kept and new ones the new", () => {
    fc.assert(
      fc.property(body, body, (before, after) => {
        const [a, b] = [readBlocks(htmlOf(before)), readBlocks(htmlOf(after))]
        const changes = blockDiff(a, b)
        expect(side(changes, "before")).toEqual(a)
        expect(side(changes, "after")).toEqual(b)
      }),
      { numRuns: 300 }
    )
  })

  it("shows a block added anywhere as that block alone: the others, list items included, are unchanged", () => {
    fc.assert(
      fc.property(body, written, fc.nat(), (blocks, added, at) => {
        const where = at % (blocks.length + 1)
        const changes = richTextDiff(htmlOf(blocks), htmlOf([...blocks.slice(0, where), added, ...blocks.slice(where)]))
        expect(changes.filter((change) => change.kind !== "same")).toHaveLength(1)
        expect(changes.filter((change) => change.kind === "same")).toHaveLength(readBlocks(htmlOf(blocks)).length)
      }),
      { numRuns: 300 }
    )
  })

  it("reads a list item the editor wrote with a paragraph inside as the list item, unchanged", () => {
    expect(readBlocks('<ul><li><p class="bn-inline-content">One</p></li><li><p>Two</p></li></ul><ol><li><p>First</p></li></ol><p>After</p>')).toEqual([
      { kind: "bulleted", align: "", text: "One", marks: [] },
      { kind: "bulleted", align: "", text: "Two", marks: [] },
      { kind: "numbered", align: "", text: "First", marks: [] },
      { kind: "paragraph", align: "", text: "After", marks: [] }
    ])
    expect(richTextDiff("<ul><li>One</li><li>Two</li></ul>", "<ul><li><p>One</p></li><li><p>Two</p></li></ul>").map((change) => change.kind)).toEqual([
      "same",
      "same"
    ])
  })

  it("shows nothing changed when nothing did", () => {
    fc.assert(
      fc.property(body, (blocks) => {
        expect(richTextDiff(htmlOf(blocks), htmlOf(blocks)).filter((change) => change.kind !== "same")).toEqual([])
      })
    )
  })

  it("marks the words of an edited block, and names what its formatting became", () => {
    const changes = richTextDiff(
      '<p>Some plain words.</p><ul><li>One</li><li>Two</li></ul><p>Read <a href="https://a.example">the guide</a> now.</p><p>Old heading</p><p><u>Kept</u> <s>line</s> <code>x</code></p>',
      '<p>Some <strong>plain</strong> new words.</p><ul><li>One</li><li>Two</li></ul><p>Read <a href="https://b.example">the guide</a> now.</p><h2 style="text-align:right">Old heading</h2><p>Kept <s>line</s> x</p>'
    )
    expect(changes.map((change) => change.kind)).toEqual(["changed", "same", "same", "changed", "changed", "changed"])
    const [words, , , link, heading, marks] = changes
    expect(words).toMatchObject({
      words: [
        { kind: "same", text: "Some plain " },
        { kind: "inserted", text: "new " },
        { kind: "same", text: "words." }
      ],
      formatting: [{ type: "mark", mark: "bold", text: "plain", added: true }]
    })
    expect(link).toMatchObject({ formatting: [{ type: "link", text: "the guide", from: "https://a.example", to: "https://b.example" }] })
    expect(heading).toMatchObject({
      formatting: [
        { type: "block", from: "paragraph", to: "heading2" },
        { type: "align", from: "", to: "right" }
      ]
    })
    expect(marks).toMatchObject({
      formatting: [
        { type: "mark", mark: "underline", text: "Kept", added: false },
        { type: "mark", mark: "code", text: "x", added: false }
      ]
    })
    expect(richTextDiff("<p>Plain</p>", '<p><a href="https://c.example">Plain</a></p>')).toMatchObject([
      { kind: "changed", formatting: [{ type: "link", text: "Plain", from: null, to: "https://c.example" }] }
    ])
    expect(richTextDiff('<p><a href="https://c.example">Plain</a></p>', "<p>Plain</p>")).toMatchObject([
      { kind: "changed", formatting: [{ type: "link", text: "Plain", from: "https://c.example", to: null }] }
    ])
  })

  it("shows an unrelated block that came and one that went whole, not as one edited block", () => {
    expect(richTextDiff("<p>Alpha beta gamma</p>", "<p>Delta epsilon</p>").map((change) => change.kind)).toEqual(["deleted", "inserted"])
    expect(richTextDiff("<p>A b c</p><p>Kept</p>", "<p>New one</p><p>A b c d</p><p>Kept</p>").map((change) => change.kind)).toEqual([
      "inserted",
      "changed",
      "same"
    ])
  })
})
