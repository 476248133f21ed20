/**
 * `npm run fuzz`: the fuzz suite at length (tests/support/fuzz.ts), 10,000 requests per engine
 * by default (`FUZZ_REQUESTS`), a new seed each run unless `FUZZ_SEED` is set; prints requests,
 * the status histogram, the 5xx and the refused writes that left something behind, and exits 1
 * when there is any.
 */
import { type TestDatabase, engines, freshPostgresOn } from "../support/database.ts"
import { fuzzServer } from "../support/fuzz.ts"
import { startTestServer } from "../support/server.ts"

const requests = Number(process.env.FUZZ_REQUESTS ?? 10_000)
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000_007)
const postgresUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

const targets: Array<{ name: string; fresh: () => Promise<TestDatabase> }> = [engines[0]!]
try {
  await (await freshPostgresOn(postgresUrl)).drop()
  targets.push({ name: "postgresql", fresh: () => freshPostgresOn(postgresUrl) })
} catch (error) {
  console.log(`PostgreSQL at ${postgresUrl} did not answer, so it was left out: ${String(error)}`)
}

let failures = 0
for (const target of targets) {
  const database = await target.fresh()
  const server = await startTestServer(database)
  const started = Date.now()
  try {
    const totals = await fuzzServer(server, requests, seed)
    const seconds = (Date.now() - started) / 1000
    console.log(`\n${target.name}: ${totals.requests} requests in ${seconds.toFixed(0)} s, seed ${seed}`)
    console.table(
      Object.fromEntries(
        Object.entries(totals.statuses)
          .sort()
          .map(([status, count]) => [status, { requests: count }])
      )
    )
    console.log(`5xx: ${totals.serverErrors.length}; refused writes that changed something: ${totals.leakedWrites.length}`)
    for (const failure of [...totals.serverErrors, ...totals.leakedWrites].slice(0, 20)) console.log(JSON.stringify(failure))
    failures += totals.serverErrors.length + totals.leakedWrites.length
  } finally {
    await server.stop()
    await database.drop()
  }
}
process.exit(failures === 0 ? 0 : 1)
