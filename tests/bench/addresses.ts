import autocannon from "autocannon"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { call } from "../support/http.ts"
import { runScript } from "../support/process.ts"
import { type ExportFigures, measureExport } from "./csv-export.ts"
import { load, seedDatabase, signInFirstAdmin, startProduct } from "./product.ts"

export const SEED_PER_KIND = 100_000

const seedSql = `
  INSERT INTO addresses (id, kind, identifier, name, category, rank, created_at, updated_at)
  SELECT gen_random_uuid(), k, k || '-addr-' || lpad(i::text, 6, '0'), 'Address ' || i,
         (ARRAY['Wallet', 'Exchange', 'Project', 'Community'])[1 + i % 4], i % 1000,
         now() - make_interval(secs => i), now()
  FROM generate_series(1, ${SEED_PER_KIND}) AS i, unnest(ARRAY['generated', 'cex', 'core-team']) AS k`

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) * 10) / 10
}

const figuresOf = (result: autocannon.Result) => ({ rps: Math.round(result.requests.average), failures: result.errors + result.non2xx })

export interface AddressFigures {
  readonly engine: string
  readonly seedSeconds: number
  readonly selective: { p50: number; p95: number }
  readonly broad: { p50: number; p95: number }
  readonly productRps: number
  readonly bareRps: number
  readonly failures: number
  readonly exported: ExportFigures
}

/** Seeds 100,000 addresses per kind, then measures search latency and list throughput beside the bare server. */
export const measureAddresses = async (engine: "pglite" | "postgresql", databaseUrl?: string): Promise<AddressFigures> => {
  const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-addr-"))
  const env: Record<string, string> = databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }
  try {
    const seedSeconds = await seedDatabase(env, dataDir, seedSql, "addresses")

    const product = await startProduct(env, dataDir)
    const token = await signInFirstAdmin(product.url, dataDir)
    const timed = async (search: string) => {
      const started = performance.now()
      const answer = await call(product.url, "GET", `/api/admin/addresses/generated?search=${encodeURIComponent(search)}`, { token })
      if (answer.status !== 200) throw new Error(answer.text)
      return performance.now() - started
    }
    for (let warm = 0; warm < 20; warm++) await timed(`addr-0${warm}`)
    const selective: Array<number> = []
    const broad: Array<number> = []
    for (let n = 0; n < 200; n++) {
      selective.push(await timed(`addr-${String(Math.floor(Math.random() * SEED_PER_KIND)).padStart(6, "0")}`))
      if (n % 4 === 0) broad.push(await timed(["wallet", "exchange", "project", "community"][(n % 16) / 4] ?? "wallet"))
    }
    const productLoad = figuresOf(await load(`${product.url}/api/admin/addresses/generated`, token))
    const exported = await measureExport(product.url, token, product.pid)
    await product.stop()

    const bare = runScript("tests/bench/bare-server.ts", [], { DATA_DIR: dataDir, ...env })
    const [, bareUrl] = await bare.waitFor(/Listening on (http:\/\/\S+)/, 60_000)
    const bareLoad = figuresOf(await load(`${bareUrl}/list`))
    bare.child.kill("SIGTERM")
    await bare.exited
    return {
      engine,
      seedSeconds,
      selective: { p50: percentile(selective, 50), p95: percentile(selective, 95) },
      broad: { p50: percentile(broad, 50), p95: percentile(broad, 95) },
      productRps: productLoad.rps,
      bareRps: bareLoad.rps,
      failures: productLoad.failures + bareLoad.failures,
      exported
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const printAddressFigures = (figures: ReadonlyArray<AddressFigures>) => {
  console.log(`\nAddresses: ${SEED_PER_KIND.toLocaleString("en")} per kind; search = first page of GET /api/admin/addresses/generated?search=…`)
  console.table(
    figures.map((f) => ({
      engine: f.engine,
      "seed s": f.seedSeconds,
      "search 1 hit p50/p95 ms": `${f.selective.p50} / ${f.selective.p95}`,
      "search 25k hits p50/p95 ms": `${f.broad.p50} / ${f.broad.p95}`,
      "list req/s": f.productRps,
      "bare req/s": f.bareRps,
      ratio: Math.round((f.productRps / Math.max(1, f.bareRps)) * 100) / 100,
      failures: f.failures
    }))
  )
  console.log(`\nCSV export of one whole directory (GET …/generated?format=csv, streamed by keyset batches of 1,000)`)
  console.table(
    figures.map((f) => ({
      engine: f.engine,
      rows: f.exported.rows,
      MB: f.exported.megabytes,
      seconds: f.exported.seconds,
      "rows/s": f.exported.rowsPerSecond,
      "server RSS before MB": f.exported.rssBeforeMb,
      "server RSS peak MB": f.exported.rssPeakMb
    }))
  )
}
