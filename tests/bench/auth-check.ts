import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { load, signInFirstAdmin, startProduct } from "./product.ts"

export interface AuthFigures {
  readonly engine: string
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly failures: number
}

/** GET /api/admin/auth/check with autocannon: 10 connections for 10 s. */
export const measureAuthCheck = async (engine: string, databaseUrl?: string): Promise<AuthFigures> => {
  const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-"))
  const server = await startProduct(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }, dataDir)
  try {
    const token = await signInFirstAdmin(server.url, dataDir)
    const result = await load(`${server.url}/api/admin/auth/check`, token)
    return {
      engine,
      requestsPerSecond: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      failures: result.errors + result.non2xx
    }
  } finally {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const printAuthFigures = (figures: ReadonlyArray<AuthFigures>) => {
  console.log("\nGET /api/admin/auth/check, autocannon, 10 connections, 10 s")
  console.table(figures.map((f) => ({ engine: f.engine, "req/s": f.requestsPerSecond, "p50 ms": f.p50, "p99 ms": f.p99, failures: f.failures })))
}
