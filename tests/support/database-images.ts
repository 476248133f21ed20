import { Context, Effect, Layer } from "effect"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { gunzipSync } from "node:zlib"
import { createPglite, Database, databaseLayer } from "../../server/platform/database.ts"
import { migrate } from "../../server/platform/migrations.ts"
import { dropPostgres, heldImage, onPostgres, PGLITE_IMAGE_ENV, PGLITE_MIGRATED_IMAGE_ENV, POSTGRES_TEMPLATE_ENV } from "./database.ts"
import { root } from "./process.ts"

/**
 * Where the PGlite images are kept between runs, named by what makes them: PGlite's version, the
 * migrations, how a database is opened and this file. Making them takes about 7 s before any
 * test; a run whose key is kept starts at once.
 */
const imageFolder = () => {
  const key = createHash("sha256")
  for (const file of [
    "node_modules/@electric-sql/pglite/package.json",
    "server/platform/migrations.ts",
    "server/platform/database.ts",
    "tests/support/database-images.ts"
  ])
    key.update(readFileSync(join(root, file)))
  return join(root, "node_modules/.cache/test-images", key.digest("hex").slice(0, 16))
}

/** Makes the two PGlite images into `folder`, written beside it first so a run beside this one never reads half of one. */
const makePgliteImages = async (folder: string) => {
  const cluster = await createPglite("memory://")
  const bare = Buffer.from(await (await cluster.dumpDataDir("none")).arrayBuffer())
  await cluster.close()
  const migrated = await Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(Layer.build(databaseLayer({ engine: "pglite", dataDir: undefined, image: heldImage(bare) })), (context) =>
        Effect.provideContext(
          Effect.andThen(migrate, () => Effect.promise(() => Context.get(context, Database).dump!().then((dump) => dump.arrayBuffer()))),
          context
        )
      )
    )
  )
  const making = `${folder}.${process.pid}`
  mkdirSync(making, { recursive: true })
  writeFileSync(join(making, "cluster.tar"), bare)
  writeFileSync(join(making, "migrated.tar"), gunzipSync(Buffer.from(migrated)))
  rmSync(folder, { recursive: true, force: true })
  renameSync(making, folder)
  // Images of older migrations go, once no run of the last hour can still be reading them.
  const kept = dirname(folder)
  for (const other of readdirSync(kept)) {
    const path = join(kept, other)
    if (path !== folder && statSync(path).mtimeMs < Date.now() - 3_600_000) rmSync(path, { recursive: true, force: true })
  }
}

/**
 * What every test database of a run starts from (docs/testing.md, "How the suite runs"), made
 * once before any test file by the suite's set-up (and once for all runs by `npm run
 * test:repeat`): an image of a new PGlite cluster (creating one takes 4-5 s, loading the image
 * about 0.4) and one the server's migrations have run on (a server starts on it in about 0.4 s
 * where migrating took 0.3 more), kept between runs (`imageFolder`), and on PostgreSQL a template
 * database the migrations have run on (a server then starts on a copy in about 0.25 s where
 * migrating took 0.7). Returns the environment naming them and how to remove what is the run's own.
 */
export const makeDatabaseImages = async (postgresUrl = process.env.TEST_DATABASE_URL) => {
  const folder = imageFolder()
  if (!existsSync(join(folder, "migrated.tar"))) await makePgliteImages(folder)
  const env: Record<string, string> = { [PGLITE_IMAGE_ENV]: join(folder, "cluster.tar"), [PGLITE_MIGRATED_IMAGE_ENV]: join(folder, "migrated.tar") }
  let template: string | undefined
  if (postgresUrl !== undefined) {
    template = `test_template_${process.pid}`
    await onPostgres(postgresUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`)
    await onPostgres(postgresUrl, `CREATE DATABASE ${template}`)
    const url = new URL(postgresUrl)
    url.pathname = `/${template}`
    await Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(Layer.build(databaseLayer({ engine: "postgresql", url: url.toString() })), (context) => Effect.provideContext(migrate, context))
      )
    )
    env[POSTGRES_TEMPLATE_ENV] = template
  }
  return {
    env,
    remove: async () => {
      if (postgresUrl !== undefined && template !== undefined) await dropPostgres(postgresUrl, template)
    }
  }
}
