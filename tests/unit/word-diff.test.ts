import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { wordDiff } from "../../src/lib/word-diff.ts"

describe("the word diff", () => {
  it("marks the words deleted and inserted, keeping the rest", () => {
    expect(wordDiff("The quick brown fox", "The slow brown fox jumps")).toEqual([
      { kind: "same", text: "The " },
      { kind: "deleted", text: "quick" },
      { kind: "inserted", text: "slow" },
      { kind: "same", text: " brown fox" },
      { kind: "inserted", text: " jumps" }
    ])
    expect(wordDiff("same", "same")).toEqual([{ kind: "same", text: "same" }])
  })

  it("always rebuilds both texts: the kept and deleted words are the old text, the kept and inserted the new", () => {
    const text = fc.array(fc.constantFrom("pi", "node", "wallet", " ", "  ", "\n", "kyc"), { maxLength: 40 }).map((words) => words.join(""))
    fc.assert(
      fc.property(text, text, (before, after) => {
        const parts = wordDiff(before, after)
        expect(
          parts
            .filter((part) => part.kind !== "inserted")
            .map((part) => part.text)
            .join("")
        ).toBe(before)
        expect(
          parts
            .filter((part) => part.kind !== "deleted")
            .map((part) => part.text)
            .join("")
        ).toBe(after)
      }),
      { numRuns: 500 }
    )
  })
})
