// The baseline `npm run bench -- memory` subtracts: a Node 24 process alone, or one that has
// opened PGlite on a data folder as the server opens it (with pg_trgm), idle for
// the same time. Plain JavaScript on purpose: Node's TypeScript stripping would add its own
// 17 MB to the baseline and flatter the server's share.
// Usage: node tests/bench/engine-alone.mjs IDLE_MS [DATA_DIR]
import { readFileSync } from "node:fs"

const [idleMs, dataDir] = process.argv.slice(2)
const memory = () => {
  const status = readFileSync("/proc/self/status", "utf8")
  const mb = (field) => Math.round(Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0) / 1024)
  return { rss: mb("VmRSS"), peak: mb("VmHWM") }
}
let db
if (dataDir !== undefined) {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([import("@electric-sql/pglite"), import("@electric-sql/pglite/contrib/pg_trgm")])
  db = await PGlite.create(dataDir, { extensions: { pg_trgm } })
  await db.query("SELECT 1")
}
await new Promise((resolve) => setTimeout(resolve, Number(idleMs)))
console.log(JSON.stringify(memory()))
await db?.close()
