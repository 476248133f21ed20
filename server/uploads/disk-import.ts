import { Effect, Schema } from "effect"
import { existsSync, readdirSync, readFileSync, renameSync } from "node:fs"
import { join } from "node:path"
import { UploadType } from "../../contract/uploads.ts"
import { Config } from "../platform/config.ts"
import { inTransaction } from "../platform/database.ts"
import { imageTypes } from "./image.ts"
import { insertUpload } from "./repository.ts"

/** The names the server gave its files: 32 hex digits and the type's extension. */
export const storedName = /^[0-9a-f]{32}\.(jpg|png|gif|webp)$/

export const mimeByExtension: ReadonlyMap<string, string> = new Map(Object.values(imageTypes).map(({ extension, mime }) => [extension, mime]))

/** Where the files of a server from before migration 0013 were kept, and where they go once moved. */
export const diskFolder = (dataDir: string) => join(dataDir, "uploads")
export const movedFolder = (dataDir: string) => join(dataDir, "uploads.moved-to-database")

/**
 * Moves the images an older server kept in `DATA_DIR/uploads/<type>/` into the database, under
 * the same URLs (docs/architecture.md, "Uploads"). Each file is its own transaction and a file
 * already there is skipped, so a start that stops half-way moves the rest next time, and two
 * servers sharing a folder can both run it. Once every file is in, the folder is renamed
 * `uploads.moved-to-database` (nothing reads it again; delete it once satisfied). Files the
 * server did not name itself are left where they are, and said.
 */
/** `read()`, or undefined when the file or folder is gone: another server moved the folder meanwhile. */
const unlessGone = <A>(read: () => A): A | undefined => {
  try {
    return read()
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return undefined
    throw error
  }
}

export const importDiskUploads = Effect.gen(function* () {
  const config = yield* Config
  const folder = diskFolder(config.dataDir)
  const listed = unlessGone(() =>
    readdirSync(folder).flatMap((type) => (Schema.is(UploadType)(type) ? readdirSync(join(folder, type)).map((name) => `${type}/${name}`) : [type]))
  )
  if (listed === undefined) return
  let moved = 0
  const left: Array<string> = []
  for (const path of listed) {
    const name = path.split("/")[1]
    // A dot file is a write the old server never finished, so never answered with a URL.
    if (name?.startsWith(".") === true) continue
    const extension = name === undefined ? undefined : storedName.exec(name)?.[1]
    const mime = extension === undefined ? undefined : mimeByExtension.get(extension)
    if (mime === undefined) {
      left.push(path)
      continue
    }
    const bytes = unlessGone(() => readFileSync(join(folder, path)))
    // Another server sharing this folder moved every file in and set the folder aside.
    if (bytes === undefined) return
    if (yield* inTransaction(insertUpload(path, mime, bytes))) moved += 1
  }
  if (left.length > 0) {
    yield* Effect.logWarning(
      `${folder}: ${left.length} entries are not uploads this server named (${left.slice(0, 5).join(", ")}); the folder is kept as it is.`
    )
    return
  }
  const target = existsSync(movedFolder(config.dataDir)) ? `${movedFolder(config.dataDir)}-${Date.now()}` : movedFolder(config.dataDir)
  const renamed = unlessGone(() => {
    renameSync(folder, target)
    return true
  })
  if (renamed === undefined) return
  yield* Effect.logInfo(`Moved ${moved} uploads from ${folder} into the database; the old folder is now ${target}.`)
})
