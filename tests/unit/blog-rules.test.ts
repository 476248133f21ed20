import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cleanList, readingTime, slugify, uniqueSlug, WORDS_PER_MINUTE } from "../../contract/blog-rules.ts"
import { sanitizePostHtml } from "../../server/blog/sanitize.ts"

describe("slug", () => {
  it("follows the spec's rules for any title", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (title) => {
        const slug = slugify(title)
        expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
        expect(slugify(slug)).toBe(slug)
      }),
      { numRuns: 500 }
    )
  })

  it("turns spaces into hyphens, drops punctuation, folds accents", () => {
    expect(slugify("  Pi Network: Mainnet — Q&A!  ")).toBe("pi-network-mainnet-qa")
    expect(slugify("Café  au   lait")).toBe("cafe-au-lait")
    expect(slugify("a--b -- c")).toBe("a-b-c")
    expect(slugify("!!!")).toBe("post")
  })

  it("makes a taken slug unique with -2, -3…", () => {
    expect(uniqueSlug("news", new Set())).toBe("news")
    expect(uniqueSlug("news", new Set(["news"]))).toBe("news-2")
    expect(uniqueSlug("news", new Set(["news", "news-2", "news-3"]))).toBe("news-4")
  })
})

describe("reading time", () => {
  it("is the word count divided by 200, rounded up", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 1200 }), (words) => {
        const html = `<p>${words.join(" ")}</p>`
        expect(readingTime(html)).toBe(Math.ceil(words.length / WORDS_PER_MINUTE))
      }),
      { numRuns: 200 }
    )
  })

  it("does not count tags as words", () => {
    expect(readingTime("<h1>One</h1><p><strong>two</strong> three</p>")).toBe(1)
    expect(readingTime("<p></p>")).toBe(0)
  })
})

describe("tag and keyword lists", () => {
  it("are trimmed, without empties or duplicates, in first-seen order", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 30 }), (values) => {
        const cleaned = cleanList(values)
        for (const value of cleaned) {
          expect(value).toBe(value.trim())
          expect(value).not.toBe("")
        }
        expect(new Set(cleaned.map((v) => v.toLowerCase())).size).toBe(cleaned.length)
        expect(new Set(cleaned.map((v) => v.toLowerCase()))).toEqual(new Set(values.map((v) => v.trim().toLowerCase()).filter((v) => v !== "")))
        expect(cleanList(cleaned)).toEqual(cleaned)
      }),
      { numRuns: 300 }
    )
  })
})

const hostile = fc.oneof(
  fc.constantFrom(
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    '<a href=" JaVaScRiPt:alert(1)">x</a>',
    '<a href="&#106;avascript:alert(1)">x</a>',
    '<p style="background:url(javascript:alert(1));text-align:center">x</p>',
    '<svg onload="alert(1)"><script>1</script></svg>',
    '<iframe src="https://evil.example"></iframe>',
    '<p onclick="steal()">hi</p>',
    "<scr<script>ipt>alert(1)</script>",
    '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>',
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    '<div><object data="x"></object><embed src="y"></div>'
  ),
  fc.string({ maxLength: 40 })
)

describe("post body sanitizer", () => {
  it("never keeps a script, an event handler or a javascript: URL in generated hostile HTML", () => {
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 6 }), (parts) => {
        const clean = sanitizePostHtml(parts.join("")).toLowerCase()
        expect(clean).not.toMatch(/<script|<iframe|<object|<embed|<svg|<style|<img/)
        expect(clean).not.toMatch(/\son[a-z]+\s*=/)
        expect(clean).not.toMatch(/javascript:|data:text/)
      }),
      { numRuns: 400 }
    )
  })

  it("keeps the editor's formatting, alignment and safe links unchanged, each link marked noopener noreferrer", () => {
    const html =
      '<h2 style="text-align:center">Title</h2><p>Some <strong>bold</strong>, <em>italic</em> and <code>code</code>.</p>' +
      '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote><p><a href="https://minepi.com">link</a><br />next</p>'
    expect(sanitizePostHtml(html)).toBe(html.replace('<a href="https://minepi.com">', '<a href="https://minepi.com" rel="noopener noreferrer">'))
    expect(sanitizePostHtml(sanitizePostHtml(html))).toBe(sanitizePostHtml(html))
  })

  it("removes styles other than text alignment", () => {
    expect(sanitizePostHtml('<p style="color:red;text-align:right">x</p>')).toBe('<p style="text-align:right">x</p>')
  })

  it("round-trips: stored HTML of any editor shape, saved again unchanged, is the same", () => {
    const text = fc.stringMatching(/^[A-Za-z0-9 .,!?'&<>"]{1,12}$/)
    const inline = fc.oneof(
      text.map((t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")),
      text.map((t) => `<strong>${encodeURIComponent(t)}</strong>`),
      text.map((t) => `<em>${encodeURIComponent(t)}</em>`),
      text.map((t) => `<code>${encodeURIComponent(t)}</code>`),
      fc
        .tuple(fc.webUrl({ validSchemes: ["https"] }), text)
        .map(([url, t]) => `<a href="${encodeURI(url)}" target="_blank" rel="noopener noreferrer nofollow">${encodeURIComponent(t)}</a>`),
      fc.constant("<br />")
    )
    const align = fc.constantFrom("", ' style="text-align:center"', ' style="text-align:right"')
    const block = fc
      .tuple(fc.constantFrom("p", "h1", "h2", "h3", "blockquote"), align, fc.array(inline, { minLength: 1, maxLength: 4 }))
      .map(([tag, style, parts]) => `<${tag}${style}>${parts.join("")}</${tag}>`)
    const list = fc
      .tuple(fc.constantFrom("ul", "ol"), fc.array(fc.array(inline, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }))
      .map(([tag, items]) => `<${tag}>${items.map((parts) => `<li><p>${parts.join("")}</p></li>`).join("")}</${tag}>`)
    fc.assert(
      fc.property(fc.array(fc.oneof(block, list), { minLength: 1, maxLength: 6 }), (blocks) => {
        const stored = sanitizePostHtml(blocks.join(""))
        expect(sanitizePostHtml(stored)).toBe(stored)
      }),
      { numRuns: 300 }
    )
  })
})
