import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import type { DatabaseTarget } from "../../server/platform/database.ts"

/** A database made for one test file, and how to throw it away. */
export interface TestDatabase {
  readonly target: DatabaseTarget
  readonly drop: () => Promise<void>
}

const adminUrl = process.env.TEST_DATABASE_URL

export const onPostgres = (url: string, statement: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* SqlClient
        yield* sql.unsafe(statement)
      }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
    )
  )

export const dropPostgres = (serverUrl: string, name: string) => onPostgres(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)

/** The images and the template the run's set-up made (tests/support/database-images.ts). */
export const PGLITE_IMAGE_ENV = "TEST_PGLITE_IMAGE"
export const PGLITE_MIGRATED_IMAGE_ENV = "TEST_PGLITE_MIGRATED_IMAGE"
export const POSTGRES_TEMPLATE_ENV = "TEST_POSTGRES_TEMPLATE"

/**
 * A throwaway PostgreSQL database on the server `serverUrl` names, dropped after: a copy of the
 * run's migrated template when there is one (and `migrated` is not false), else empty.
 */
export const freshPostgresOn = async (serverUrl: string, migrated = true): Promise<TestDatabase> => {
  const name = `test_${randomBytes(6).toString("hex")}`
  const template = migrated ? process.env[POSTGRES_TEMPLATE_ENV] : undefined
  await onPostgres(serverUrl, template === undefined ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${template}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { target: { engine: "postgresql", url: url.toString() }, drop: () => dropPostgres(serverUrl, name) }
}

/**
 * A PGlite image as the `Blob` PGlite reads with `arrayBuffer()`, which a Node Blob answers
 * through a stream of chunks joined again (0.15 s of a start): this one hands over a copy of the
 * bytes it holds.
 */
export const heldImage = (bytes: Uint8Array): Blob =>
  Object.assign(new Blob([], { type: "application/x-tar" }), { arrayBuffer: () => Promise.resolve(new Uint8Array(bytes).buffer) })

const images = new Map<string, Blob>()
/** The image named by `variable`, read once per process; none outside `vitest`. */
const clusterImage = (variable: string): Blob | undefined => {
  const file = process.env[variable]
  if (file === undefined) return undefined
  const image = images.get(variable) ?? heldImage(readFileSync(file))
  images.set(variable, image)
  return image
}

/** The tests' `shared_buffers` on PGlite (`DatabaseTarget`'s `sharedBuffers`): a start in half the time. */
const TEST_SHARED_BUFFERS = "16MB"

let compiled: Promise<WebAssembly.Module> | undefined
/** PostgreSQL's WebAssembly compiled once per process: a database then opens in about 1.1 s, not 1.5. */
const compiledPostgres = () => (compiled ??= WebAssembly.compile(readFileSync(createRequire(import.meta.url).resolve("@electric-sql/pglite/pglite.wasm"))))

/**
 * A new in-memory PGlite database, started from one of the run's cluster images when there is
 * one: `migrated`, today's migrations already run (as PostgreSQL's template), or none run.
 */
const freshPglite = async (migrated: boolean): Promise<TestDatabase> => ({
  target: {
    engine: "pglite",
    dataDir: undefined,
    image: clusterImage(migrated ? PGLITE_MIGRATED_IMAGE_ENV : PGLITE_IMAGE_ENV),
    compiled: await compiledPostgres(),
    sharedBuffers: TEST_SHARED_BUFFERS
  },
  drop: () => Promise.resolve()
})

export interface TestEngine {
  readonly name: string
  /** A new database, on PostgreSQL with today's migrations run (where the run made a template). */
  readonly fresh: () => Promise<TestDatabase>
  /** A new database no migration has touched. */
  readonly empty: () => Promise<TestDatabase>
}

/**
 * The engines a database test runs on: PGlite always, PostgreSQL too when
 * `TEST_DATABASE_URL` is set (as in CI).
 */
export const engines: ReadonlyArray<TestEngine> = [
  { name: "pglite", fresh: () => freshPglite(true), empty: () => freshPglite(false) },
  ...(adminUrl === undefined ? [] : [{ name: "postgresql", fresh: () => freshPostgresOn(adminUrl), empty: () => freshPostgresOn(adminUrl, false) }])
]

/**
 * The engines a browser story runs on: one, PostgreSQL where the run has it, else the embedded
 * PGlite. The API suite runs every SQL path on both engines; a browser story is about the screens,
 * and on PostgreSQL the database's work leaves the test's own process, which also runs the server
 * and drives Chromium: the same browser files took 16 % less of the machine's CPU
 * (docs/testing.md, "Where the time goes"). `tests/e2e/console.test.ts` runs on PGlite, as
 * `npm start` does.
 */
export const browserEngines = engines.slice(-1)
