import { crc32 } from "node:zlib"

/**
 * Reads an uploaded image by its bytes, never its name or declared type, and writes it back
 * without metadata. Accepted: JPEG, PNG, GIF and WebP whose structure parses from the first
 * byte to the last. Refused: SVG, anything else, damaged files and files carrying data that is
 * not part of the picture (markup, scripts, bytes after the end marker: the usual polyglots).
 */

export type ImageKind = "jpeg" | "png" | "gif" | "webp"

export const imageTypes: Record<ImageKind, { readonly extension: string; readonly mime: string }> = {
  jpeg: { extension: "jpg", mime: "image/jpeg" },
  png: { extension: "png", mime: "image/png" },
  gif: { extension: "gif", mime: "image/gif" },
  webp: { extension: "webp", mime: "image/webp" }
}

export const imageMessages = {
  notAnImage: "Only JPEG, PNG, GIF and WebP images are accepted",
  svg: "SVG images are not accepted: use JPEG, PNG, GIF or WebP",
  damaged: "The image file is damaged or incomplete",
  foreignData: "The image contains data that is not part of the picture"
} as const

export type Inspection =
  | { readonly ok: true; readonly kind: ImageKind; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly error: string }

class Refusal extends Error {}
const refuse = (message: string): never => {
  throw new Refusal(message)
}

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, Math.min(bytes.length, from + length)))

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>) =>
  signature.every((byte, index) => bytes[index] === byte)

/** Markup or script anywhere in the file makes it a polyglot: it would act as a page if sniffed. */
const markup = /<\s*(?:script|html|body|svg|iframe|object|embed|\?php|!doctype)|javascript:/i

const kindOf = (bytes: Uint8Array): ImageKind | "svg" | undefined => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg"
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png"
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return "gif"
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return "webp"
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 1024)).replace(/^\uFEFF/, "").trimStart()
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

/** Bytes after the end marker: zero padding is dropped, anything else is foreign data. */
const checkTrailer = (bytes: Uint8Array, from: number) => {
  for (let index = from; index < bytes.length; index++) {
    if (bytes[index] !== 0) refuse(imageMessages.foreignData)
  }
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

const cleanJpeg = (bytes: Uint8Array): Uint8Array => {
  const parts: Array<Uint8Array> = [bytes.subarray(0, 2)]
  let orientation: number | undefined
  let frame = false
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
      checkTrailer(bytes, position + 2)
      break
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
    if (marker === 0xfe) {
      // comment: dropped
    } else if (isApp) {
      if (marker === 0xe0 && ascii(payload, 0, 5) === "JFIF\0") parts.push(segment)
      else if (marker === 0xe2 && ascii(payload, 0, 12) === "ICC_PROFILE\0") parts.push(segment)
      else if (marker === 0xee && ascii(payload, 0, 5) === "Adobe") parts.push(segment)
      else if (marker === 0xe1 && orientation === undefined) orientation = readOrientation(payload)
    } else {
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) frame = true
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
  return concat(parts)
}

// ---------------------------------------------------------------------------
// PNG: every chunk's CRC checked; IHDR first, IEND last; picture and colour chunks kept, text,
// EXIF, time and unknown ancillary chunks dropped; an unknown critical chunk is refused.
// ---------------------------------------------------------------------------

const pngKeep = new Set(["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "pHYs", "bKGD", "acTL", "fcTL", "fdAT"])

const cleanPng = (bytes: Uint8Array): Uint8Array => {
  const parts: Array<Uint8Array> = [bytes.subarray(0, 8)]
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
    first = false
    if (type === "IDAT") sawData = true
    if (pngKeep.has(type)) parts.push(bytes.subarray(position, end))
    else if (type[0] === type[0]!.toUpperCase()) refuse(imageMessages.damaged)
    position = end
    if (type === "IEND") {
      if (!sawData) refuse(imageMessages.damaged)
      checkTrailer(bytes, position)
      break
    }
  }
  return concat(parts)
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

const cleanGif = (bytes: Uint8Array): Uint8Array => {
  need(bytes, 13)
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
      checkTrailer(bytes, position + 1)
      break
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
      const keep = label === 0xf9 || label === 0x01 ||
        (label === 0xff && (identifier === "NETSCAPE2.0" || identifier === "ANIMEXTS1.0"))
      if (keep) parts.push(bytes.subarray(position, end))
      position = end
      continue
    }
    refuse(imageMessages.damaged)
  }
  return concat(parts)
}

// ---------------------------------------------------------------------------
// WebP: RIFF chunks; the picture, animation, alpha and ICC chunks kept, EXIF and XMP dropped
// (and their VP8X flags cleared); the RIFF size must match the file.
// ---------------------------------------------------------------------------

const webpKeep = new Set(["VP8 ", "VP8L", "VP8X", "ALPH", "ANIM", "ANMF", "ICCP"])

const cleanWebp = (bytes: Uint8Array): Uint8Array => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  need(bytes, 12)
  const riffEnd = 8 + view.getUint32(4, true)
  need(bytes, riffEnd)
  checkTrailer(bytes, riffEnd)
  const chunks: Array<Uint8Array> = []
  let position = 12
  let picture = false
  while (position < riffEnd) {
    need(bytes, position + 8)
    const type = ascii(bytes, position, 4)
    const size = view.getUint32(position + 4, true)
    const end = position + 8 + size + (size % 2)
    if (end > riffEnd) refuse(imageMessages.damaged)
    if (type === "VP8 " || type === "VP8L" || type === "ANMF") picture = true
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
  return concat([header, body])
}

const cleaners: Record<ImageKind, (bytes: Uint8Array) => Uint8Array> = {
  jpeg: cleanJpeg,
  png: cleanPng,
  gif: cleanGif,
  webp: cleanWebp
}

export const inspectImage = (bytes: Uint8Array): Inspection => {
  const kind = kindOf(bytes)
  if (kind === "svg") return { ok: false, error: imageMessages.svg }
  if (kind === undefined) return { ok: false, error: imageMessages.notAnImage }
  if (markup.test(new TextDecoder("latin1").decode(bytes))) return { ok: false, error: imageMessages.foreignData }
  try {
    return { ok: true, kind, bytes: cleaners[kind](bytes) }
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.message }
    if (error instanceof RangeError) return { ok: false, error: imageMessages.damaged }
    throw error
  }
}
