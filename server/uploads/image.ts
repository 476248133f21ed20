import { crc32 } from "node:zlib"

/**
 * Reads an uploaded image by its bytes, never its name or declared type, and writes it back
 * without metadata. Accepted: JPEG, PNG, GIF and WebP whose structure parses from the first
 * byte to the end marker; whatever follows the end marker (a phone's gain map or motion video,
 * or a polyglot's payload) is cut off. Refused: SVG, anything else, damaged files, pictures
 * over 40 megapixels (decompression bombs), and markup or script in a metadata or text segment.
 * The compressed picture data is never scanned for text: by chance, `<svg` appears in about one
 * 5 MB photo in a hundred. `nosniff`, the exact content type and the sandboxing CSP the
 * uploads are served with keep any image from acting as a page (docs/security.md).
 */

export type ImageKind = "jpeg" | "png" | "gif" | "webp"

export const imageTypes: Record<ImageKind, { readonly extension: string; readonly mime: string }> = {
  jpeg: { extension: "jpg", mime: "image/jpeg" },
  png: { extension: "png", mime: "image/png" },
  gif: { extension: "gif", mime: "image/gif" },
  webp: { extension: "webp", mime: "image/webp" }
}

/** Pixels at most (width × height), read from the header before anything is decoded. */
export const MAX_PIXELS = 40_000_000

export const imageMessages = {
  notAnImage: "Only JPEG, PNG, GIF and WebP images are accepted",
  svg: "SVG images are not accepted: use JPEG, PNG, GIF or WebP",
  damaged: "The image file is damaged or incomplete",
  foreignData: "The image contains data that is not part of the picture",
  tooManyPixels: `The image is too large: at most ${MAX_PIXELS / 1_000_000} megapixels`
} as const

export type Inspection = { readonly ok: true; readonly kind: ImageKind; readonly bytes: Uint8Array } | { readonly ok: false; readonly error: string }

class Refusal extends Error {}
const refuse = (message: string): never => {
  throw new Refusal(message)
}

const ascii = (bytes: Uint8Array, from: number, length: number) => String.fromCharCode(...bytes.subarray(from, Math.min(bytes.length, from + length)))

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>) => signature.every((byte, index) => bytes[index] === byte)

/** Markup or script in a metadata segment makes the file a polyglot: it would act as a page if sniffed. */
const markup = /<\s*(?:script|html|body|svg|iframe|object|embed|\?php|!doctype)|javascript:/i

/** What a cleaner read: the clean file, every metadata segment (kept or dropped) and the picture's size. */
interface Cleaned {
  readonly bytes: Uint8Array
  readonly metadata: ReadonlyArray<Uint8Array>
  readonly width: number
  readonly height: number
}

const kindOf = (bytes: Uint8Array): ImageKind | "svg" | undefined => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg"
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png"
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return "gif"
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return "webp"
  const head = new TextDecoder("utf-8", { fatal: false })
    .decode(bytes.subarray(0, 1024))
    .replace(/^\uFEFF/, "")
    .trimStart()
  if (/^(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!doctype\s+svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return "svg"
  return undefined
}

/** The parts, one after another, in one array. */
export const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

const need = (bytes: Uint8Array, end: number) => {
  if (end > bytes.length) refuse(imageMessages.damaged)
}

// ---------------------------------------------------------------------------
// JPEG: keep the picture (frame, tables, scans), JFIF, the Adobe colour marker and the ICC
// profile; drop comments and every other application segment (EXIF, XMP, IPTC, maker notes),
// keeping only the EXIF orientation so phone photos stay upright.
// ---------------------------------------------------------------------------

const readOrientation = (segment: Uint8Array): number | undefined => {
  // segment = "Exif\0\0" + TIFF
  if (ascii(segment, 0, 6) !== "Exif\0\0") return undefined
  const tiff = segment.subarray(6)
  if (tiff.length < 8) return undefined
  const little = ascii(tiff, 0, 2) === "II"
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength)
  const u16 = (at: number) => view.getUint16(at, little)
  const u32 = (at: number) => view.getUint32(at, little)
  const ifd = u32(4)
  if (ifd + 2 > tiff.length) return undefined
  const count = u16(ifd)
  for (let entry = 0; entry < count; entry++) {
    const at = ifd + 2 + entry * 12
    if (at + 12 > tiff.length) return undefined
    if (u16(at) === 0x0112) {
      const value = u16(at + 8)
      return value >= 1 && value <= 8 ? value : undefined
    }
  }
  return undefined
}

