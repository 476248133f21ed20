import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { engines, freshPostgresOn, type TestDatabase } from "../support/database.ts"
import { type Product, productOn, signInFirstAdmin, startProduct } from "../support/faults.ts"
import { runScript } from "../support/process.ts"
import { startTestServer } from "../support/server.ts"
import { signedInAs } from "../support/session.ts"
import { buildSite, snapshotOf } from "../support/site.ts"

/**
 * A backup is the whole site (docs/deploy.md, "Backups"): a site with posts, uploaded images and
 * history is backed up, restored into an empty folder or database, and found the same, every
 * record and every image byte for byte.
 */
const folders: Array<string> = []
const databases: Array<TestDatabase> = []
afterAll(async () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  for (const database of databases) await database.drop()
})

const script = async (product: Product, path: string, args: ReadonlyArray<string>) => {
  const run = runScript(path, args, product.env)
  const code = await run.exited
  return { code, out: run.output(), err: run.errors() }
}

describe("a whole backup on the embedded database", () => {
  it("backs up a site with posts, uploads and history through the running server, and restores every record and image into an empty folder", async () => {
    const product = productOn(undefined)
    folders.push(product.dataDir)
    const running = await startProduct(product)
    const token = await signInFirstAdmin(product, running.url)
    const site = await buildSite(running.url, token)
    const before = await snapshotOf(running.url, token, site)
    expect(before.images.every((image) => image.status === 200)).toBe(true)
    const file = join(product.dataDir, "site.tgz")
    const backup = await script(product, "server/cli/backup.ts", [file])
    expect(backup, backup.err).toMatchObject({ code: 0 })
    await running.stop()

    const restoredDir = mkdtempSync(join(tmpdir(), "admin-restored-"))
    folders.push(restoredDir)
    const restored: Product = { dataDir: restoredDir, env: { ...product.env, DATA_DIR: restoredDir } }
    const restore = await script(restored, "server/cli/restore.ts", [file])
    expect(restore, restore.err).toMatchObject({ code: 0 })
    // Nothing but the database was copied: the images came with it.
    expect(readdirSync(restoredDir)).toEqual(["db"])
    const serving = await startProduct(restored)
    try {
      expect(await snapshotOf(serving.url, token, site)).toEqual(before)
    } finally {
      await serving.stop()
    }
  }, 180_000)
})

describe.runIf(engines.length > 1)("a whole backup on PostgreSQL", () => {
  it("is pg_dump's copy: restored with pg_restore into an empty database, every record and image is there", async () => {
    const adminUrl = process.env.TEST_DATABASE_URL!
    const source = await freshPostgresOn(adminUrl)
    // pg_restore's target is empty: no migration has run on it.
    const target = await freshPostgresOn(adminUrl, false)
    databases.push(source, target)
    const original = await startTestServer(source)
    const token = await signedInAs(original, "super_admin")
    const site = await buildSite(original.url, token)
    const before = await snapshotOf(original.url, token, site)
    const file = join(mkdtempSync(join(tmpdir(), "admin-dump-")), "site.dump")
    folders.push(join(file, ".."))
    const urlOf = (database: TestDatabase) => (database.target.engine === "postgresql" ? database.target.url : "")
    // While the server runs: pg_dump reads one consistent snapshot.
    execFileSync("pg_dump", ["--format=custom", `--file=${file}`, urlOf(source)])
    await original.stop()
    execFileSync("pg_restore", [`--dbname=${urlOf(target)}`, file])
    const copy = await startTestServer(target)
    try {
      expect(await snapshotOf(copy.url, token, site)).toEqual(before)
    } finally {
      await copy.stop()
    }
  }, 120_000)
})
