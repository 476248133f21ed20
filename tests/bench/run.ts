/**
 * `npm run bench`: figures, not pass/fail. Starts the real server as its own process on each
 * engine (PGlite always; PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, or the
 * local default answers) and loads it from this process with autocannon.
 */
import autocannon from "autocannon"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type TestDatabase, freshPostgresOn } from "../support/database.ts"
import { call } from "../support/http.ts"
import { runScript } from "../support/process.ts"
import { readOutbox } from "../support/server.ts"
import { measureConsole } from "./console.ts"

const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

interface Figures {
  readonly engine: string
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
}

const signIn = async (url: string, dataDir: string) => {
  await call(url, "POST", "/api/admin/auth", { body: { email: "admin@example.com", role: "super_admin" } })
  const code = readOutbox(dataDir).at(-1)?.subject.match(/(\d{6})/)?.[1] ?? ""
  const answer = await call(url, "POST", "/api/admin/auth", { body: { email: "admin@example.com", otp: code } })
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.text}`)
  return answer.body.token as string
}

const measure = async (engine: string, env: Record<string, string>): Promise<Figures> => {
  const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-"))
  const server = runScript("server/main.ts", [], { DATA_DIR: dataDir, PORT: "0", ...env })
  try {
    const [, url] = await server.waitFor(/Listening on (http:\/\/\S+)/, 60_000)
    const token = await signIn(url!, dataDir)
    const result = await autocannon({
      url: `${url}/api/admin/auth/check`,
      connections: 10,
      duration: 10,
      headers: { authorization: `Bearer ${token}` }
    })
    return {
      engine,
      requestsPerSecond: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx
    }
  } finally {
    server.child.kill("SIGTERM")
    await server.exited
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const figures: Array<Figures> = [await measure("pglite", {})]
let postgres: TestDatabase | undefined
try {
  postgres = await freshPostgresOn(postgresUrl)
} catch (error) {
  console.log(`PostgreSQL at ${postgresUrl} not reachable, skipped: ${String(error)}`)
}
if (postgres !== undefined && postgres.target.engine === "postgresql") {
  try {
    figures.push(await measure("postgresql", { DATABASE_URL: postgres.target.url }))
  } finally {
    await postgres.drop()
  }
}

console.log("\nGET /api/admin/auth/check, autocannon, 10 connections, 10 s")
console.table(figures.map((f) => ({
  engine: f.engine,
  "req/s": f.requestsPerSecond,
  "p50 ms": f.p50,
  "p99 ms": f.p99,
  "errors+non2xx": f.errors
})))

await measureConsole()