/** A minimal EXIF segment holding only the orientation tag. */
const orientationSegment = (orientation: number): Uint8Array => {
  const body = new Uint8Array(6 + 8 + 2 + 12 + 4)
  body.set([0x45, 0x78, 0x69, 0x66, 0, 0], 0) // Exif\0\0
  body.set([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8], 6) // big-endian TIFF, IFD0 at 8
  body.set([0, 1], 14) // one entry
  body.set([0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0, orientation, 0, 0], 16) // orientation, SHORT, 1
  const length = body.length + 2
  return concat([new Uint8Array([0xff, 0xe1, length >> 8, length & 0xff]), body])
}

const cleanJpeg = (bytes: Uint8Array): Cleaned => {
  const parts: Array<Uint8Array> = [bytes.subarray(0, 2)]
  const metadata: Array<Uint8Array> = []
  let orientation: number | undefined
  let frame = false
  let width = 0
  let height = 0
  let position = 2
  for (;;) {
    need(bytes, position + 2)
    if (bytes[position] !== 0xff) refuse(imageMessages.damaged)
    const marker = bytes[position + 1]!
    if (marker === 0xff) {
      position++ // fill byte
      continue
    }
    if (marker === 0xd9) {
      if (!frame) refuse(imageMessages.damaged)
      parts.push(bytes.subarray(position, position + 2))
      break // what follows the end marker is not part of this picture
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) refuse(imageMessages.damaged)
    need(bytes, position + 4)
    const length = (bytes[position + 2]! << 8) | bytes[position + 3]!
    if (length < 2) refuse(imageMessages.damaged)
    const end = position + 2 + length
    need(bytes, end)
    const segment = bytes.subarray(position, end)
    const payload = bytes.subarray(position + 4, end)
    const isApp = marker >= 0xe0 && marker <= 0xef
    if (marker === 0xfe || isApp) metadata.push(payload)
    if (marker === 0xfe) {
      // comment: dropped
    } else if (isApp) {
      if (marker === 0xe0 && ascii(payload, 0, 5) === "JFIF\0") parts.push(segment)
      else if (marker === 0xe2 && ascii(payload, 0, 12) === "ICC_PROFILE\0") parts.push(segment)
      else if (marker === 0xee && ascii(payload, 0, 5) === "Adobe") parts.push(segment)
      else if (marker === 0xe1 && orientation === undefined) orientation = readOrientation(payload)
    } else {
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        frame = true
        need(bytes, position + 9)
        height = (bytes[position + 5]! << 8) | bytes[position + 6]!
        width = (bytes[position + 7]! << 8) | bytes[position + 8]!
      }
      parts.push(segment)
    }
    position = end
    if (marker === 0xda) {
      if (!frame) refuse(imageMessages.damaged)
      // Entropy-coded data runs to the next marker that is not a stuffed zero or a restart.
      const start = position
      for (;;) {
        need(bytes, position + 2)
        if (bytes[position] === 0xff) {
          const next = bytes[position + 1]!
          if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) break
        }
        position++
      }
      parts.push(bytes.subarray(start, position))
    }
  }
  if (orientation !== undefined && orientation !== 1) {
    // After SOI and JFIF, where readers look for it.
    const jfifAt = parts[1] !== undefined && parts[1][1] === 0xe0 ? 2 : 1
    parts.splice(jfifAt, 0, orientationSegment(orientation))
  }
  return { bytes: concat(parts), metadata, width, height }
}

// ---------------------------------------------------------------------------
// PNG: every chunk's CRC checked; IHDR first, IEND last; picture and colour chunks kept, text,
// EXIF, time and unknown ancillary chunks dropped; an unknown critical chunk is refused.
// ---------------------------------------------------------------------------

