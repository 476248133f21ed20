/**
 * `npm run bench`: figures, not pass/fail. Each server runs as its own process (PGlite always;
 * PostgreSQL at BENCH_DATABASE_URL or TEST_DATABASE_URL, default the local one, when it
 * answers) and is loaded from this process with autocannon.
 */
import { type TestDatabase, freshPostgresOn } from "../support/database.ts"
import { measureAbuse } from "./abuse.ts"
import { measurePublicFlood } from "./public-reads.ts"
import { comparePieces } from "./compare.ts"
import { measureAddresses, printAddressFigures } from "./addresses.ts"
import { measureAuthCheck, printAuthFigures } from "./auth-check.ts"
import { measurePasskeySignIn } from "./passkey-sign-in.ts"
import { measureConsole } from "./console.ts"
import { measureDashboard, printDashboardFigures } from "./dashboard.ts"
import { measureFaults } from "./faults.ts"
import { measureHistory, printHistoryFigures } from "./history.ts"
import { measureFirstScreen } from "./first-screen.ts"
import { measureFirstVisit } from "./first-visit.ts"
import { measureListings, printListingFigures } from "./listings.ts"
import { measureMemory } from "./memory.ts"
import { measureScamReports, printScamReportFigures } from "./scam-reports.ts"
import { measureStream } from "./stream.ts"
import { measureSync } from "./sync.ts"
import { measureSyncOffline } from "./sync-offline.ts"
import { measureUpload } from "./upload.ts"
import { measureTriage, printTriageFigures } from "./triage.ts"

const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

/** Runs `measure` on a throwaway PostgreSQL database, or says why it could not. */
const onPostgres = async <A>(measure: (url: string) => Promise<A>): Promise<ReadonlyArray<A>> => {
  let database: TestDatabase
  try {
    database = await freshPostgresOn(postgresUrl)
  } catch (error) {
    console.log(`PostgreSQL at ${postgresUrl} did not answer, so it was left out: ${String(error)}`)
    return []
  }
  try {
    return database.target.engine === "postgresql" ? [await measure(database.target.url)] : []
  } finally {
    await database.drop()
  }
}

/** Runs `measure` with a throwaway PostgreSQL database's URL, or with undefined when none answers. */
const withPostgresOrNot = async (measure: (url: string | undefined) => Promise<void>) => {
  const postgres = await freshPostgresOn(postgresUrl).catch(() => undefined)
  try {
    await measure(postgres?.target.engine === "postgresql" ? postgres.target.url : undefined)
  } finally {
    await postgres?.drop()
  }
}

const only = process.argv[2]
if (only === undefined || only === "auth") {
  printAuthFigures([await measureAuthCheck("pglite"), ...(await onPostgres((url) => measureAuthCheck("postgresql", url)))])
  await withPostgresOrNot(async (url) => {
    console.log("\nSigning in with a passkey from /login, Chromium's virtual authenticator (20 per database)")
    console.table(await measurePasskeySignIn(url))
  })
}
if (only === undefined || only === "addresses") {
  printAddressFigures([await measureAddresses("pglite"), ...(await onPostgres((url) => measureAddresses("postgresql", url)))])
}
if (only === undefined || only === "listings") {
  printListingFigures([await measureListings("pglite"), ...(await onPostgres((url) => measureListings("postgresql", url)))])
}
if (only === undefined || only === "scam-reports") {
  // A million reports is a PostgreSQL figure (docs/performance.md); PGlite's list figures are the listings' above.
  for (const figures of await onPostgres(measureScamReports)) printScamReportFigures(figures)
}
if (only === undefined || only === "triage") {
  printTriageFigures([await measureTriage("pglite"), ...(await onPostgres((url) => measureTriage("postgresql", url)))])
}
if (only === undefined || only === "dashboard") {
  printDashboardFigures([await measureDashboard("pglite"), ...(await onPostgres((url) => measureDashboard("postgresql", url)))])
}
if (only === undefined || only === "history") {
  printHistoryFigures([await measureHistory("pglite"), ...(await onPostgres((url) => measureHistory("postgresql", url)))])
}
if (only === undefined || only === "console") {
  await measureConsole()
  await measureFirstScreen()
}
if (only === "first-screen") await measureFirstScreen()
if (only === undefined || only === "first-visit") await withPostgresOrNot((url) => measureFirstVisit(url, process.argv.slice(3)))
if (only === "compare") await comparePieces(process.argv.slice(3), postgresUrl)
if (only === undefined || only === "memory") {
  await withPostgresOrNot(measureMemory)
}
if (only === undefined || only === "stream") await onPostgres(measureStream)
if (only === undefined || only === "sync") await withPostgresOrNot((url) => measureSync(url, process.argv.slice(3)))
if (only === undefined || only === "sync-offline") await withPostgresOrNot(measureSyncOffline)
if (only === undefined || only === "upload") await withPostgresOrNot(measureUpload)
if (only === undefined || only === "faults") {
  await withPostgresOrNot(measureFaults)
}
if (only === undefined || only === "abuse") {
  await withPostgresOrNot(measureAbuse)
}
if (only === undefined || only === "abuse" || only === "public-reads") {
  await withPostgresOrNot(measurePublicFlood)
}
