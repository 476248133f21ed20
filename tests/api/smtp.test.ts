import { createServer, type Server, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addAdmin } from "../../server/auth/admins.ts"
import { engines, type TestDatabase } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { startTestServer, type TestServer } from "../support/server.ts"

interface Received {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly data: string
}

/**
 * A mail server on a local port speaking the part of SMTP (RFC 5321) a plain submission uses:
 * greeting, EHLO, MAIL, RCPT, DATA, QUIT. Each accepted message is kept, as a relay would queue it.
 */
const smtpListener = async () => {
  const received: Array<Received> = []
  const server: Server = createServer((socket: Socket) => {
    let buffer = ""
    let inData = false
    let from = ""
    let to: Array<string> = []
    let data = ""
    const reply = (line: string) => socket.write(`${line}\r\n`)
    reply("220 localhost ESMTP test")
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8")
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n")
          if (end === -1) return
          data += buffer.slice(0, end)
          buffer = buffer.slice(end + 5)
          inData = false
          received.push({ from, to, data: data.replace(/\r\n\.\./g, "\r\n.") })
          reply("250 2.0.0 queued")
          continue
        }
        const newline = buffer.indexOf("\r\n")
        if (newline === -1) return
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 2)
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === "EHLO" || verb === "HELO") reply("250 localhost")
        else if (verb === "MAIL") {
          from = /<([^>]*)>/.exec(line)?.[1] ?? ""
          to = []
          reply("250 2.1.0 ok")
        } else if (verb === "RCPT") {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? "")
          reply("250 2.1.5 ok")
        } else if (verb === "DATA") {
          inData = true
          data = ""
          reply("354 end with <CRLF>.<CRLF>")
        } else if (verb === "QUIT") {
          reply("221 2.0.0 bye")
          socket.end()
        } else if (verb === "RSET" || verb === "NOOP") reply("250 ok")
        else reply("502 5.5.2 not implemented")
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("the SMTP listener has no port")
  return { port: address.port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe("sign-in codes over a real SMTP exchange", () => {
  let database: TestDatabase
  let server: TestServer
  let smtp: Awaited<ReturnType<typeof smtpListener>>

  beforeAll(async () => {
    smtp = await smtpListener()
    database = await engines[0]!.fresh()
    server = await startTestServer(database, { smtpUrl: `smtp://127.0.0.1:${smtp.port}` })
  })
  afterAll(async () => {
    await server?.stop()
    await database?.drop()
    await smtp?.close()
  })

  it("hands the code to the mail server for the right recipient, from the configured sender", async () => {
    const email = "smtp-staff@example.com"
    await server.sql(addAdmin(email, "admin"))
    const answer = await call(server.url, "POST", "/api/admin/auth", { body: { email, role: "admin" }, ip: freshIp() })
    expect(answer.status).toBe(200)
    await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBe(1)
    const [mail] = smtp.received
    expect(mail?.from).toBe("no-reply@localhost")
    expect(mail?.to).toEqual([email])
    const code = /code: (\d{6})/.exec(mail?.data ?? "")?.[1]
    expect(code).toMatch(/^\d{6}$/)
    // The code that crossed the wire is the one that signs in.
    const signedIn = await call(server.url, "POST", "/api/admin/auth", { body: { email, otp: code, attempt: answer.body.attempt }, ip: freshIp() })
    expect(signedIn.status).toBe(200)
    expect(typeof signedIn.body.token).toBe("string")
    // Nothing was written to the outbox folder: SMTP replaced it.
    expect(server.outbox()).toEqual([])
  })
})
