import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MAX_PASSKEYS } from "../../contract/passkeys.ts"
import { registerPasskey, softAuthenticator } from "./authenticator.ts"
import { parseCsv } from "./csv.ts"
import { call } from "./http.ts"
import { FIRST_ADMIN, signInFirstAdmin as signInFirstAdminAt, type StartedProduct, startProduct as startProductIn } from "./product.ts"
import { sleep, until } from "./wait.ts"

/** The passkeys the fault cycles add, counted across cycles: each gets a name of its own. */
let faultKeys = 0

/**
 * The product as `npm start` runs it, in its own process, killed with SIGKILL under concurrent
 * writes and started again: the fault suite (tests/api/faults.test.ts) and `npm run bench --
 * faults` both drive it. An acknowledged write is one the server answered 200; after the
 * restart every one of them must be there.
 */

export interface Product {
  readonly env: Record<string, string>
  readonly dataDir: string
}

export type Started = StartedProduct

/** A data folder (and, for PostgreSQL, a database URL) the product's processes share. */
export const productOn = (databaseUrl: string | undefined): Product => {
  const dataDir = mkdtempSync(join(tmpdir(), "admin-fault-"))
  const env: Record<string, string> = { ADMIN_EMAIL: FIRST_ADMIN }
  if (databaseUrl !== undefined) env.DATABASE_URL = databaseUrl
  return { env: { ...env, DATA_DIR: dataDir }, dataDir }
}

export { FIRST_ADMIN }

export const startProduct = (product: Product): Promise<Started> => startProductIn(product.env, product.dataDir)

/** Signs the first admin in through the API, reading the code from the outbox; sessions outlive restarts. */
export const signInFirstAdmin = (product: Product, url: string): Promise<string> => signInFirstAdminAt(url, product.dataDir)

/**
 * `writers` clients each create addresses one after another, as fast as the server answers,
 * until `stop()`; returns every identifier the server acknowledged with 200.
 */
export const writeUntilStopped = (url: string, token: string, tag: string, writers = 8) => {
  let stopped = false
  const acknowledged: Array<string> = []
  const writer = async (w: number) => {
    for (let i = 0; !stopped; i++) {
      const identifier = `${tag}-${w}-${i}`
      try {
        const answer = await call(url, "POST", "/api/admin/addresses/generated", { token, body: { identifier, Name: identifier } })
        if (answer.status === 200) acknowledged.push(identifier)
      } catch {
        return // the server is gone
      }
    }
  }
  const running = Promise.all(Array.from({ length: writers }, (_, w) => writer(w)))
  return {
    acknowledged,
    stop: async () => {
      stopped = true
      await running
    }
  }
}

/**
 * One client adding the signed-in admin's passkeys (the options, then the authenticator's answer)
 * until `stop()`, keeping every other one up to `KEPT_PER_CYCLE` (and below `MAX_PASSKEYS`) and
 * removing the rest: `kept` the passkeys acknowledged added and never asked to go, `removed` those
 * acknowledged gone.
 */
const KEPT_PER_CYCLE = 3

export const passkeysUntilStopped = (url: string, token: string, held: number) => {
  let stopped = false
  const kept: Array<string> = []
  const removed: Array<string> = []
  let failure: Error | undefined
  // Unset PUBLIC_ORIGIN, the product binds passkeys to http://localhost and its port (docs/deploy.md).
  const origin = `http://localhost:${new URL(url).port}`
  const writer = async () => {
    const keeps = Math.min(KEPT_PER_CYCLE, MAX_PASSKEYS - 1 - held)
    for (let i = 0; !stopped; i++) {
      try {
        // Each its own name: two passkeys of one person never share one (a cycle's kept ones stay).
        const id = await registerPasskey(url, token, softAuthenticator(), origin, `fault ${++faultKeys}`)
        if (i % 2 === 0 && kept.length < keeps) {
          kept.push(id)
          continue
        }
        if ((await call(url, "DELETE", `/api/admin/passkeys/${id}`, { token })).status === 200) removed.push(id)
      } catch (error) {
        // The server is gone (fetch's TypeError); anything else is said when the writer stops.
        if (!(error instanceof TypeError)) failure = error instanceof Error ? error : new Error(String(error))
        return
      }
    }
  }
  const running = writer()
  return {
    kept,
    removed,
    stop: async () => {
      stopped = true
      await running
      if (failure !== undefined) throw failure
    }
  }
}

