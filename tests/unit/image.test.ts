import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { imageMessages, inspectImage } from "../../server/uploads/image.ts"
import * as images from "../support/images.ts"

const originals = [images.smallJpeg(), images.smallPng(), images.smallGif(), images.smallWebp()]
const messages = new Set<string>(Object.values(imageMessages))

describe("image inspection", () => {
  it("never throws on arbitrary bytes and refuses anything without an image's structure", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        const result = inspectImage(bytes)
        if (!result.ok) expect(messages.has(result.error)).toBe(true)
        else expect(result.bytes.length).toBeGreaterThan(0)
      }),
      { numRuns: 500 }
    )
  })

  it("on a damaged real image either refuses with a message or gives a clean image that inspects to itself", () => {
    fc.assert(
      fc.property(
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
      ),
      { numRuns: 400 }
    )
  })

  it("keeps each clean real image byte for byte", () => {
    for (const original of originals) {
      const result = inspectImage(original)
      expect(result.ok && Buffer.from(result.bytes).equals(Buffer.from(original))).toBe(true)
    }
  })

  // Each refusal with the words a person sees (written out: a changed message must fail here).
  it("refuses what is not a picture, and each kind of bad picture, with its own message", () => {
    const refusal = (bytes: Uint8Array) => {
      const result = inspectImage(bytes)
      return result.ok ? `accepted as ${result.kind}` : result.error
    }
    const notAnImage = "Only JPEG, PNG, GIF and WebP images are accepted"
    expect(refusal(images.bytesOf("just some text"))).toBe(notAnImage)
    expect(refusal(new Uint8Array(0))).toBe(notAnImage)
    expect(refusal(images.bytesOf("%PDF-1.7\n"))).toBe(notAnImage)
    expect(refusal(images.bytesOf('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBe(
      "SVG images are not accepted: use JPEG, PNG, GIF or WebP"
    )
    expect(refusal(images.smallPng().subarray(0, 40))).toBe("The image file is damaged or incomplete")
    expect(refusal(images.withPngChunk(images.smallPng(), images.pngChunk("tEXt", images.bytesOf("Comment\0<script>alert(1)</script>"))))).toBe(
      "The image contains data that is not part of the picture"
    )
    expect(refusal(images.withJpegSize(images.smallJpeg(), 10_000, 4_001))).toBe("The image is too large: at most 40 megapixels")
    for (const original of originals) expect(refusal(original)).toMatch(/^accepted as (jpeg|png|gif|webp)$/)
  })

  it("refuses random bytes that start with no image signature", () => {
    const signatures = [
      [0xff, 0xd8],
      [0x89, 0x50, 0x4e, 0x47],
      [0x47, 0x49, 0x46],
      [0x52, 0x49, 0x46, 0x46]
    ]
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        fc.pre(!signatures.some((signature) => signature.every((byte, index) => bytes[index] === byte)))
        const result = inspectImage(bytes)
        expect(result.ok).toBe(false)
      }),
      { numRuns: 300 }
    )
  })
})
