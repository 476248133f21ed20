/**
 * Which bytes of a stored file a download sends (RFC 9110, "Range Requests"): all of them, one
 * range of them, or none when the range asked for lies past the end. Only one range is served;
 * a header asking for several, or one this server cannot read, is answered with the whole file,
 * as the RFC allows a server to do with any Range header.
 */
export type ByteRange =
  | { readonly kind: "whole" }
  /** Bytes `start` to `end`, both included. */
  | { readonly kind: "part"; readonly start: number; readonly end: number }
  | { readonly kind: "unsatisfiable" }

const single = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i

export const byteRange = (header: string | undefined, size: number): ByteRange => {
  const match = header === undefined ? null : single.exec(header)
  if (match === null) return { kind: "whole" }
  const [, first = "", last = ""] = match
  if (first === "" && last === "") return { kind: "whole" }
  if (first === "") {
    // The last N bytes.
    const suffix = Number(last)
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" }
    return { kind: "part", start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return { kind: "unsatisfiable" }
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1)
  // A last position before the first makes the header invalid, which is ignored.
  if (end < start) return { kind: "whole" }
  return { kind: "part", start, end }
}

/** The `Content-Range` of a part sent, or of a range that could not be. */
export const contentRange = (range: ByteRange, size: number) => (range.kind === "part" ? `bytes ${range.start}-${range.end}/${size}` : `bytes */${size}`)
