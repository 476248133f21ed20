import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runScript } from "../support/process.ts"
import { benchDatabases, startProduct } from "./product.ts"

/** Resident and peak resident memory of a process, in MB, from /proc. */
const memoryOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const mb = (field: string) => Math.round(Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0) / 1024)
  return { rss: mb("VmRSS"), peak: mb("VmHWM") }
}

const IDLE_MS = 5_000
const SHARE_TARGET_MB = 100

/** What the engine takes by itself, idle as long: Node alone, or Node with PGlite open on `dbDir`. */
const engineAlone = async (dbDir: string | undefined) => {
  const run = runScript("tests/bench/engine-alone.mjs", [String(IDLE_MS), ...(dbDir === undefined ? [] : [dbDir])], {})
  if ((await run.exited) !== 0) throw new Error(run.errors())
  return JSON.parse(run.output()) as { readonly rss: number; readonly peak: number }
}

/**
 * The server's memory as `npm start` runs it: peak during a first start on an empty data folder,
 * then idle and peak after a restart on that folder, for PGlite and (when it answers)
 * PostgreSQL; and its own share, over what its engine takes alone (Node, and PGlite opened on
 * the same folder; PostgreSQL's server is another process).
 */
export const measureMemory = async (postgresUrl: string | undefined) => {
  const rows: Record<string, Record<string, number | string>> = {}
  for (const [name, env] of benchDatabases(postgresUrl)) {
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
      const engine = await engineAlone(env.DATABASE_URL === undefined ? join(dataDir, "db") : undefined)
      const share = idle.rss - engine.rss
      rows[name] = {
        "first start peak MB": firstPeak,
        "idle RSS MB": idle.rss,
        "restart peak MB": idle.peak,
        "engine alone, idle MB": engine.rss,
        "server's own share MB": share,
        target: `≤ ${SHARE_TARGET_MB}`,
        verdict: share <= SHARE_TARGET_MB ? "meets" : "MISSES"
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  console.log(`\nServer memory (${IDLE_MS / 1000} s after listening); the engine alone is Node 24, with PGlite opened on the same folder in its mode`)
  console.table(rows)
}
