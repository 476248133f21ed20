import { Effect } from "effect"
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { DataFolderInUse, liveHolder } from "../platform/data-lock.ts"
import { openPglite } from "../platform/database.ts"
import { embeddedFileCommand, finish } from "./run.ts"

/**
 * `npm run restore -- FILE`: loads a backup made by `npm run backup` into an empty embedded data
 * folder, under the folder's lock, and checks that the result opens and answers
 * (docs/architecture.md, "Backup and restore"). It never writes over a database.
 */
const { path: source, folder } = embeddedFileCommand("restore", (file) => `On PostgreSQL, restore with pg_restore: pg_restore --dbname="$DATABASE_URL" ${file}`)
if (!existsSync(source)) {
  console.error(`There is no file ${source}.`)
  finish(1)
}
const holder = liveHolder(folder)
if (holder !== undefined) {
  console.error(new DataFolderInUse(folder, holder).message)
  finish(1)
}
if (existsSync(folder) && readdirSync(folder).length > 0) {
  console.error(`${folder} is not empty: restore only into an empty data folder (move this one aside first).`)
  finish(1)
}

const bytes = readFileSync(source)
Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      const { db } = yield* openPglite(folder, { loadDataDir: new Blob([bytes], { type: "application/x-gzip" }) })
      const counts = yield* Effect.promise(() =>
        db.query<{ admins: number; addresses: number; posts: number }>(
          "SELECT (SELECT count(*)::int FROM admins) AS admins, (SELECT count(*)::int FROM addresses) AS addresses, (SELECT count(*)::int FROM blog_posts) AS posts"
        )
      )
      return counts.rows[0]!
    })
  )
).then(
  (counts) => {
    console.log(`Restored ${source} into ${folder}: ${counts.admins} admins, ${counts.addresses} addresses, ${counts.posts} posts.`)
    finish(0)
  },
  (error: unknown) => {
    // A file that is not a backup leaves nothing half-restored behind.
    if (!(error instanceof DataFolderInUse)) rmSync(folder, { recursive: true, force: true })
    console.error(
      error instanceof DataFolderInUse
        ? error.message
        : `Could not restore ${source}: it is not a backup made by npm run backup (${error instanceof Error ? error.message : String(error)}).`
    )
    finish(1)
  }
)
