import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { changedPaths, historyKindPlurals, historyKinds, sameKept } from "../../contract/history-rules.ts"
import { changesBetween, fieldLabel, valueText } from "../../src/features/history/reading.ts"
import { isInstant, localTime } from "../../src/lib/dates.ts"

/** JSON values as history keeps them: documents nested a little, lists, text, numbers, flags. */
const kept = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, "", "Ana", "https://img.example/a.png", 0, 7, true, false),
    fc.array(fc.constantFrom("pi", "kyc"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("username", "avatar", "credentials", "website"), tie("value"), { maxKeys: 3 })
  )
})).value

/** `value` with each document's keys in reverse order: the same value to a reader. */
const reordered = (value: unknown): unknown =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.fromEntries(
        Object.entries(value)
          .reverse()
          .map(([key, inner]) => [key, reordered(inner)])
      )
    : value

describe("what history names as changed", () => {
  it("names nothing for a value saved as it was, whatever the order of a document's keys", () => {
    fc.assert(
      fc.property(kept, (value) => {
        expect(sameKept(value, reordered(value))).toBe(true)
        expect(changedPaths("author", value, reordered(value))).toEqual([])
      }),
      { numRuns: 300 }
    )
    expect(sameKept(undefined, null)).toBe(true)
    expect(sameKept("", null)).toBe(false)
    expect(sameKept({ a: 1 }, { a: 2 })).toBe(false)
  })

  it("names a document's keys each as a field of its own, at any depth, with their values before and after", () => {
    expect(changedPaths("author", { username: "Ana", credentials: "Writer" }, { credentials: "Editor", username: "Ana" })).toEqual([
      { field: "author.credentials", before: "Writer", after: "Editor" }
    ])
    expect(changedPaths("document", { social: { x: "a" }, name: "Site" }, { social: { x: "b" }, name: "Site" })).toEqual([
      { field: "document.social.x", before: "a", after: "b" }
    ])
    // A document that comes or goes names each key it has; a key that comes is null before.
    expect(changedPaths("sponsorInfo", null, { name: "Pi", url: "" })).toEqual([
      { field: "sponsorInfo.name", before: null, after: "Pi" },
      { field: "sponsorInfo.url", before: null, after: "" }
    ])
    expect(changedPaths("author", { username: "Ana" }, { username: "Ana", avatar: "https://img.example/a.png" })).toEqual([
      { field: "author.avatar", before: null, after: "https://img.example/a.png" }
    ])
    // Values that are not both documents (or none) are one field; an empty document is a value too.
    expect(changedPaths("tags", ["pi"], ["pi", "kyc"])).toEqual([{ field: "tags", before: ["pi"], after: ["pi", "kyc"] }])
    expect(changedPaths("details", {}, null)).toEqual([{ field: "details", before: {}, after: null }])
    expect(changedPaths("details", "text", { a: 1 })).toEqual([{ field: "details", before: "text", after: { a: 1 } }])
    expect(changedPaths("title", undefined, "New")).toEqual([{ field: "title", before: null, after: "New" }])
  })

  it("names every difference and only differences: each named path's values differ, and a value with none named is the same", () => {
    fc.assert(
      fc.property(kept, kept, (before, after) => {
        const changes = changedPaths("field", before, after)
        expect(changes.length === 0).toBe(sameKept(before, after))
        for (const change of changes) expect(sameKept(change.before, change.after)).toBe(false)
        expect(new Set(changes.map((change) => change.field)).size).toBe(changes.length)
      }),
      { numRuns: 500 }
    )
  })

  it("has a plural of its own for every kind", () => {
    for (const kind of historyKinds) expect(historyKindPlurals[kind]).toMatch(/^[A-Z][a-z -]+s$|^Site settings$/)
    expect(historyKindPlurals.address).toBe("Addresses")
    expect(historyKindPlurals.inquiry).toBe("Advertising inquiries")
  })
})

describe("how the history dialog reads a change", () => {
  it("says a field as a person does: a document's key after its field's name, a listing's detail alone", () => {
    expect(fieldLabel("seoTitle")).toBe("Seo title")
    expect(fieldLabel("author.username")).toBe("Author username")
    expect(fieldLabel("sponsorInfo.logo")).toBe("Sponsor info logo")
    expect(fieldLabel("details.website")).toBe("Website")
    expect(fieldLabel("document.siteName")).toBe("Site name")
    expect(fieldLabel("details")).toBe("Details")
    expect(fieldLabel("moderation_notes")).toBe("Moderation notes")
  })

  it("writes a time in the viewer's zone as the console writes dates, flags as yes or no, lists joined", () => {
    const at = "2026-03-04T05:06:07.000Z"
    const date = new Date(at)
    const two = (value: number) => String(value).padStart(2, "0")
    const local = `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`
    expect(localTime(at)).toBe(local)
    expect(valueText(at)).toBe(local)
    expect(valueText("2026-03-04T05:06+01:00")).toBe(localTime("2026-03-04T05:06+01:00"))
    expect(isInstant("2026-03-04")).toBe(false)
    expect(isInstant("2026-13-45T99:99:00Z")).toBe(false)
    expect(valueText("Plain words")).toBe("Plain words")
    expect(valueText(true)).toBe("Yes")
    expect(valueText(false)).toBe("No")
    expect(valueText(12)).toBe("12")
    expect(valueText(["pi", "kyc"])).toBe("pi, kyc")
    expect(valueText(null)).toBe("")
    expect(valueText([{ a: 1 }])).toBe('[{"a":1}]')
  })

  it("compares two versions field by field, a document's keys each a field", () => {
    const version = (content: Record<string, unknown>) => ({ version: 1, removed: false, content, hidden: [] })
    expect(
      changesBetween(
        version({ title: "A", author: { username: "Ana", credentials: "Writer" }, tags: ["pi"] }),
        version({ title: "A", author: { credentials: "Editor", username: "Ana" }, tags: ["pi"], excerpt: "New" })
      )
    ).toEqual([
      { field: "author.credentials", before: "Writer", after: "Editor", hidden: false },
      { field: "excerpt", before: null, after: "New", hidden: false }
    ])
  })
})