/** The signed-in admin's passkeys' ids, through the product's own list. */
export const storedPasskeys = async (url: string, token: string): Promise<Set<string>> => {
  const answer = await call(url, "GET", "/api/admin/passkeys", { token })
  if (answer.status !== 200) throw new Error(`passkeys: ${answer.status} ${answer.text}`)
  return new Set((answer.body.data as { passkeys: ReadonlyArray<{ _id: string }> }).passkeys.map((passkey) => passkey._id))
}

/** Every generated address's identifier, through the product's own CSV export. */
export const storedIdentifiers = async (url: string, token: string): Promise<Set<string>> => {
  const answer = await call(url, "GET", "/api/admin/addresses/generated?format=csv", { token })
  if (answer.status !== 200) throw new Error(`export failed: ${answer.status} ${answer.text}`)
  const [header, ...rows] = parseCsv(answer.text)
  const column = header!.indexOf("identifier")
  return new Set(rows.map((row) => row[column]!))
}

export interface CycleResult {
  readonly acknowledged: number
  readonly found: number
  readonly lost: ReadonlyArray<string>
  /** With `passkeys`: those acknowledged added and missing after the restart, and those acknowledged removed and back. */
  readonly passkeys?: { readonly kept: number; readonly removed: number; readonly lost: ReadonlyArray<string>; readonly back: ReadonlyArray<string> }
}

/** Resolves once `count()` exceeds `minimum`; past a minute, fails naming what it reached. */
const atLeast = (count: () => number, minimum: number) => until(() => count() > minimum, `more than ${minimum} writes acknowledged (${count()} so far)`)

/** The writes a cycle has acknowledged before the kill, however slow the machine: the kill lands amid many. */
export const WRITES_BEFORE_KILL = 25

/**
 * One fault cycle on a running product: writers for `writeMs` and until more than
 * `WRITES_BEFORE_KILL` writes were acknowledged (with `passkeys`, until one passkey was kept and
 * one removed too), `during` run while they write (a second process, say), then SIGKILL, a
 * restart, and the count. Returns the restarted product.
 */
export const killCycle = async (
  product: Product,
  started: Started,
  token: string,
  tag: string,
  options: { readonly writeMs: number; readonly during?: () => Promise<void>; readonly passkeys?: boolean }
): Promise<{ readonly result: CycleResult; readonly restarted: Started }> => {
  const writes = writeUntilStopped(started.url, token, tag)
  const keys = options.passkeys === true ? passkeysUntilStopped(started.url, token, (await storedPasskeys(started.url, token)).size) : undefined
  await Promise.all([
    sleep(options.writeMs).then(() => atLeast(() => writes.acknowledged.length, WRITES_BEFORE_KILL)),
    // A passkey kept and one removed before the kill, however slow each ceremony is here.
    keys === undefined ? undefined : until(() => keys.kept.length > 0 && keys.removed.length > 0, "a passkey kept and one removed"),
    options.during?.()
  ])
  await started.kill()
  await Promise.all([writes.stop(), keys?.stop()])
  const restarted = await startProduct(product)
  const stored = await storedIdentifiers(restarted.url, token)
  const lost = writes.acknowledged.filter((identifier) => !stored.has(identifier))
  const result: CycleResult = { acknowledged: writes.acknowledged.length, found: writes.acknowledged.length - lost.length, lost }
  if (keys === undefined) return { result, restarted }
  const held = await storedPasskeys(restarted.url, token)
  const passkeys = {
    kept: keys.kept.length,
    removed: keys.removed.length,
    lost: keys.kept.filter((id) => !held.has(id)),
    back: keys.removed.filter((id) => held.has(id))
  }
  return { result: { ...result, passkeys }, restarted }
}
