import { readFileSync } from "node:fs"
import { crc32, deflateSync } from "node:zlib"
import { concat } from "../../server/uploads/image.ts"

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/images/${name}`, import.meta.url)))

/** Real images written by Chromium's encoders (64×48). */
export const smallJpeg = () => fixture("small.jpg")
export const smallPng = () => fixture("small.png")
export const smallWebp = () => fixture("small.webp")

/** A 1×1 GIF89a with a graphic-control extension. */
export const smallGif = () =>
  Uint8Array.from([
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00,
    0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b
  ])

export const bytesOf = (text: string) => new TextEncoder().encode(text)

export const join = (...parts: ReadonlyArray<Uint8Array>) => concat(parts)

const be32 = (n: number) => Uint8Array.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255])
const le32 = (n: number) => Uint8Array.from([n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255])

/** A PNG chunk with a correct CRC. */
export const pngChunk = (type: string, data: Uint8Array) => {
  const typed = join(bytesOf(type), data)
  return join(be32(data.length), typed, be32(crc32(typed)))
}

/** `png` with `chunk` inserted right after IHDR. */
export const withPngChunk = (png: Uint8Array, chunk: Uint8Array) => join(png.subarray(0, 33), chunk, png.subarray(33))

/** An EXIF APP1 segment (big-endian) with the orientation and a camera model text. */
export const exifSegment = (orientation: number, model: string) => {
  const text = bytesOf(`${model}\0`)
  const ifd = join(
    Uint8Array.from([0, 2]),
    Uint8Array.from([0x01, 0x10, 0, 2]),
    be32(text.length),
    be32(8 + 2 + 24 + 4),
    Uint8Array.from([0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0]),
    be32(0)
  )
  const body = join(bytesOf("Exif\0\0"), Uint8Array.from([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8]), ifd, text)
  return join(Uint8Array.from([0xff, 0xe1, ((body.length + 2) >> 8) & 255, (body.length + 2) & 255]), body)
}

/** A JPEG comment segment. */
export const jpegComment = (text: string) => {
  const body = bytesOf(text)
  return join(Uint8Array.from([0xff, 0xfe, ((body.length + 2) >> 8) & 255, (body.length + 2) & 255]), body)
}

/** `jpeg` with `segment` inserted right after SOI. */
export const withJpegSegment = (jpeg: Uint8Array, segment: Uint8Array) => join(jpeg.subarray(0, 2), segment, jpeg.subarray(2))

/** `webp` with a RIFF chunk appended and the RIFF size and VP8X EXIF flag updated. */
export const withWebpChunk = (webp: Uint8Array, type: string, data: Uint8Array) => {
  const padded = data.length % 2 === 0 ? data : join(data, Uint8Array.of(0))
  const out = join(webp, bytesOf(type), le32(data.length), padded)
  out.set(le32(out.length - 8), 4)
  if (String.fromCharCode(...out.subarray(12, 16)) === "VP8X") out[20] = out[20]! | 0x08
  return out
}

/** A GIF comment extension inserted before the first image. */
export const withGifComment = (gif: Uint8Array, text: string) => {
  const body = bytesOf(text)
  return join(gif.subarray(0, 19), Uint8Array.from([0x21, 0xfe, body.length]), body, Uint8Array.of(0), gif.subarray(19))
}

export const includes = (haystack: Uint8Array, needle: string) => Buffer.from(haystack).includes(needle)

/** A PNG whose header says `width`×`height` RGBA pixels and whose data is `raw`, stored without compression. */
const rgbaPng = (width: number, height: number, raw: Uint8Array) => {
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header.set([8, 6, 0, 0, 0], 8)
  return join(
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", new Uint8Array(deflateSync(raw, { level: 0 }))),
    pngChunk("IEND", new Uint8Array(0))
  )
}

/**
 * A real PNG of `width`×`height` random (incompressible) pixels, stored without compression:
 * the size is about width × height × 4 bytes.
 */
export const noisePng = (width: number, height: number) => {
  const row = width * 4 + 1
  const raw = new Uint8Array(row * height)
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0
    crypto.getRandomValues(raw.subarray(y * row + 1, (y + 1) * row))
  }
  return rgbaPng(width, height, raw)
}

/**
 * A PNG of `width`×`height` pixels stored without compression, its first row starting with
 * `text` (so the bytes appear as they are inside IDAT). With `claimOnly`, the header claims the
 * size but the data is one empty row: what a decompression bomb's header looks like.
 */
export const storedPng = (width: number, height: number, text: Uint8Array, options: { readonly claimOnly?: boolean } = {}) => {
  const row = width * 4 + 1
  const rows = options.claimOnly === true ? 1 : height
  const raw = new Uint8Array(row * rows)
  raw.set(text.subarray(0, row - 1), 1)
  return rgbaPng(width, height, raw)
}

/** The JPEG with its frame header (SOF) claiming `width`×`height`. */
export const withJpegSize = (jpeg: Uint8Array, width: number, height: number) => {
  const copy = Uint8Array.from(jpeg)
  for (let i = 2; i + 9 < copy.length; i++) {
    if (copy[i] === 0xff && copy[i + 1]! >= 0xc0 && copy[i + 1]! <= 0xc3) {
      copy.set([height >> 8, height & 0xff, width >> 8, width & 0xff], i + 5)
      return copy
    }
  }
  throw new Error("no frame header")
}