const pngKeep = new Set(["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "pHYs", "bKGD", "acTL", "fcTL", "fdAT"])

const pngPicture = new Set(["IDAT", "fdAT"])

const cleanPng = (bytes: Uint8Array): Cleaned => {
  const parts: Array<Uint8Array> = [bytes.subarray(0, 8)]
  const metadata: Array<Uint8Array> = []
  let width = 0
  let height = 0
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let position = 8
  let first = true
  let sawData = false
  for (;;) {
    need(bytes, position + 12)
    const length = view.getUint32(position)
    const type = ascii(bytes, position + 4, 4)
    const end = position + 12 + length
    need(bytes, end)
    if (!/^[A-Za-z]{4}$/.test(type)) refuse(imageMessages.damaged)
    const crc = view.getUint32(end - 4)
    if (crc32(bytes.subarray(position + 4, end - 4)) !== crc) refuse(imageMessages.damaged)
    if (first && type !== "IHDR") refuse(imageMessages.damaged)
    if (first) {
      need(bytes, position + 16)
      width = view.getUint32(position + 8)
      height = view.getUint32(position + 12)
    }
    first = false
    if (!pngPicture.has(type)) metadata.push(bytes.subarray(position + 8, end - 4))
    if (type === "IDAT") sawData = true
    if (pngKeep.has(type)) parts.push(bytes.subarray(position, end))
    else if (type[0] === type[0]!.toUpperCase()) refuse(imageMessages.damaged)
    position = end
    if (type === "IEND") {
      if (!sawData) refuse(imageMessages.damaged)
      break // what follows IEND is not part of this picture
    }
  }
  return { bytes: concat(parts), metadata, width, height }
}

// ---------------------------------------------------------------------------
// GIF: header, screen, colour tables, images and the control/loop extensions kept; comments and
// other application extensions (XMP) dropped; the trailer must end the file.
// ---------------------------------------------------------------------------

/** Data sub-blocks from `position`; returns the index after the terminating zero block. */
const skipSubBlocks = (bytes: Uint8Array, position: number): number => {
  let at = position
  for (;;) {
    need(bytes, at + 1)
    const size = bytes[at]!
    at += 1 + size
    if (size === 0) return at
  }
}

const cleanGif = (bytes: Uint8Array): Cleaned => {
  need(bytes, 13)
  const width = bytes[6]! | (bytes[7]! << 8)
  const height = bytes[8]! | (bytes[9]! << 8)
  const metadata: Array<Uint8Array> = []
  const flags = bytes[10]!
  let position = 13 + ((flags & 0x80) !== 0 ? 3 * 2 ** ((flags & 0x07) + 1) : 0)
  need(bytes, position)
  const parts: Array<Uint8Array> = [bytes.subarray(0, position)]
  let images = 0
  for (;;) {
    need(bytes, position + 1)
    const introducer = bytes[position]!
    if (introducer === 0x3b) {
      if (images === 0) refuse(imageMessages.damaged)
      parts.push(bytes.subarray(position, position + 1))
      break // what follows the trailer is not part of this picture
    }
    if (introducer === 0x2c) {
      need(bytes, position + 10)
      const local = bytes[position + 9]!
      let at = position + 10 + ((local & 0x80) !== 0 ? 3 * 2 ** ((local & 0x07) + 1) : 0)
      need(bytes, at + 1)
      at = skipSubBlocks(bytes, at + 1) // after the LZW minimum code size
      parts.push(bytes.subarray(position, at))
      position = at
      images++
      continue
    }
    if (introducer === 0x21) {
      need(bytes, position + 2)
      const label = bytes[position + 1]!
      const end = skipSubBlocks(bytes, position + 2)
      const identifier = ascii(bytes, position + 3, 11)
      if (label !== 0xf9) metadata.push(bytes.subarray(position + 2, end))
      const keep = label === 0xf9 || label === 0x01 || (label === 0xff && (identifier === "NETSCAPE2.0" || identifier === "ANIMEXTS1.0"))
      if (keep) parts.push(bytes.subarray(position, end))
      position = end
      continue
    }
    refuse(imageMessages.damaged)
  }
  return { bytes: concat(parts), metadata, width, height }
}

// ---------------------------------------------------------------------------
// WebP: RIFF chunks; the picture, animation, alpha and ICC chunks kept, EXIF and XMP dropped
// (and their VP8X flags cleared); the RIFF size must match the file.
// ---------------------------------------------------------------------------

const webpKeep = new Set(["VP8 ", "VP8L", "VP8X", "ALPH", "ANIM", "ANMF", "ICCP"])

const webpPicture = new Set(["VP8 ", "VP8L", "ALPH", "ANMF"])

/** The canvas from VP8X, or the frame's own size from a VP8 or VP8L bitstream. */
const webpSize = (type: string, data: Uint8Array): readonly [number, number] | undefined => {
  if (type === "VP8X" && data.length >= 10) {
    return [1 + (data[4]! | (data[5]! << 8) | (data[6]! << 16)), 1 + (data[7]! | (data[8]! << 8) | (data[9]! << 16))]
  }
  if (type === "VP8 " && data.length >= 10 && data[3] === 0x9d && data[4] === 0x01 && data[5] === 0x2a) {
    return [(data[6]! | (data[7]! << 8)) & 0x3fff, (data[8]! | (data[9]! << 8)) & 0x3fff]
  }
  if (type === "VP8L" && data.length >= 5 && data[0] === 0x2f) {
    const bits = data[1]! | (data[2]! << 8) | (data[3]! << 16) | (data[4]! << 24)
    return [1 + (bits & 0x3fff), 1 + ((bits >>> 14) & 0x3fff)]
  }
  return undefined
}

const cleanWebp = (bytes: Uint8Array): Cleaned => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  need(bytes, 12)
  const riffEnd = 8 + view.getUint32(4, true)
  need(bytes, riffEnd) // what follows the RIFF chunk is not part of this picture
  const chunks: Array<Uint8Array> = []
  const metadata: Array<Uint8Array> = []
  let canvas: readonly [number, number] | undefined
  let position = 12
  let picture = false
  while (position < riffEnd) {
    need(bytes, position + 8)
    const type = ascii(bytes, position, 4)
    const size = view.getUint32(position + 4, true)
    const end = position + 8 + size + (size % 2)
    if (end > riffEnd) refuse(imageMessages.damaged)
    if (type === "VP8 " || type === "VP8L" || type === "ANMF") picture = true
    const data = bytes.subarray(position + 8, Math.min(end, position + 8 + size))
    if (!webpPicture.has(type)) metadata.push(data)
    canvas ??= webpSize(type, data)
    if (webpKeep.has(type)) {
      const chunk = bytes.slice(position, end)
      if (type === "VP8X" && chunk.length > 8) chunk[8] = chunk[8]! & ~0x0c // no EXIF, no XMP
      chunks.push(chunk)
    }
    position = end
  }
  if (!picture) refuse(imageMessages.damaged)
  const body = concat(chunks)
  const header = new Uint8Array(12)
  header.set(bytes.subarray(0, 4), 0)
  new DataView(header.buffer).setUint32(4, body.length + 4, true)
  header.set(bytes.subarray(8, 12), 8)
  return { bytes: concat([header, body]), metadata, width: canvas?.[0] ?? 0, height: canvas?.[1] ?? 0 }
}

const cleaners: Record<ImageKind, (bytes: Uint8Array) => Cleaned> = {
  jpeg: cleanJpeg,
  png: cleanPng,
  gif: cleanGif,
  webp: cleanWebp
}

export const inspectImage = (bytes: Uint8Array): Inspection => {
  const kind = kindOf(bytes)
  if (kind === "svg") return { ok: false, error: imageMessages.svg }
  if (kind === undefined) return { ok: false, error: imageMessages.notAnImage }
  try {
    const cleaned = cleaners[kind](bytes)
    if (cleaned.width === 0 || cleaned.height === 0) return { ok: false, error: imageMessages.damaged }
    if (cleaned.width * cleaned.height > MAX_PIXELS) return { ok: false, error: imageMessages.tooManyPixels }
    const latin1 = new TextDecoder("latin1")
    if (cleaned.metadata.some((segment) => markup.test(latin1.decode(segment)))) return { ok: false, error: imageMessages.foreignData }
    return { ok: true, kind, bytes: cleaned.bytes }
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.message }
    if (error instanceof RangeError) return { ok: false, error: imageMessages.damaged }
    throw error
  }
}
