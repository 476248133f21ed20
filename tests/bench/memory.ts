import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startProduct } from "./product.ts"

/** Resident and peak resident memory of a process, in MB, from /proc. */
const memoryOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const mb = (field: string) => Math.round(Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0) / 1024)
  return { rss: mb("VmRSS"), peak: mb("VmHWM") }
}

const IDLE_MS = 5_000

/**
 * The server's memory as `npm start` runs it: peak during a first start on an empty data folder,
 * then idle and peak after a restart on that folder, for PGlite and (when it answers) PostgreSQL.
 */
export const measureMemory = async (postgresUrl: string | undefined) => {
  const rows: Record<string, { "first start peak MB": number; "idle RSS MB": number; "restart peak MB": number }> = {}
  const modes: ReadonlyArray<readonly [string, Record<string, string>]> = [
    ["PGlite", {}],
    ...(postgresUrl === undefined ? [] : [["PostgreSQL", { DATABASE_URL: postgresUrl }] as const])
  ]
  for (const [name, env] of modes) {
    const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-mem-"))
    try {
      const first = await startProduct(env, dataDir)
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
      const firstPeak = memoryOf(first.pid).peak
      await first.stop()
      const again = await startProduct(env, dataDir)
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
      const idle = memoryOf(again.pid)
      await again.stop()
      rows[name] = { "first start peak MB": firstPeak, "idle RSS MB": idle.rss, "restart peak MB": idle.peak }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  console.log(`\nServer memory (${IDLE_MS / 1000} s after listening)`)
  console.table(rows)
}
