import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import type { DatabaseTarget } from "../../server/platform/database.ts"

/** A database made for one test file, and how to throw it away. */
export interface TestDatabase {
  readonly target: DatabaseTarget
  readonly drop: () => Promise<void>
}

const adminUrl = process.env.TEST_DATABASE_URL

const onServer = (url: string, statement: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* SqlClient
        yield* sql.unsafe(statement)
      }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
    )
  )

/** A throwaway PostgreSQL database on the server `serverUrl` names, dropped after. */
export const freshPostgresOn = async (serverUrl: string): Promise<TestDatabase> => {
  const adminUrl = serverUrl
  const name = `test_${randomBytes(6).toString("hex")}`
  await onServer(adminUrl, `CREATE DATABASE ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    target: { engine: "postgresql", url: url.toString() },
    drop: () => onServer(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
}

/** Where the test run's image of a new PGlite cluster is (tests/support/global-setup.ts). */
export const PGLITE_IMAGE_ENV = "TEST_PGLITE_IMAGE"

let image: Blob | undefined
/** The image every in-memory database starts from, read once per process; none outside `vitest`. */
const clusterImage = (): Blob | undefined => {
  const file = process.env[PGLITE_IMAGE_ENV]
  if (file === undefined) return undefined
  image ??= new Blob([readFileSync(file)], { type: "application/x-tar" })
  return image
}

/** A new, empty in-memory PGlite database, started from the run's cluster image when there is one. */
const freshPglite = (): Promise<TestDatabase> =>
  Promise.resolve({ target: { engine: "pglite", dataDir: undefined, image: clusterImage() }, drop: () => Promise.resolve() })

/**
 * The engines a database test runs on: PGlite always, PostgreSQL too when
 * `TEST_DATABASE_URL` is set (as in CI).
 */
export const engines: ReadonlyArray<{ readonly name: string; readonly fresh: () => Promise<TestDatabase> }> = [
  { name: "pglite", fresh: freshPglite },
  ...(adminUrl === undefined ? [] : [{ name: "postgresql", fresh: () => freshPostgresOn(adminUrl) }])
]

/**
 * The engines a browser story runs on: the embedded default alone. The API suite runs every SQL
 * path on both engines, and the cluster suite drives Chromium on PostgreSQL (docs/testing.md,
 * "Where the time goes").
 */
export const browserEngines = engines.slice(0, 1)
