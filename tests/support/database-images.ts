import { Effect, Layer } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createPglite, databaseLayer } from "../../server/platform/database.ts"
import { migrate } from "../../server/platform/migrations.ts"
import { dropPostgres, onPostgres, PGLITE_IMAGE_ENV, POSTGRES_TEMPLATE_ENV } from "./database.ts"

/**
 * What every test database of a run starts from (docs/testing.md, "How the suite runs"), made
 * once before any test file by the suite's set-up (and once for all runs by `npm run
 * test:repeat`): an image of a new PGlite cluster (creating one takes 4-5 s, loading the image
 * about 1), and on PostgreSQL a template database the server's own migrations have run on (a
 * server then starts on a copy in about 0.25 s where migrating took 0.7). Returns the environment
 * naming them and how to remove them.
 */
export const makeDatabaseImages = async (postgresUrl = process.env.TEST_DATABASE_URL) => {
  const folder = mkdtempSync(join(tmpdir(), "pglite-image-"))
  const image = join(folder, "cluster.tar")
  const cluster = await createPglite("memory://")
  writeFileSync(image, Buffer.from(await (await cluster.dumpDataDir("none")).arrayBuffer()))
  await cluster.close()
  const env: Record<string, string> = { [PGLITE_IMAGE_ENV]: image }
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
      rmSync(folder, { recursive: true, force: true })
      if (postgresUrl !== undefined && template !== undefined) await dropPostgres(postgresUrl, template)
    }
  }
}
