import { ByteSize, Effect, Layer, Schema, Stream } from "effect"
import { HttpIncomingMessage, HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { randomBytes } from "node:crypto"
import type { SqlClient } from "effect/sql/SqlClient"
import { AdminApi } from "../../contract/api.ts"
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../contract/common.ts"
import { UploadType } from "../../contract/uploads.ts"
import { MAX_IMAGE_BYTES, uploadMessages } from "../../contract/upload-rules.ts"
import { requireEditor } from "../auth/roles.ts"
import { makeAdmission } from "../platform/admission.ts"
import { byteRange, contentRange } from "./byte-range.ts"
import { makeUploadCache, type UploadCache } from "./cache.ts"
import { storedName } from "./disk-import.ts"
import { imageMessages, imageTypes, inspectImage } from "./image.ts"
import { findUpload, storeUpload, type StoredUpload, uploadChunk } from "./repository.ts"

/** The multipart envelope around a 5 MB file is a few hundred bytes; anything far beyond is refused unread. */
const MAX_UPLOAD_BODY = MAX_IMAGE_BYTES + 64 * 1024

const tooLarge = new PayloadTooLarge({ error: uploadMessages.tooLarge })

/** What the headers alone refuse, before the upload waits for its turn. */
const checkHeaders = (request: HttpIncomingMessage.HttpIncomingMessage<unknown>) =>
  Effect.gen(function* () {
    const contentType = request.headers["content-type"] ?? ""
    if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
      return yield* new UnsupportedMediaType({ error: "Send the image as multipart/form-data with the fields image and type" })
    }
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > MAX_UPLOAD_BODY) return yield* tooLarge
  })

/** The request body, read with the upload's own limit instead of the API's 1 MiB. */
const readForm = (request: HttpIncomingMessage.HttpIncomingMessage<unknown>) =>
  Effect.gen(function* () {
    const contentType = request.headers["content-type"] ?? ""
    const body = yield* request.arrayBuffer.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(MAX_UPLOAD_BODY)),
      Effect.catch(() => Effect.fail(tooLarge))
    )
    return yield* Effect.tryPromise({
      try: () => new Response(body, { headers: { "content-type": contentType } }).formData(),
      catch: () => new BadRequest({ error: "The multipart body could not be read" })
    })
  })

/** Reads, checks, cleans and stores one image; answers its URL. */
const store = (request: HttpIncomingMessage.HttpIncomingMessage<unknown>) =>
  Effect.gen(function* () {
    const form = yield* readForm(request)
    const type = Schema.decodeUnknownOption(UploadType)(form.get("type") ?? "blog")
    if (type._tag === "None") return yield* new BadRequest({ error: uploadMessages.badType })
    const file = form.get("image")
    if (file === null || typeof file === "string") return yield* new BadRequest({ error: uploadMessages.missingFile })
    if (file.size > MAX_IMAGE_BYTES) return yield* tooLarge
    const inspection = inspectImage(new Uint8Array(yield* Effect.promise(() => file.arrayBuffer())))
    if (!inspection.ok) {
      const unsupported = inspection.error === imageMessages.notAnImage || inspection.error === imageMessages.svg
      return yield* unsupported ? new UnsupportedMediaType({ error: inspection.error }) : new BadRequest({ error: inspection.error })
    }
    const name = `${randomBytes(16).toString("hex")}.${imageTypes[inspection.kind].extension}`
    const url = `/uploads/${type.value}/${name}`
    yield* storeUpload(`${type.value}/${name}`, imageTypes[inspection.kind].mime, inspection.bytes, {
      action: "upload.image",
      entityId: url,
      fromState: null,
      toState: inspection.kind
    })
    return { success: true as const, url }
  })

/**
 * An upload holds its file several times over while it is read, checked and cleaned (about
 * 20 MB for 5 MB): four at a time and twelve in line bound that to about 80 MB whatever comes
 * in; the rest are told to come back (`makeAdmission`).
 */
const UPLOADS_RUNNING = 4
const UPLOADS_WAITING = 12

export const UploadHandlers = HttpApiBuilder.group(
  AdminApi,
  "uploads",
  Effect.fn(function* (handlers) {
    const admitted = yield* makeAdmission({ running: UPLOADS_RUNNING, waiting: UPLOADS_WAITING, busy: uploadMessages.busy, retryAfterSeconds: 5 })
    return handlers.handleRaw("image", ({ request }) =>
      Effect.gen(function* () {
        yield* requireEditor(uploadMessages.readOnly)
        yield* checkHeaders(request)
        return yield* admitted(store(request))
      })
    )
  })
)

