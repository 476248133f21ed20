import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { keepRow, withKept } from "../../src/lib/list/kept-row.ts"

const idOf = (row: string) => row

describe("a row kept shown after it left the list", () => {
  it("goes back before the row that followed it when a reload also drops a row changed before it", () => {
    // X was changed and left, then A: the reload that answers drops both.
    const kept = keepRow(["X", "A", "B", "C"], idOf, 1)!
    expect(withKept(["B", "C"], idOf, kept)).toEqual(["A", "B", "C"])
    // Nothing follows it any more: after the nearest row before it still served.
    expect(withKept(["X"], idOf, keepRow(["X", "A", "B"], idOf, 1)!)).toEqual(["X", "A"])
    // Still served: the list as served.
    expect(withKept(["B", "A"], idOf, kept)).toEqual(["B", "A"])
  })

  it("keeps the order it was shown in, whatever subset of the other rows the reload keeps", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.array(fc.boolean(), { maxLength: 12 }),
        (shown, pick, stays) => {
          const index = pick % shown.length
          const kept = keepRow(shown, idOf, index)!
          const served = shown.filter((id, at) => at !== index && (stays[at] ?? true))
          const rows = withKept(served, idOf, kept)
          // The served rows with the kept one, in the order they were shown.
          expect(rows).toEqual(shown.filter((id) => id === kept.id || served.includes(id)))
        }
      )
    )
  })
})
