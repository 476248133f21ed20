import { readdirSync, readFileSync } from "node:fs"
import { request } from "node:http"
import { join } from "node:path"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { consoleDir } from "../../server/platform/console.ts"
import { requireBuiltConsole } from "../support/browser.ts"
import { engines } from "../support/database.ts"
import { serverWithStaff } from "../support/session.ts"

interface RawAnswer {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly bytes: Buffer
}

/** A GET that shows the bytes as sent: no client-side decompression. */
const rawGet = (url: string, headers: Record<string, string>): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes: Buffer.concat(chunks) }))
      response.on("error", reject)
    })
      .on("error", reject)
      .end()
  })

const decoded = (answer: RawAnswer) =>
  answer.headers["content-encoding"] === "br"
    ? brotliDecompressSync(answer.bytes)
    : answer.headers["content-encoding"] === "gzip"
      ? gunzipSync(answer.bytes)
      : answer.bytes

describe.each(engines.slice(0, 1))("compression on the wire ($name)", (engine) => {
  const staff = serverWithStaff(engine)

  it("serves the built console's files as Brotli or gzip by Accept-Encoding, with Vary", async () => {
    requireBuiltConsole()
    // The largest script of the build: any compressible file would do, a large one shows the gain.
    const script = readdirSync(join(consoleDir, "assets"))
      .filter((file) => file.endsWith(".js"))
      .map((file) => ({ file, size: readFileSync(join(consoleDir, "assets", file)).length }))
      .sort((a, b) => b.size - a.size)[0]?.file
    expect(script).toBeDefined()
    const original = readFileSync(join(consoleDir, "assets", script ?? ""))
    const path = `${staff.server.url}/assets/${script}`
    const br = await rawGet(path, { "accept-encoding": "gzip, deflate, br" })
    expect(br.headers["content-encoding"]).toBe("br")
    expect(br.headers.vary).toBe("Accept-Encoding")
    expect(br.bytes.length).toBeLessThan(original.length / 3)
    expect(decoded(br).equals(original)).toBe(true)
    const gzip = await rawGet(path, { "accept-encoding": "gzip, br;q=0" })
    expect(gzip.headers["content-encoding"]).toBe("gzip")
    expect(decoded(gzip).equals(original)).toBe(true)
    const plain = await rawGet(path, {})
    expect(plain.headers["content-encoding"]).toBeUndefined()
    expect(plain.bytes.equals(original)).toBe(true)
  })

  it("compresses JSON answers above 1 KiB and leaves small ones alone", async () => {
    for (let n = 0; n < 25; n++) {
      await fetch(`${staff.server.url}/api/admin/addresses/cex`, {
        method: "POST",
        headers: { authorization: `Bearer ${staff.admin}`, "content-type": "application/json" },
        body: JSON.stringify({ identifier: `zip-${n}`, name: `Compressed ${n}`, description: "a description long enough to matter ".repeat(3) })
      })
    }
    const headers = { authorization: `Bearer ${staff.admin}`, "accept-encoding": "br, gzip" }
    const page = await rawGet(`${staff.server.url}/api/admin/addresses/cex`, headers)
    expect(page.status).toBe(200)
    expect(page.headers["content-encoding"]).toBe("br")
    expect(page.headers.vary).toBe("Accept-Encoding")
    const body = JSON.parse(decoded(page).toString("utf8")) as { data: { addresses: Array<unknown> } }
    expect(body.data.addresses).toHaveLength(20)
    expect(page.bytes.length).toBeLessThan(decoded(page).length / 3)
    const gzip = await rawGet(`${staff.server.url}/api/admin/addresses/cex`, { ...headers, "accept-encoding": "gzip" })
    expect(gzip.headers["content-encoding"]).toBe("gzip")
    expect(JSON.parse(decoded(gzip).toString("utf8"))).toEqual(body)
    const small = await rawGet(`${staff.server.url}/api/health`, { "accept-encoding": "br" })
    expect(small.headers["content-encoding"]).toBeUndefined()
    expect(JSON.parse(small.bytes.toString("utf8"))).toMatchObject({ success: true })
  })
})
