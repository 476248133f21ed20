import { ByteSize, Effect, Schema } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { randomBytes } from "node:crypto"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { AdminApi } from "../../contract/api.ts"
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../contract/common.ts"
import { UploadType } from "../../contract/upload.ts"
import { MAX_IMAGE_BYTES, uploadMessages } from "../../contract/upload-rules.ts"
import { requireEditor } from "../auth/roles.ts"
import { recordAdminActivity } from "../platform/activity-log.ts"
import { Config } from "../platform/config.ts"
import { makeAdmission } from "../platform/admission.ts"
import { inTransaction } from "../platform/database.ts"
import { imageMessages, imageTypes, inspectImage } from "./image.ts"

/** The multipart envelope around a 5 MB file is a few hundred bytes; anything far beyond is refused unread. */
const MAX_UPLOAD_BODY = MAX_IMAGE_BYTES + 64 * 1024

const tooLarge = new PayloadTooLarge({ error: uploadMessages.tooLarge })

const uploadsDir = Effect.map(Config, (config) => join(config.dataDir, "uploads"))

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
    const folder = join(yield* uploadsDir, type.value)
    const name = `${randomBytes(16).toString("hex")}.${imageTypes[inspection.kind].extension}`
    yield* Effect.promise(async () => {
      await mkdir(folder, { recursive: true })
      const partial = join(folder, `.${name}.partial`)
      await writeFile(partial, inspection.bytes)
      await rename(partial, join(folder, name))
    })
    const url = `/uploads/${type.value}/${name}`
    yield* recordAdminActivity({ action: "upload.image", entityId: url, fromState: null, toState: inspection.kind }).pipe(inTransaction, Effect.orDie)
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
  "upload",
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

const mimeByExtension = new Map(Object.values(imageTypes).map(({ extension, mime }) => [extension, mime]))
const storedName = /^[0-9a-f]{32}\.(jpg|png|gif|webp)$/

/** Stored uploads: only names the server gave, with their real type, cached for a year. */
export const uploadRoutes = HttpRouter.add("GET", "/uploads/:type/:name", (request) =>
  Effect.gen(function* () {
    const [, , type = "", name = ""] = (request.url.split("?")[0] ?? "").split("/")
    const extension = storedName.exec(name)?.[1]
    if (extension === undefined || !Schema.is(UploadType)(type)) return HttpServerResponse.text("Not found", { status: 404 })
    const dir = yield* uploadsDir
    const bytes = yield* Effect.tryPromise(() => readFile(join(dir, type, name)))
    return HttpServerResponse.uint8Array(bytes, {
      contentType: mimeByExtension.get(extension)!,
      headers: { "cache-control": "public, max-age=31536000, immutable" }
    })
  }).pipe(Effect.catch(() => Effect.succeed(HttpServerResponse.text("Not found", { status: 404 }))))
)
