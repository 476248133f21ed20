import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { byteRange, contentRange } from "../../server/uploads/byte-range.ts"

describe("a download's byte range (RFC 9110)", () => {
  it("reads the single-range forms: from-to, from, the last N bytes", () => {
    expect(byteRange("bytes=0-99", 1000)).toEqual({ kind: "part", start: 0, end: 99 })
    expect(byteRange("bytes=500-", 1000)).toEqual({ kind: "part", start: 500, end: 999 })
    expect(byteRange("bytes=-100", 1000)).toEqual({ kind: "part", start: 900, end: 999 })
    expect(byteRange("bytes=-5000", 1000)).toEqual({ kind: "part", start: 0, end: 999 })
    expect(byteRange("bytes=990-5000", 1000)).toEqual({ kind: "part", start: 990, end: 999 })
    expect(contentRange({ kind: "part", start: 0, end: 99 }, 1000)).toBe("bytes 0-99/1000")
  })

  it("says what cannot be served, and serves the whole file for what it does not read", () => {
    expect(byteRange("bytes=1000-", 1000)).toEqual({ kind: "unsatisfiable" })
    expect(byteRange("bytes=-0", 1000)).toEqual({ kind: "unsatisfiable" })
    expect(contentRange({ kind: "unsatisfiable" }, 1000)).toBe("bytes */1000")
    for (const header of [undefined, "", "bytes=", "bytes=-", "bytes=5-1", "bytes=0-1,4-5", "pages=1-2", "bytes=a-b"]) {
      expect(byteRange(header, 1000), String(header)).toEqual({ kind: "whole" })
    }
  })

  it("never names a byte outside the file, whatever it is asked", () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.option(fc.nat(20_000_000)), fc.option(fc.nat(20_000_000)), (size, first, last) => {
        const range = byteRange(`bytes=${first ?? ""}-${last ?? ""}`, size)
        if (range.kind !== "part") return
        expect(range.start).toBeGreaterThanOrEqual(0)
        expect(range.end).toBeLessThan(size)
        expect(range.start).toBeLessThanOrEqual(range.end)
        if (first !== null) expect(range.start).toBe(first)
      })
    )
  })
})
