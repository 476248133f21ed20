import autocannon from "autocannon"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { call } from "../support/http.ts"
import { runScript } from "../support/process.ts"
import { readOutbox } from "../support/server.ts"

export interface AuthFigures {
  readonly engine: string
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly failures: number
}

const signIn = async (url: string, dataDir: string) => {
  await call(url, "POST", "/api/admin/auth", { body: { email: "admin@example.com", role: "super_admin" } })
  const code = readOutbox(dataDir).at(-1)?.subject.match(/(\d{6})/)?.[1] ?? ""
  const answer = await call(url, "POST", "/api/admin/auth", { body: { email: "admin@example.com", otp: code } })
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.text}`)
  return answer.body.token as string
}

/** GET /api/admin/auth/check with autocannon: 10 connections for 10 s. */
export const measureAuthCheck = async (engine: string, databaseUrl?: string): Promise<AuthFigures> => {
  const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-"))
  const server = runScript("server/main.ts", [], {
    DATA_DIR: dataDir,
    PORT: "0",
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl })
  })
  try {
    const [, url] = await server.waitFor(/Listening on (http:\/\/\S+)/, 60_000)
    const token = await signIn(url ?? "", dataDir)
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
      failures: result.errors + result.non2xx
    }
  } finally {
    server.child.kill("SIGTERM")
    await server.exited
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const printAuthFigures = (figures: ReadonlyArray<AuthFigures>) => {
  console.log("\nGET /api/admin/auth/check, autocannon, 10 connections, 10 s")
  console.table(figures.map((f) => ({ engine: f.engine, "req/s": f.requestsPerSecond, "p50 ms": f.p50, "p99 ms": f.p99, failures: f.failures })))
}
