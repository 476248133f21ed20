import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { engines, freshPostgresOn, type TestDatabase } from "../support/database.ts"
import { type Answer, call, freshIp } from "../support/http.ts"
import { FIRST_ADMIN, signInFirstAdmin, startProduct, type StartedProduct } from "../support/product.ts"

/**
 * PostgreSQL's disk is not the server's (docs/architecture.md, "A full disk"): the server cannot
 * measure it, and does not watch its own data folder's disk in its place. A data folder that
 * does not exist is made when the server needs one and left alone when it does not; changes are
 * taken; and when PostgreSQL's own disk is full, its refusals are 507 and `/api/health` says the
 * writes are failing until one succeeds again.
 */
const adminUrl = process.env.TEST_DATABASE_URL ?? ""
const diskFull = "The server's disk is full: changes can't be saved until space is freed. Reading still works."

interface Health {
  readonly status: string
  readonly database: { readonly status: string; readonly sizeMb: number | null }
  readonly disk: { readonly status: string; readonly freeMb: number | null; readonly reserveMb: number | null }
  readonly writes: { readonly status: string; readonly lastRefusedAt: string | null }
}
const healthOf = async (url: string) => (await call(url, "GET", "/api/health")).body as unknown as Health
const report = (url: string) => call(url, "POST", "/api/report-scam", { ip: freshIp(), body: { scamType: "phishing", description: "A fake wallet site" } })

describe.runIf(engines.length > 1)("a server on postgresql whose data folder does not exist", () => {
  const databases: Array<TestDatabase> = []
  const parents: Array<string> = []
  afterAll(async () => {
    for (const database of databases) await database.drop()
    for (const parent of parents) rmSync(parent, { recursive: true, force: true })
  })

  const started = async (env: Record<string, string>) => {
    const database = await freshPostgresOn(adminUrl)
    databases.push(database)
    const parent = mkdtempSync(join(tmpdir(), "admin-no-folder-"))
    parents.push(parent)
    const dataDir = join(parent, "not", "yet")
    const url = database.target.engine === "postgresql" ? database.target.url : ""
    return { dataDir, product: await startProduct({ DATABASE_URL: url, ADMIN_EMAIL: FIRST_ADMIN, ...env }, dataDir) }
  }

  it("without SMTP_URL makes the folder for its outbox, takes changes, and reports the database's disk, not the folder's", async () => {
    const { dataDir, product } = await started({})
    try {
      expect(existsSync(dataDir)).toBe(true)
      const token = await signInFirstAdmin(product.url, dataDir)
      const post = await call(product.url, "POST", "/api/blog/admin/posts", { token, body: { title: "Taken", content: "<p>x</p>", status: "draft" } })
      expect(post.status, post.text).toBe(200)
      expect((await report(product.url)).status).toBe(200)
      const health = await healthOf(product.url)
      expect(health).toMatchObject({ status: "ok", disk: { status: "ok", freeMb: null, reserveMb: null }, writes: { status: "ok", lastRefusedAt: null } })
      expect(health.database.sizeMb).toBeGreaterThan(0)
    } finally {
      await product.stop()
    }
  })

  it("with SMTP_URL leaves the folder alone and takes changes", async () => {
    const { dataDir, product } = await started({ SMTP_URL: "smtp://127.0.0.1:9" })
    try {
      const answer = await report(product.url)
      expect(answer.status, answer.text).toBe(200)
      expect(existsSync(dataDir)).toBe(false)
      // Mail is not reachable on port 9, so the whole is degraded; the disk and the writes are not.
      expect(await healthOf(product.url)).toMatchObject({ disk: { status: "ok", freeMb: null, reserveMb: null }, writes: { status: "ok" } })
    } finally {
      await product.stop()
    }
  })
})

/** Takes space on the disk with a file of incompressible bytes until it is full. */
const fill = (path: string) => {
  const fd = openSync(path, "a")
  const chunk = randomBytes(256 * 1024)
  try {
    for (;;) writeSync(fd, chunk)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error
  } finally {
    closeSync(fd)
  }
}

describe.runIf(engines.length > 1)("postgresql's own disk full", () => {
  // A tablespace on a small tmpfs mounted for this file, owned by the postgres user (the suite
  // runs as root beside the PostgreSQL server, as CI does), and a database made in it.
  const mount = mkdtempSync(join(tmpdir(), "admin-pg-disk-"))
  const filler = join(mount, "filler")
  const name = `full_${randomBytes(5).toString("hex")}`
  const dataDir = mkdtempSync(join(tmpdir(), "admin-pg-disk-data-"))
  let product: StartedProduct
  let token: string
  const onServer = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }

  beforeAll(async () => {
    const owner = (flag: string) => execFileSync("id", [flag, "postgres"]).toString().trim()
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=64m,mode=0700,uid=${owner("-u")},gid=${owner("-g")}`, "tmpfs", mount])
    await onServer(`CREATE TABLESPACE ${name} LOCATION '${mount}'`)
    await onServer(`CREATE DATABASE ${name} TABLESPACE ${name}`)
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    product = await startProduct({ DATABASE_URL: url.toString(), ADMIN_EMAIL: FIRST_ADMIN }, dataDir)
    token = await signInFirstAdmin(product.url, dataDir)
  }, 180_000)

  afterAll(async () => {
    await product?.stop()
    await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await onServer(`DROP TABLESPACE IF EXISTS ${name}`)
    execFileSync("umount", [mount])
    rmSync(mount, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })

  const post = (title: string) =>
    call(product.url, "POST", "/api/blog/admin/posts", {
      token,
      body: { title, content: `<p>${randomBytes(150_000).toString("base64")}</p>`, status: "draft" }
    })
  const expectRefusedAsFull = (answer: Answer) => {
    expect(answer.status, answer.text).toBe(507)
    expect(answer.body).toMatchObject({ success: false, error: diskFull })
  }

  it("answers writes 507, says on /api/health that writes are failing while reads and readiness go on, and is ok again once space is freed", async () => {
    expect(await healthOf(product.url)).toMatchObject({ status: "ok", writes: { status: "ok" } })
    fill(filler)
    expect(statfsSync(mount).bavail).toBe(0)
    expectRefusedAsFull(await post("On a full disk"))
    expectRefusedAsFull(await post("Still full"))

    const health = await healthOf(product.url)
    expect(health).toMatchObject({
      status: "degraded",
      database: { status: "connected" },
      disk: { status: "low", freeMb: null },
      writes: { status: "failing" }
    })
    expect(Date.now() - Date.parse(health.writes.lastRefusedAt ?? "")).toBeLessThan(60_000)
    // Reading goes on, and every server on this database meets the same disk: readiness stays.
    expect((await call(product.url, "GET", "/api/blog/posts?status=draft", { token })).status).toBe(200)
    expect((await call(product.url, "GET", "/api/health/ready")).status).toBe(200)

    rmSync(filler)
    const again = await post("After the space came back")
    expect(again.status, again.text).toBe(200)
    expect(await healthOf(product.url)).toMatchObject({ status: "ok", disk: { status: "ok" }, writes: { status: "ok" } })
    // Nothing of the refused posts was kept.
    const drafts = await call(product.url, "GET", "/api/blog/posts?status=draft", { token })
    expect((drafts.body.posts as ReadonlyArray<{ title: string }>).map((found) => found.title)).toEqual(["After the space came back"])
  })
})
