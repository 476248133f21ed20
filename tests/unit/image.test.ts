import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { imageMessages, inspectImage } from "../../server/uploads/image.ts"
import * as images from "../support/images.ts"

const originals = [images.smallJpeg(), images.smallPng(), images.smallGif(), images.smallWebp()]
const messages = new Set<string>(Object.values(imageMessages))

describe("image inspection", () => {
  it("never throws on arbitrary bytes and refuses anything without an image's structure", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
      const result = inspectImage(bytes)
      if (!result.ok) expect(messages.has(result.error)).toBe(true)
      else expect(result.bytes.length).toBeGreaterThan(0)
    }), { numRuns: 500 })
  })

  it("on a damaged real image either refuses with a message or gives a clean image that inspects to itself", () => {
    fc.assert(fc.property(
      fc.constantFrom(...originals),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
      fc.nat(),
      (original, flips, cut) => {
        const bytes = Uint8Array.from(original)
        for (const [at, value] of flips) bytes[at % bytes.length] = value
        const damaged = bytes.subarray(0, bytes.length - (cut % 4 === 0 ? cut % bytes.length : 0))
        const result = inspectImage(damaged)
        if (!result.ok) {
          expect(messages.has(result.error)).toBe(true)
        } else {
          const again = inspectImage(result.bytes)
          expect(again.ok && Buffer.from(again.bytes).equals(Buffer.from(result.bytes))).toBe(true)
        }
      }
    ), { numRuns: 400 })
  })

  it("keeps each clean real image byte for byte", () => {
    for (const original of originals) {
      const result = inspectImage(original)
      expect(result.ok && Buffer.from(result.bytes).equals(Buffer.from(original))).toBe(true)
    }
  })
})
