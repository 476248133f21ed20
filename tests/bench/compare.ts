import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { cpSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { build, type Plugin } from "vite"
import { consoleDir } from "../../server/platform/console.ts"
import { firstScreenPieces, type FirstScreenPiece } from "../../tools/first-screen/index.ts"
import { consoleBuild } from "../../vite.config.ts"
import { launchChromium, requireBuiltConsole } from "../support/browser.ts"
import { freshPostgresOn } from "../support/database.ts"
import { coldLoad, type SlowLink, TWENTY_ROWS } from "../support/first-screen.ts"
import { root } from "../support/process.ts"
import { startTestServer } from "../support/server.ts"
import { signedInAs } from "../support/session.ts"

/**
 * `npm run bench -- compare PIECE…`: what each first-screen piece buys. For each piece the
 * console is built without it, both builds are served by two servers on one PostgreSQL database,
 * and cold loads of a 10,000-row directory alternate between them (the order swapped every
 * pair): the first 20 rows painted and the JS and CSS on the wire before them. A piece earns its
 * place when the paired differences favour it by more than their own spread (the 25th
 * percentile of without − with above zero), or when the bytes without it break the budget.
 */
const PAIRS = 25
const WARM_UP = 2

/**
 * Loopback by default, where bytes and round trips cost almost nothing; `COMPARE_LINK=40,10` loads
 * both builds over an emulated link instead (40 ms added to each request, 10 Mbit/s).
 */
const link = ((): SlowLink | undefined => {
  const [latencyMs, mbit] = (process.env.COMPARE_LINK ?? "").split(",").map(Number)
  return latencyMs === undefined || mbit === undefined || !(latencyMs >= 0 && mbit > 0) ? undefined : { latencyMs, mbit }
})()

/**
 * Start-up code in src/ a build can leave out: the bench's own build puts a module that does
 * nothing in its place (the shipped code has no switch for it).
 */
const startUpPieces: Readonly<Record<string, { readonly module: string; readonly nothing: string }>> = {
  "early-requests": { module: "src/app/start/early-requests.ts", nothing: "export const askEarly = () => undefined" }
}

const isBuildPiece = (piece: string): piece is FirstScreenPiece => (firstScreenPieces as ReadonlyArray<string>).includes(piece)

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round((sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0) * 10) / 10
}

/** The console as `npm run build` makes it, but without `piece`, in a folder of its own. */
const buildWithout = async (piece: string) => {
  const outDir = mkdtempSync(join(tmpdir(), `console-without-${piece}-`))
  const config = consoleBuild(isBuildPiece(piece) ? [piece] : [])
  const startUp = startUpPieces[piece]
  const leftOut: ReadonlyArray<Plugin> =
    startUp === undefined ? [] : [{ name: `without-${piece}`, enforce: "pre", load: (id) => (id.endsWith(startUp.module) ? startUp.nothing : undefined) }]
  await build({
    ...config,
    configFile: false,
    root,
    logLevel: "error",
    plugins: [...(config.plugins ?? []), ...leftOut],
    build: { ...config.build, outDir, emptyOutDir: true }
  })
  return outDir
}

export const comparePieces = async (pieces: ReadonlyArray<string>, postgresUrl: string) => {
  const known = [...firstScreenPieces, ...Object.keys(startUpPieces)]
  const unknown = pieces.filter((piece) => !known.includes(piece))
  if (pieces.length === 0 || unknown.length > 0)
    throw new Error(`compare: name pieces among ${known.join(", ")}${unknown.length > 0 ? ` (not ${unknown.join(", ")})` : ""}`)
  requireBuiltConsole()
  const database = await freshPostgresOn(postgresUrl)
  if (database.target.engine !== "postgresql") throw new Error("compare needs PostgreSQL (two servers on one database)")
  const browser = await launchChromium()
  const withAll = mkdtempSync(join(tmpdir(), "console-with-all-"))
  cpSync(consoleDir, withAll, { recursive: true })
  const full = await startTestServer(database, {}, { consoleDir: withAll })
  const rows: Record<string, Record<string, number | string>> = {}
  try {
    const token = await signedInAs(full, "admin")
    await full.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql`INSERT INTO addresses (id, kind, identifier, name, category, rank, created_at)
          SELECT gen_random_uuid(), 'generated', 'compare-' || lpad(i::text, 6, '0'), 'Address ' || i, 'Wallet', i % 1000, now() - make_interval(secs => i)
          FROM generate_series(1, 10000) AS i`
      )
    )
    for (const piece of pieces) {
      const outDir = await buildWithout(piece)
      const cut = await startTestServer(database, {}, { consoleDir: outDir })
      try {
        const withTimes: Array<number> = []
        const withoutTimes: Array<number> = []
        let withKb = 0
        let withoutKb = 0
        for (let pair = 0; pair < WARM_UP + PAIRS; pair++) {
          const load = (url: string) => coldLoad(browser, token, `${url}/generated-addresses`, TWENTY_ROWS, link)
          // The order swaps every pair: whichever goes second finds the machine a little warmer.
          const first = pair % 2 === 0 ? await load(full.url) : await load(cut.url)
          const second = pair % 2 === 0 ? await load(cut.url) : await load(full.url)
          const [a, b] = pair % 2 === 0 ? [first, second] : [second, first]
          if (pair < WARM_UP) continue
          withTimes.push(a.ms)
          withoutTimes.push(b.ms)
          withKb = a.kb
          withoutKb = b.kb
        }
        const differences = withoutTimes.map((time, index) => time - (withTimes[index] ?? 0))
        const gain = percentile(differences, 50)
        const low = percentile(differences, 25)
        rows[piece] = {
          "with: rows ms (median)": percentile(withTimes, 50),
          "without: rows ms (median)": percentile(withoutTimes, 50),
          "gain ms (median of pairs)": gain,
          "gain p25..p75": `${low}..${percentile(differences, 75)}`,
          "with: kB before rows": withKb,
          "without: kB before rows": withoutKb,
          verdict: low > 0 ? "keeps its place" : "inside the noise"
        }
      } finally {
        await cut.stop()
        rmSync(outDir, { recursive: true, force: true })
      }
    }
  } finally {
    await full.stop()
    await browser.close()
    await database.drop()
    rmSync(withAll, { recursive: true, force: true })
  }
  const over = link === undefined ? "loopback" : `a link of ${link.latencyMs} ms and ${link.mbit} Mbit/s`
  console.log(
    `\nEach first-screen piece, ${PAIRS} interleaved pairs of cold loads after ${WARM_UP} warm-up pairs over ${over} (10,000-row directory, 20 rows painted)`
  )
  console.table(rows)
}
