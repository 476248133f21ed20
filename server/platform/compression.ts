import { HttpBody, HttpServerResponse } from "effect/http"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"

/** Smaller answers gain less than compressing them costs. */
export const COMPRESS_FROM_BYTES = 1024

/** The encodings a client accepts (`q=0` refuses one). */
export const acceptedEncodings = (header: string | undefined): ReadonlySet<string> =>
  new Set(
    (header ?? "")
      .split(",")
      .map((part) => part.trim().toLowerCase().split(";"))
      .filter(([, quality]) => quality === undefined || !/^\s*q\s*=\s*0(\.0*)?\s*$/.test(quality))
      .map(([name]) => name ?? "")
  )

/**
 * A JSON answer compressed for a client that accepts it: Brotli at a fast quality (a page of a
 * list is compressed on every request, unlike the console's files, which the build compresses
 * once), else gzip. Other answers, and small ones, go as they are.
 */
export const compressJson = (response: HttpServerResponse.HttpServerResponse, accepted: ReadonlySet<string>) => {
  const body = response.body
  if (body._tag !== "Uint8Array" || !body.contentType.includes("json") || body.contentLength < COMPRESS_FROM_BYTES) return response
  const vary = HttpServerResponse.setHeader(response, "vary", "Accept-Encoding")
  const encoding = accepted.has("br") ? "br" : accepted.has("gzip") ? "gzip" : undefined
  if (encoding === undefined) return vary
  const bytes =
    encoding === "br"
      ? brotliCompressSync(body.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.contentLength } })
      : gzipSync(body.body, { level: 6 })
  return HttpServerResponse.setHeader(HttpServerResponse.setBody(vary, HttpBody.uint8Array(bytes, body.contentType)), "content-encoding", encoding)
}
