import { rmSync } from "node:fs"
import { killCycle, productOn, signInFirstAdmin, type Started, startProduct } from "../support/faults.ts"
import { runScript } from "../support/process.ts"
import { PRODUCT_SERVER } from "../support/product.ts"

const CYCLES = Number(process.env.FAULT_CYCLES ?? 10)

/**
 * `npm run bench -- faults`: more SIGKILL cycles than the fault suite, 3 s of 8 writers each,
 * on PGlite (each cycle also running `npm run admin` and a refused second server against the
 * live folder) and on PostgreSQL when given; prints acknowledged / found / lost.
 */
export const measureFaults = async (postgresUrl: string | undefined) => {
  const rows: Record<string, { cycles: number; acknowledged: number; found: number; lost: number; "second processes refused": string }> = {}
  for (const [name, url] of [
    ["pglite", undefined],
    ["postgresql", postgresUrl]
  ] as const) {
    if (name === "postgresql" && url === undefined) continue
    const product = productOn(url)
    let started: Started = await startProduct(product)
    const token = await signInFirstAdmin(product, started.url)
    const totals = { cycles: 0, acknowledged: 0, found: 0, lost: 0, refused: 0, tried: 0 }
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const { result, restarted } = await killCycle(product, started, token, `bench${cycle}`, {
        writeMs: 3_000,
        during:
          name === "pglite"
            ? async () => {
                const second = runScript(PRODUCT_SERVER, [], product.env)
                const admin = runScript("server/cli/admin.ts", ["add", `bench${cycle}@example.com`, "moderator"], product.env)
                totals.tried += 1
                if ((await second.exited) === 1 && /is in use by process/.test(second.errors()) && (await admin.exited) === 0) totals.refused += 1
              }
            : undefined
      })
      started = restarted
      totals.cycles += 1
      totals.acknowledged += result.acknowledged
      totals.found += result.found
      totals.lost += result.lost.length
    }
    await started.stop()
    rmSync(product.dataDir, { recursive: true, force: true })
    rows[name] = {
      cycles: totals.cycles,
      acknowledged: totals.acknowledged,
      found: totals.found,
      lost: totals.lost,
      "second processes refused": name === "pglite" ? `${totals.refused} of ${totals.tried}` : "n/a"
    }
  }
  console.log(`\nSIGKILL under 8 concurrent writers, 3 s a cycle, then a restart and a count`)
  console.table(rows)
}
