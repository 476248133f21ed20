import { Effect } from "effect"
import { createWriteStream, existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { backupThroughServer, hasAdminChannel } from "../platform/admin-channel.ts"
import { DataFolderInUse, liveHolder } from "../platform/data-lock.ts"
import { openPglite } from "../platform/database.ts"
import { embeddedFileCommand, finish } from "./run.ts"

/**
 * `npm run backup -- FILE`: a consistent copy of the embedded database as a gzipped tar, taken
 * by the running server when one holds the folder, else by this process under the folder's lock.
 * Written to FILE.partial and renamed, so FILE is never half a backup
 * (docs/architecture.md, "Backup and restore").
 */
const {
  path: target,
  config,
  folder
} = embeddedFileCommand("backup", (file) => `On PostgreSQL, back up with pg_dump: pg_dump --format=custom --file=${file} "$DATABASE_URL"`)
if (!existsSync(folder) || readdirSync(folder).length === 0) {
  console.error(`Nothing to back up: there is no database in ${folder}.`)
  finish(1)
}

const partial = `${target}.partial`
const done = (how: string) => {
  renameSync(partial, target)
  console.log(`Backed up ${folder} (${how}) to ${target}, ${statSync(target).size.toLocaleString("en")} bytes.`)
  finish(0)
}
const failed = (error: unknown) => {
  rmSync(partial, { force: true })
  console.error(error instanceof Error ? error.message : String(error))
  finish(1)
}

const holder = liveHolder(folder)
if (holder !== undefined) {
  if (!hasAdminChannel(config.dataDir)) failed(new DataFolderInUse(folder, holder))
  else backupThroughServer(config.dataDir, createWriteStream(partial)).then(() => done(`through the running server, pid ${holder.pid}`), failed)
} else {
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const { db } = yield* openPglite(folder)
        yield* Effect.promise(() => db.exec("CHECKPOINT"))
        const blob = yield* Effect.promise(() => db.dumpDataDir("gzip"))
        writeFileSync(partial, Buffer.from(yield* Effect.promise(() => blob.arrayBuffer())))
      })
    )
  ).then(() => done("no server was running"), failed)
}
