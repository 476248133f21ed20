import { execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Answer, call } from "../support/http.ts"
import { runScript } from "../support/process.ts"
import { PRODUCT_SERVER, signInFirstAdmin, startProduct, type StartedProduct } from "../support/product.ts"

/**
 * A full disk under the embedded database (docs/architecture.md, "A full disk"), on a real small
 * disk: a tmpfs mounted for this file. Below the reserve, changes are refused with 507 and a
 * clear message, reads go on, /api/health says so, and once space is freed changes are taken
 * again with no restart; a start on a full disk says why it cannot start.
 */
const DISK_MB = 128
const RESERVE_MB = 40
const diskFull = "The server's disk is full: changes can't be saved until space is freed. Reading still works."

const freeMb = (path: string) => {
  const stats = statfsSync(path)
  return (stats.bavail * stats.bsize) / 1024 / 1024
}

/** Takes space on the disk with a file of incompressible bytes, until `leaveMb` are left (0: until it is full). */
const fill = (path: string, leaveMb: number) => {
  const fd = openSync(path, "a")
  const chunk = randomBytes(256 * 1024)
  try {
    while (freeMb(path) > leaveMb) writeSync(fd, chunk.subarray(0, Math.min(chunk.length, Math.max(4096, (freeMb(path) - leaveMb) * 1024 * 1024))))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error
  } finally {
    closeSync(fd)
  }
}

describe("a full disk under the embedded database", () => {
  const mount = mkdtempSync(join(tmpdir(), "admin-small-disk-"))
  const dataDir = join(mount, "data")
  const filler = join(mount, "filler")
  let product: StartedProduct
  let token: string

  beforeAll(async () => {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${DISK_MB}m`, "tmpfs", mount])
    mkdirSync(dataDir)
    product = await startProduct({ DISK_RESERVE_MB: String(RESERVE_MB) }, dataDir)
    token = await signInFirstAdmin(product.url, dataDir)
  }, 180_000)
  afterAll(async () => {
    await product?.kill()
    execFileSync("umount", [mount])
    rmSync(mount, { recursive: true, force: true })
  })

  const health = async () =>
    (await call(product.url, "GET", "/api/health")).body as { status: string; disk: { status: string; freeMb: number; reserveMb: number } }
  const post = (title: string) =>
    call(product.url, "POST", "/api/blog/admin/posts", {
      token,
      body: { title, content: `<p>${randomBytes(150_000).toString("base64")}</p>`, status: "draft" }
    })
  const expectRefusedAsFull = (answer: Answer) => {
    expect(answer.status, answer.text).toBe(507)
    expect(answer.body).toMatchObject({ success: false, error: diskFull })
  }

  it("refuses changes with 507 once eight writers bring it under the reserve, and says so on /api/health", async () => {
    expect(await health()).toMatchObject({ status: "ok", disk: { status: "ok", reserveMb: RESERVE_MB } })
    fill(filler, RESERVE_MB + 12)
    const statuses: Array<number> = []
    await Promise.all(
      Array.from({ length: 8 }, async (_, writer) => {
        for (let n = 0; n < 40; n++) {
          const answer = await post(`Writer ${writer} post ${n}`)
          statuses.push(answer.status)
          if (answer.status === 507) return expectRefusedAsFull(answer)
        }
      })
    )
    expect(statuses.filter((status) => status !== 200 && status !== 507)).toEqual([])
    expect(statuses).toContain(507)
    expect(await health()).toMatchObject({ status: "degraded", disk: { status: "low", reserveMb: RESERVE_MB } })
  })

  it("still reads, signs in and refuses every kind of change while the disk is entirely full", async () => {
    fill(filler, 0)
    expect(freeMb(mount)).toBeLessThan(1)
    const listed = await call(product.url, "GET", "/api/blog/posts?status=draft", { token })
    expect(listed.status).toBe(200)
    expect((listed.body.pagination as { total: number }).total).toBeGreaterThan(0)
    expect((await call(product.url, "GET", "/api/admin/analytics", { token })).status).toBe(200)
    expectRefusedAsFull(await post("On a full disk"))
    expectRefusedAsFull(await call(product.url, "POST", "/api/admin/addresses/cex", { token, body: { identifier: "full", name: "Full" } }))
    expectRefusedAsFull(await call(product.url, "POST", "/api/report-scam", { body: { scamType: "other", description: "Public form on a full disk" } }))
    expect((await health()).disk.status).toBe("low")
  })

  it("takes changes again once space is freed, without a restart", async () => {
    rmSync(filler)
    await expect.poll(async () => (await post("After the space came back")).status, { timeout: 30_000 }).toBe(200)
    expect(await health()).toMatchObject({ status: "ok", disk: { status: "ok" } })
    expect(product.run.child.exitCode).toBeNull()
  })

  it("refuses to start on a full disk with one line that says why", async () => {
    await product.stop()
    fill(filler, 0)
    const start = runScript(PRODUCT_SERVER, [], { DATA_DIR: dataDir, PORT: "0", DISK_RESERVE_MB: String(RESERVE_MB) })
    expect(await start.exited).toBe(1)
    const lines = start.errors().trim().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      new RegExp(
        `^Cannot start: the disk that holds ${dataDir.replaceAll("/", "\\/")}\\/db has 0 MB free, and the embedded database needs at least ${RESERVE_MB} MB \\(DISK_RESERVE_MB\\)\\. Free some space and start again\\.$`
      )
    )
    rmSync(filler)
    product = await startProduct({ DISK_RESERVE_MB: String(RESERVE_MB) }, dataDir)
    expect((await call(product.url, "GET", "/api/blog/posts?status=draft", { token: await signInFirstAdmin(product.url, dataDir) })).status).toBe(200)
  })
})
