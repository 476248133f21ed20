import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { MAX_IMAGE_BYTES, uploadMessages } from "../spec/texts.ts"
import { imageMessages, inspectImage } from "../../server/uploads/image.ts"
import { CHUNK_BYTES } from "../../server/uploads/repository.ts"
import { engines } from "../support/database.ts"
import { freshIp } from "../support/http.ts"
import * as images from "../support/images.ts"
import { startTestServer } from "../support/server.ts"
import { serverWithStaff } from "../support/session.ts"

describe.each(engines)("image upload on $name", (engine) => {
  const staff = serverWithStaff(engine)

  const upload = async (bytes: Uint8Array, name: string, options: { type?: string; token?: string | null; mime?: string } = {}) => {
    const form = new FormData()
    form.set("image", new Blob([Uint8Array.from(bytes)], { type: options.mime ?? "application/octet-stream" }), name)
    form.set("type", options.type ?? "blog")
    const token = options.token === undefined ? staff.admin : options.token
    const response = await fetch(`${staff.server.url}/api/upload/image`, {
      method: "POST",
      body: form,
      headers: { "x-forwarded-for": freshIp(), ...(token === null ? {} : { authorization: `Bearer ${token}` }) }
    })
    return { status: response.status, body: (await response.json()) as { success: boolean; url?: string; error?: string } }
  }

  const fetchStored = async (url: string) => {
    const response = await fetch(`${staff.server.url}${url}`)
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) }
  }

  it.each([
    ["JPEG", images.smallJpeg, "photo.jpg", "jpg", "image/jpeg"],
    ["PNG", images.smallPng, "shot.png", "png", "image/png"],
    ["GIF", images.smallGif, "tiny.gif", "gif", "image/gif"],
    ["WebP", images.smallWebp, "pic.webp", "webp", "image/webp"]
  ] as const)("accepts a real %s, names it itself and serves it with its real type, nosniff and long caching", async (_, make, name, extension, mime) => {
    const answer = await upload(make(), name)
    expect(answer.status).toBe(200)
    expect(answer.body.success).toBe(true)
    expect(answer.body.url).toMatch(new RegExp(`^/uploads/blog/[0-9a-f]{32}\\.${extension}$`))
    const { response, bytes } = await fetchStored(answer.body.url!)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe(mime)
    expect(response.headers.get("x-content-type-options")).toBe("nosniff")
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(response.headers.get("content-security-policy")).toContain("sandbox")
    const again = inspectImage(bytes)
    expect(again.ok && Buffer.from(again.bytes).equals(Buffer.from(bytes))).toBe(true)
  })

  it("strips metadata from each format and keeps a JPEG's orientation", async () => {
    const cases = [
      images.withJpegSegment(images.withJpegSegment(images.smallJpeg(), images.jpegComment("Secret comment")), images.exifSegment(6, "SecretCam 9000")),
      images.withPngChunk(images.smallPng(), images.pngChunk("tEXt", images.bytesOf("Author\0Secret Person"))),
      images.withWebpChunk(images.smallWebp(), "EXIF", images.bytesOf("SecretCam GPS 51.5N")),
      images.withGifComment(images.smallGif(), "Secret author")
    ]
    for (const bytes of cases) {
      expect(images.includes(bytes, "Secret")).toBe(true)
      const answer = await upload(bytes, "with-metadata.bin")
      expect(answer.status).toBe(200)
      const stored = await fetchStored(answer.body.url!)
      expect(images.includes(stored.bytes, "Secret")).toBe(false)
    }
    const jpeg = await fetchStored((await upload(cases[0]!, "rotated.jpg")).body.url!)
    // The only EXIF left is the orientation tag (6: rotate 90° clockwise).
    expect(images.includes(jpeg.bytes, "Exif")).toBe(true)
    expect(Buffer.from(jpeg.bytes).includes(Buffer.from([0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0, 6]))).toBe(true)
  })

  it("handles a PNG renamed .jpg by its content", async () => {
    const answer = await upload(images.smallPng(), "renamed.jpg", { mime: "image/jpeg" })
    expect(answer.status).toBe(200)
    expect(answer.body.url).toMatch(/\.png$/)
    expect((await fetchStored(answer.body.url!)).response.headers.get("content-type")).toBe("image/png")
  })

  it("refuses SVG, a script with an image name, markup in metadata and damaged files, each with a message", async () => {
    const svg = images.bytesOf(`<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>`)
    const refusals: ReadonlyArray<readonly [Uint8Array, string, number, string]> = [
      [svg, "logo.png", 415, imageMessages.svg],
      [images.bytesOf("alert(document.cookie)"), "cute.jpg", 415, imageMessages.notAnImage],
      [images.bytesOf("<html><script>alert(1)</script></html>"), "cat.gif", 415, imageMessages.notAnImage],
      [
        images.withPngChunk(images.smallPng(), images.pngChunk("tEXt", images.bytesOf("c\0<html><body onload=alert(1)>"))),
        "text.png",
        400,
        imageMessages.foreignData
      ],
      [images.withJpegSegment(images.smallJpeg(), images.jpegComment("<script>alert(1)</script>")), "comment.jpg", 400, imageMessages.foreignData],
      [images.withGifComment(images.smallGif(), "<svg onload=alert(1)>"), "comment.gif", 400, imageMessages.foreignData],
      [images.smallPng().subarray(0, 600), "cut.png", 400, imageMessages.damaged],
      [images.smallJpeg().subarray(0, 700), "cut.jpg", 400, imageMessages.damaged]
    ]
    for (const [bytes, name, status, error] of refusals) {
      const answer = await upload(bytes, name)
      expect({ name, status: answer.status, body: answer.body }).toEqual({ name, status, body: { _tag: expect.any(String), success: false, error } })
    }
  })

  it("cuts what follows the end marker (gain maps, motion photos, polyglot payloads) and stores the picture", async () => {
    const stored = async (bytes: Uint8Array, name: string) => {
      const answer = await upload(bytes, name)
      expect({ name, status: answer.status }).toEqual({ name, status: 200 })
      return (await fetchStored(answer.body.url!)).bytes
    }
    const cases: ReadonlyArray<readonly [Uint8Array, Uint8Array, string]> = [
      [images.smallJpeg(), images.join(images.smallJpeg(), images.smallJpeg()), "ultra-hdr.jpg"],
      [images.smallJpeg(), images.join(images.smallJpeg(), images.bytesOf("ftypmp42 motion video")), "motion.jpg"],
      [images.smallJpeg(), images.join(images.smallJpeg(), images.bytesOf("PK\u0003\u0004archive")), "jar.jpg"],
      [images.smallPng(), images.join(images.smallPng(), images.bytesOf("<script>alert(1)</script>")), "polyglot.png"],
      [images.smallGif(), images.join(images.smallGif(), images.bytesOf("*/=1;alert(1)//")), "gifar.gif"],
      [images.smallWebp(), images.join(images.smallWebp(), images.bytesOf("<html>")), "tail.webp"]
    ]
    for (const [plain, withTail, name] of cases) {
      expect(Buffer.from(await stored(withTail, name)).equals(Buffer.from(await stored(plain, `plain-${name}`)))).toBe(true)
    }
  })

  it("accepts a photo whose compressed data happens to spell markup: only metadata is scanned", async () => {
    const picture = images.storedPng(64, 16, images.bytesOf("<svg onload=alert(1)><script>"))
    expect(images.includes(picture, "<svg")).toBe(true)
    expect((await upload(picture, "lucky.png")).status).toBe(200)
  })

  it("refuses a picture over 40 megapixels from its header, before decoding anything", async () => {
    const bomb = images.storedPng(8_000, 5_001, new Uint8Array(0), { claimOnly: true })
    const answer = await upload(bomb, "bomb.png")
    expect(answer).toMatchObject({ status: 400, body: { error: imageMessages.tooManyPixels } })
    const wideJpeg = images.withJpegSize(images.smallJpeg(), 9_000, 5_000)
    expect((await upload(wideJpeg, "wide.jpg")).body.error).toBe(imageMessages.tooManyPixels)
    expect((await upload(images.withJpegSize(images.smallJpeg(), 6_000, 6_000), "36mp.jpg")).status).toBe(200)
  })

  it("refuses 5 MB + 1 byte with 413 and the spec's message, and a far larger body unread", async () => {
    const justOver = new Uint8Array(MAX_IMAGE_BYTES + 1)
    justOver.set(images.smallPng())
    const over = await upload(justOver, "big.png")
    expect(over.status).toBe(413)
    expect(over.body.error).toBe(uploadMessages.tooLarge)
    const huge = await upload(new Uint8Array(12 * 1024 * 1024), "huge.png").catch(() => undefined)
    // The server may close the connection before the client finishes sending; when it answers, it is 413.
    if (huge !== undefined) expect(huge).toMatchObject({ status: 413, body: { error: uploadMessages.tooLarge } })
    const exactly = images.join(images.smallPng())
    expect((await upload(exactly, "ok.png")).status).toBe(200)
  })

  it("checks the caller, the fields and the body type", async () => {
    expect((await upload(images.smallPng(), "a.png", { token: null })).status).toBe(401)
    const moderator = await upload(images.smallPng(), "a.png", { token: staff.moderator })
    expect(moderator).toMatchObject({ status: 403, body: { error: uploadMessages.readOnly } })
    expect(await upload(images.smallPng(), "a.png", { type: "../../etc" })).toMatchObject({ status: 400, body: { error: uploadMessages.badType } })
    const form = new FormData()
    form.set("type", "blog")
    const noFile = await fetch(`${staff.server.url}/api/upload/image`, {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${staff.admin}` }
    })
    expect(noFile.status).toBe(400)
    expect(((await noFile.json()) as { error: string }).error).toBe(uploadMessages.missingFile)
    const json = await fetch(`${staff.server.url}/api/upload/image`, {
      method: "POST",
      body: "{}",
      headers: { authorization: `Bearer ${staff.admin}`, "content-type": "application/json" }
    })
    expect(json.status).toBe(415)
  })

  it("reads four uploads at a time with twelve in line, and turns the next away at once with 503 and a wait", async () => {
    // Each held upload has sent its headers and half its body, then stalls: it keeps its place.
    const image = images.smallPng()
    const boundary = "----held-upload-boundary"
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nblog\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="held.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.from(image),
      Buffer.from(`\r\n--${boundary}--\r\n`)
    ])
    const { port } = new URL(staff.server.url)
    const held = Array.from({ length: 16 }, () => {
      const request = httpRequest({
        host: "127.0.0.1",
        port: Number(port),
        method: "POST",
        path: "/api/upload/image",
        headers: { authorization: `Bearer ${staff.admin}`, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": body.length }
      })
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        request.on("response", (response) => {
          let text = ""
          response.on("data", (chunk: Buffer) => (text += chunk.toString()))
          response.on("end", () => resolve({ status: response.statusCode ?? 0, text }))
        })
        request.on("error", reject)
      })
      request.write(body.subarray(0, body.length >> 1))
      return { request, answer }
    })
    // Once the sixteen are past the token check, the next is turned away (a probe that comes
    // earlier simply goes through, and frees its place).
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    let turnedAway = await upload(image, "one-too-many.png")
    await expect.poll(async () => (turnedAway = turnedAway.status === 503 ? turnedAway : await upload(image, "one-too-many.png")).status).toBe(503)
    expect(turnedAway.body).toMatchObject({ success: false, error: uploadMessages.busy, retryAfterSeconds: 5 })
    for (const { request } of held) request.end(body.subarray(body.length >> 1))
    const answers = await Promise.all(held.map(({ answer }) => answer))
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 16 }, () => 200))
    // Once they are done, an upload goes through again.
    expect((await upload(image, "after.png")).status).toBe(200)
  })

  it("serves only names it gave", async () => {
    for (const path of ["/uploads/blog/../../secret.key", "/uploads/blog/secret.key", `/uploads/blog/${"0".repeat(32)}.png`, "/uploads/x/abc.png"]) {
      const response = await fetch(`${staff.server.url}${path}`)
      expect(response.status, path).toBe(404)
      expect(response.headers.get("content-type") ?? "").not.toMatch(/^image\//)
    }
  })

  it("keeps what it stores in the database, not on the server's disk: type, size, hash and bytes", async () => {
    const image = images.noisePng(300, 1000)
    const answer = await upload(image, "stored.png")
    expect(answer.status).toBe(200)
    const path = answer.body.url!.slice("/uploads/".length)
    const [row] = await staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ mime: string; size: number; sha256: string; chunks: number }>`
        SELECT mime, size, sha256, (SELECT count(*)::int FROM upload_chunks c WHERE c.path = u.path) AS chunks FROM uploads u WHERE path = ${path}`
      )
    )
    const served = await fetchStored(answer.body.url!)
    expect(row).toEqual({
      mime: "image/png",
      size: served.bytes.length,
      sha256: createHash("sha256").update(served.bytes).digest("hex"),
      chunks: Math.ceil(served.bytes.length / CHUNK_BYTES)
    })
    expect(row!.chunks).toBeGreaterThan(1)
    expect(existsSync(join(staff.server.config.dataDir, "uploads"))).toBe(false)
  })

  it("answers a download with an ETag (304 when it matches), one byte range (206, 416 past the end), HEAD, and the whole file for any other range", async () => {
    const image = images.noisePng(300, 1000)
    const url = (await upload(image, "ranged.png")).body.url!
    const whole = await fetchStored(url)
    const size = whole.bytes.length
    const etag = whole.response.headers.get("etag")!
    expect(etag).toBe(`"${createHash("sha256").update(whole.bytes).digest("hex")}"`)
    expect(whole.response.headers.get("accept-ranges")).toBe("bytes")
    expect(whole.response.headers.get("content-length")).toBe(String(size))

    const get = (headers: Record<string, string>, method = "GET") => fetch(`${staff.server.url}${url}`, { method, headers })
    const cached = await get({ "if-none-match": `"other", ${etag}` })
    expect([cached.status, cached.headers.get("etag"), (await cached.arrayBuffer()).byteLength]).toEqual([304, etag, 0])
    expect((await get({ "if-none-match": '"other"' })).status).toBe(200)

    // Ranges that start and end inside chunks and across their borders, a suffix and an open end.
    const cases: ReadonlyArray<readonly [string, number, number]> = [
      ["bytes=0-99", 0, 99],
      [`bytes=${CHUNK_BYTES - 10}-${CHUNK_BYTES + 9}`, CHUNK_BYTES - 10, CHUNK_BYTES + 9],
      [`bytes=${CHUNK_BYTES}-`, CHUNK_BYTES, size - 1],
      ["bytes=-500", size - 500, size - 1],
      [`bytes=10-${size * 2}`, 10, size - 1]
    ]
    for (const [range, start, end] of cases) {
      const part = await get({ range })
      const bytes = new Uint8Array(await part.arrayBuffer())
      expect([range, part.status, part.headers.get("content-range"), part.headers.get("content-length")]).toEqual([
        range,
        206,
        `bytes ${start}-${end}/${size}`,
        String(end - start + 1)
      ])
      expect(Buffer.from(bytes).equals(Buffer.from(whole.bytes.subarray(start, end + 1))), range).toBe(true)
    }
    const past = await get({ range: `bytes=${size}-` })
    expect([past.status, past.headers.get("content-range")]).toEqual([416, `bytes */${size}`])
    for (const range of ["bytes=0-1,5-9", "bytes=9-1", "items=0-1", "bytes=x-"]) {
      const answer = await get({ range })
      expect([range, answer.status, (await answer.arrayBuffer()).byteLength]).toEqual([range, 200, size])
    }
    // A range of another copy is the whole of this one.
    expect((await get({ range: "bytes=0-9", "if-range": '"older"' })).status).toBe(200)
    expect((await get({ range: "bytes=0-9", "if-range": etag })).status).toBe(206)
    const head = await get({}, "HEAD")
    expect([head.status, head.headers.get("content-length"), head.headers.get("content-type"), (await head.arrayBuffer()).byteLength]).toEqual([
      200,
      String(size),
      "image/png",
      0
    ])
  })
})

describe.each(engines)("images kept on the disk by an older server, on $name", (engine) => {
  it("are moved into the database at start, served under the same URLs, and the old folder is set aside", async () => {
    const database = await engine.fresh()
    const dataDir = mkdtempSync(join(tmpdir(), "admin-uploads-"))
    const names = { png: `${"a".repeat(32)}.png`, jpeg: `${"b".repeat(32)}.jpg` }
    const files = { png: images.smallPng(), jpeg: images.smallJpeg() }
    mkdirSync(join(dataDir, "uploads", "blog"), { recursive: true })
    mkdirSync(join(dataDir, "uploads", "listings"), { recursive: true })
    writeFileSync(join(dataDir, "uploads", "blog", names.png), files.png)
    writeFileSync(join(dataDir, "uploads", "listings", names.jpeg), files.jpeg)
    // A write the old server never finished is not an upload.
    writeFileSync(join(dataDir, "uploads", "blog", `.${"c".repeat(32)}.png.partial`), "half")
    const server = await startTestServer(database, { dataDir })
    try {
      for (const [path, bytes, mime] of [
        [`/uploads/blog/${names.png}`, files.png, "image/png"],
        [`/uploads/listings/${names.jpeg}`, files.jpeg, "image/jpeg"]
      ] as const) {
        const response = await fetch(`${server.url}${path}`)
        expect([path, response.status, response.headers.get("content-type")]).toEqual([path, 200, mime])
        expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
      }
      expect(readdirSync(dataDir).filter((entry) => entry.startsWith("uploads"))).toEqual(["uploads.moved-to-database"])
    } finally {
      await server.stop()
      await database.drop()
    }
  })
})

describe.runIf(engines.length > 1)("images on a disk two servers share, on postgresql", () => {
  it("are moved in once when both servers start at the same moment, and both serve every one", async () => {
    const database = await engines[1]!.fresh()
    const dataDir = mkdtempSync(join(tmpdir(), "admin-uploads-shared-"))
    const files = Array.from({ length: 40 }, (_, n) => ({
      name: `${n.toString(16).padStart(32, "0")}.png`,
      bytes: images.storedPng(8, 8 + n, new Uint8Array(0))
    }))
    mkdirSync(join(dataDir, "uploads", "blog"), { recursive: true })
    for (const file of files) writeFileSync(join(dataDir, "uploads", "blog", file.name), file.bytes)
    const servers = await Promise.all([startTestServer(database, { dataDir }), startTestServer(database, { dataDir })])
    try {
      for (const server of servers) {
        for (const file of files) {
          const response = await fetch(`${server.url}/uploads/blog/${file.name}`)
          expect(response.status).toBe(200)
          expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(file.bytes))).toBe(true)
        }
      }
      const [row] = await servers[0].sql(Effect.flatMap(SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM uploads`))
      expect(row?.n).toBe(files.length)
      expect(readdirSync(dataDir).filter((entry) => entry.startsWith("uploads"))).toEqual(["uploads.moved-to-database"])
    } finally {
      for (const server of servers) await server.stop()
      await database.drop()
    }
  })
})