/** A stored file's bytes from `start` to `end` (both included), read a chunk at a time as the client takes them. */
const bytesOf = (upload: StoredUpload, start: number, end: number) =>
  // One chunk of the file at a time (the range in chunks of one number), so a download holds one.
  Stream.range(Math.floor(start / upload.chunkSize), Math.floor(end / upload.chunkSize), 1).pipe(
    Stream.mapEffect(
      (seq) =>
        Effect.map(uploadChunk(upload.path, seq), (chunk) => {
          const offset = seq * upload.chunkSize
          return chunk.subarray(Math.max(0, start - offset), Math.min(chunk.length, end - offset + 1))
        }),
      // The next chunk is read while one is sent (in order): a download holds two at most.
      { concurrency: 2 }
    )
  )

const notFound = HttpServerResponse.text("Not found", { status: 404 })

/**
 * What each server keeps in memory of what it served (cache.ts): every file's facts, and the
 * bytes of files up to 1 MiB, 32 MiB in all, so a page's images come without the database.
 */
const CACHE_LIMITS = { maxBytes: 32 * 1024 * 1024, maxFileBytes: 1024 * 1024, maxEntries: 10_000 }

/** A whole file small enough to keep, read from its chunks. */
const wholeFile = (upload: StoredUpload) =>
  Effect.map(
    Effect.forEach(
      Array.from({ length: Math.ceil(upload.size / upload.chunkSize) }, (_, seq) => seq),
      (seq) => uploadChunk(upload.path, seq)
    ),
    (chunks) => Buffer.concat(chunks)
  )

/**
 * Stored uploads, from the database (docs/architecture.md, "Uploads"): only names the server
 * gave, with their real type, cached for a year, an ETag from their hash (a matching
 * If-None-Match is a 304), and one byte range when asked (206, or 416 past the end). The
 * security headers (nosniff, a sandboxing policy) are the HTTP hygiene's (platform/http.ts).
 */
const serveUpload = (cache: UploadCache) => (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const [, , type = "", name = ""] = (request.url.split("?")[0] ?? "").split("/")
    if (!storedName.test(name) || !Schema.is(UploadType)(type)) return notFound
    const cached = cache.get(`${type}/${name}`)
    const upload = cached?.upload ?? (yield* findUpload(`${type}/${name}`))
    if (upload === undefined) return notFound
    if (cached === undefined) cache.put(upload)
    const etag = `"${upload.sha256}"`
    const headers = { etag, "accept-ranges": "bytes", "cache-control": "public, max-age=31536000, immutable" }
    const known = request.headers["if-none-match"]
    if (known !== undefined && (known.trim() === "*" || known.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))) {
      return HttpServerResponse.empty({ status: 304, headers })
    }
    // A range of an older copy (If-Range naming another ETag) is the whole file instead.
    const ifRange = request.headers["if-range"]
    const range = ifRange === undefined || ifRange.trim() === etag ? byteRange(request.headers.range, upload.size) : ({ kind: "whole" } as const)
    if (range.kind === "unsatisfiable") {
      return HttpServerResponse.text("Range not satisfiable", { status: 416, headers: { ...headers, "content-range": contentRange(range, upload.size) } })
    }
    const [start, end] = range.kind === "part" ? [range.start, range.end] : [0, upload.size - 1]
    const partHeaders = range.kind === "part" ? { ...headers, "content-range": contentRange(range, upload.size) } : headers
    const status = range.kind === "part" ? 206 : 200
    const options = { status, contentType: upload.mime, contentLength: end - start + 1, headers: partHeaders }
    if (request.method === "HEAD" || upload.size === 0) {
      // An empty response names no type or length of its own: a HEAD says the GET's.
      return HttpServerResponse.empty({ status, headers: { ...partHeaders, "content-type": upload.mime, "content-length": String(options.contentLength) } })
    }
    const small = cached?.bytes ?? (upload.size <= CACHE_LIMITS.maxFileBytes ? yield* wholeFile(upload) : undefined)
    if (small !== undefined) {
      if (cached?.bytes === undefined) cache.put(upload, small)
      return HttpServerResponse.uint8Array(small.subarray(start, end + 1), options)
    }
    const context = yield* Effect.context<SqlClient>()
    return HttpServerResponse.stream(bytesOf(upload, start, end).pipe(Stream.provideContext(context)), options)
  })

export const uploadRoutes = Layer.suspend(() => HttpRouter.add("GET", "/uploads/:type/:name", serveUpload(makeUploadCache(CACHE_LIMITS))))
