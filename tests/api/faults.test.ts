import { createHash } from "node:crypto"
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { engines, type TestDatabase } from "../support/database.ts"
import { PRODUCT_SERVER } from "../support/product.ts"
import {
  type CycleResult,
  killCycle,
  type Product,
  productOn,
  signInFirstAdmin,
  type Started,
  startProduct,
  storedIdentifiers,
  writeUntilStopped
} from "../support/faults.ts"
import { runScript } from "../support/process.ts"

/**
 * The fault suite (docs/architecture.md, "Database"): the product killed with SIGKILL under
 * concurrent writes keeps every write it acknowledged, and a second process on a live embedded
 * data folder is refused before it touches anything.
 */

const folders: Array<string> = []
const databases: Array<TestDatabase> = []
afterAll(async () => {
  for (const database of databases) await database.drop()
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

const productFor = async (engine: (typeof engines)[number]): Promise<Product> => {
  const database = await engine.fresh()
  databases.push(database)
  const product = productOn(database.target.engine === "postgresql" ? database.target.url : undefined)
  folders.push(product.dataDir)
  return product
}

const script = async (product: Product, path: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const run = runScript(path, args, { ...product.env, ...env })
  const started = Date.now()
  const code = await run.exited
  return { code, out: run.output(), err: run.errors(), ms: Date.now() - started }
}

/** Every file under `folder`, with its size, time and content hash: what "untouched" means. */
const fingerprint = (folder: string): Record<string, string> => {
  const prints: Record<string, string> = {}
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else {
        const stat = statSync(path)
        prints[path] = `${stat.size}:${stat.mtimeMs}:${createHash("sha1").update(readFileSync(path)).digest("hex")}`
      }
    }
  }
  walk(folder)
  return prints
}

const expectNothingLost = (result: CycleResult) => {
  expect(result.acknowledged).toBeGreaterThan(20)
  expect(result.lost).toEqual([])
  expect(result.found).toBe(result.acknowledged)
}

describe.each(engines)("faults on $name", (engine) => {
  it("keeps every acknowledged write through two SIGKILLs under 8 concurrent writers, passkeys added and removed included", async () => {
    const product = await productFor(engine)
    let started: Started = await startProduct(product)
    const token = await signInFirstAdmin(product, started.url)
    for (const cycle of [1, 2]) {
      const { result, restarted } = await killCycle(product, started, token, `kill${cycle}`, { writeMs: 1_500, passkeys: true })
      started = restarted
      expectNothingLost(result)
      // A passkey acknowledged added is there after the kill; one acknowledged removed stays gone.
      expect(result.passkeys?.kept).toBeGreaterThan(0)
      expect(result.passkeys?.removed).toBeGreaterThan(0)
      expect(result.passkeys?.lost).toEqual([])
      expect(result.passkeys?.back).toEqual([])
    }
    await started.stop()
  }, 180_000)
})

describe("a second process on a live embedded data folder", () => {
  it("is refused at once naming the holder, while admin commands and backups go through the server; nothing is lost", async () => {
    const product = await productFor(engines[0]!)
    let started = await startProduct(product)
    const token = await signInFirstAdmin(product, started.url)
    const holder = new RegExp(`^The data folder .*/db is in use by process ${started.run.child.pid} \\(npm start, since [^)]+\\); stop it first`)

    const { result, restarted } = await killCycle(product, started, token, "second", {
      writeMs: 1_000,
      during: async () => {
        const second = await script(product, PRODUCT_SERVER, [])
        expect(second.code).toBe(1)
        expect(second.err.trim().split("\n")).toHaveLength(1)
        expect(second.err).toMatch(holder)
        const migrate = await script(product, "server/cli/migrate.ts", [])
        expect(migrate.code).toBe(1)
        expect(migrate.err).toMatch(holder)
        const added = await script(product, "server/cli/admin.ts", ["add", "second@example.com", "admin", "--name", "Second Person"])
        expect(added).toMatchObject({ code: 0, out: "Added second@example.com as admin (Second Person).\n" })
      }
    })
    started = restarted
    expectNothingLost(result)
    const listed = await script(product, "server/cli/admin.ts", ["list"])
    expect(listed.out).toBe("admin@example.com\tsuper_admin\tenabled\nsecond@example.com\tadmin\tenabled\tSecond Person\n")

    // Idle, the refused process changes no byte of the folder.
    const db = join(product.dataDir, "db")
    const before = fingerprint(db)
    const again = await script(product, PRODUCT_SERVER, [])
    expect(again.code).toBe(1)
    expect(again.ms).toBeLessThan(15_000)
    expect(fingerprint(db)).toEqual(before)
    await started.stop()
  }, 180_000)

  it("backs up the running server's database and restores it into an empty folder that then serves it", async () => {
    const product = await productFor(engines[0]!)
    const started = await startProduct(product)
    const token = await signInFirstAdmin(product, started.url)
    const writes = writeUntilStopped(started.url, token, "backup", 4)
    await new Promise((resolve) => setTimeout(resolve, 800))
    const file = join(product.dataDir, "copy.tgz")
    const backup = await script(product, "server/cli/backup.ts", [file])
    await writes.stop()
    expect(backup.code).toBe(0)
    expect(backup.out).toMatch(/through the running server, pid \d+/)
    const atBackup = await storedIdentifiers(started.url, token)
    await started.stop()

    const restoredDir = join(product.dataDir, "restored")
    const restoredProduct: Product = { dataDir: restoredDir, env: { ...product.env, DATA_DIR: restoredDir } }
    const restore = await script(restoredProduct, "server/cli/restore.ts", [file])
    expect(restore).toMatchObject({ code: 0 })
    expect(restore.out).toMatch(/Restored .* 1 admins, \d+ addresses, 0 posts\./)
    const refused = await script(restoredProduct, "server/cli/restore.ts", [file])
    expect(refused).toMatchObject({ code: 1, err: expect.stringContaining("is not empty: restore only into an empty data folder") })

    const serving = await startProduct(restoredProduct)
    const restored = await storedIdentifiers(serving.url, token)
    // The copy is of one instant during the writes: a prefix of them, all consistent.
    expect(restored.size).toBeGreaterThan(0)
    expect(restored.size).toBeLessThanOrEqual(atBackup.size)
    for (const identifier of restored) expect(atBackup.has(identifier)).toBe(true)
    await serving.stop()
  }, 180_000)

  it("says to use pg_dump and pg_restore on PostgreSQL, and refuses a file that is not a backup", async () => {
    const onPostgres = productOn("postgres://postgres@127.0.0.1:5432/unused")
    folders.push(onPostgres.dataDir)
    expect(await script(onPostgres, "server/cli/backup.ts", ["x.dump"])).toMatchObject({ code: 1, err: expect.stringContaining("pg_dump") })
    expect(await script(onPostgres, "server/cli/restore.ts", ["x.dump"])).toMatchObject({ code: 1, err: expect.stringContaining("pg_restore") })
    const bare = productOn(undefined)
    folders.push(bare.dataDir)
    const junk = join(bare.dataDir, "junk.tgz")
    await import("node:fs").then((fs) => fs.writeFileSync(junk, "not a backup"))
    const failed = await script(bare, "server/cli/restore.ts", [junk])
    expect(failed.code).toBe(1)
    expect(failed.err).toContain("is not a backup made by npm run backup")
    expect(readdirSync(bare.dataDir).sort()).toEqual(["junk.tgz"])
  }, 60_000)
})
