import { SMTPServer } from "smtp-server"
import { afterAll, describe, expect, it } from "vitest"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { engines, type TestDatabase } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { startTestServer, type TestServer } from "../support/server.ts"

interface Received {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly user: unknown
  readonly data: string
}

/** The one login the mail server takes, when it asks for one. */
const login = { user: "mailer", pass: "s3cret-pass" }

/**
 * A real SMTP server (the `smtp-server` package, docs/decisions.md) on a local port, keeping
 * each message it accepts as a relay would queue it. With `requireLogin` it asks for a login
 * (AUTH PLAIN or LOGIN) before it takes mail, and takes only `login`. Cleartext: STARTTLS is
 * off, as on a relay reached over a private link.
 */
const mailServer = async (options: { readonly requireLogin: boolean }) => {
  const received: Array<Received> = []
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS"],
    hideSTARTTLS: true,
    authOptional: !options.requireLogin,
    allowInsecureAuth: true,
    onAuth: (auth, _session, done) => {
      if (auth.username === login.user && auth.password === login.pass) done(null, { user: auth.username })
      else done(new Error("Invalid username or password"))
    },
    onData: (stream, session, done) => {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        const { mailFrom, rcptTo } = session.envelope
        received.push({
          from: mailFrom === false ? "" : mailFrom.address,
          to: rcptTo.map((recipient) => recipient.address),
          user: session.user,
          data: Buffer.concat(chunks).toString("utf8")
        })
        done()
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.server.address()
  if (address === null || typeof address === "string") throw new Error("the mail server has no port")
  return { port: address.port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

type MailServer = Awaited<ReturnType<typeof mailServer>>

/** Asks for a sign-in code for a new admin; answers the mail server's copy of the mail once it has it. */
const codeMailTo = async (server: TestServer, smtp: MailServer, email: string) => {
  await server.sql(addAdmin(email, "admin"))
  const answer = await call(server.url, "POST", "/api/admin/auth", { body: { email, role: "admin" }, ip: freshIp() })
  expect(answer.status).toBe(200)
  await expect.poll(() => smtp.received.filter((mail) => mail.to.includes(email)).length, { timeout: 15_000 }).toBe(1)
  return { attempt: answer.body.attempt as string, mail: smtp.received.find((mail) => mail.to.includes(email)) }
}

describe("sign-in codes over a real SMTP exchange", () => {
  const opened: Array<{ readonly database: TestDatabase; readonly server: TestServer; readonly smtp: MailServer }> = []

  /**
   * A product server on a database of its own (its mail worker sends only its own outbox) whose
   * mail goes to a new mail server at `SMTP_URL`, with `credentials` in its user part if any.
   */
  const mailingTo = async (options: { readonly requireLogin: boolean; readonly credentials?: string }) => {
    const smtp = await mailServer(options)
    const database = await engines[0]!.fresh()
    const userPart = options.credentials === undefined ? "" : `${options.credentials}@`
    const server = await startTestServer(database, { smtpUrl: `smtp://${userPart}127.0.0.1:${smtp.port}` })
    opened.push({ database, server, smtp })
    return { smtp, server }
  }

  afterAll(async () => {
    for (const { database, server, smtp } of opened) {
      await server.stop()
      await database.drop()
      await smtp.close()
    }
  })

  it("hands the code to the mail server for the right recipient, from the configured sender", async () => {
    const { smtp, server } = await mailingTo({ requireLogin: false })
    const email = "smtp-staff@example.com"
    const { attempt, mail } = await codeMailTo(server, smtp, email)
    expect(mail?.from).toBe("no-reply@localhost")
    expect(mail?.to).toEqual([email])
    const code = /code: (\d{6})/.exec(mail?.data ?? "")?.[1]
    expect(code).toMatch(/^\d{6}$/)
    // The code that crossed the wire is the one that signs in.
    const signedIn = await call(server.url, "POST", "/api/admin/auth", { body: { email, otp: code, attempt }, ip: freshIp() })
    expect(signedIn.status).toBe(200)
    expect(typeof signedIn.body.token).toBe("string")
    // Nothing was written to the outbox folder: SMTP replaced it.
    expect(server.outbox()).toEqual([])
  })

  it("logs in to a mail server that asks for it, with the user and password of SMTP_URL", async () => {
    const { smtp, server } = await mailingTo({ requireLogin: true, credentials: `${login.user}:${login.pass}` })
    const { mail } = await codeMailTo(server, smtp, "smtp-login@example.com")
    expect(mail?.user).toBe(login.user)
    const health = await call(server.url, "GET", "/api/health")
    expect(health.body.mail).toMatchObject({ transport: "smtp", reachable: true, pending: 0, lastError: null })
  })

  it("says so in the health check when the mail server refuses the login, and keeps the code's mail to retry", async () => {
    const { smtp, server } = await mailingTo({ requireLogin: true, credentials: `${login.user}:wrong-pass` })
    const email = "smtp-refused@example.com"
    await server.sql(addAdmin(email, "admin"))
    const answer = await call(server.url, "POST", "/api/admin/auth", { body: { email, role: "admin" }, ip: freshIp() })
    // The answer does not wait for the mail (docs/security.md, "Sign-in"): it is the same.
    expect(answer.status).toBe(200)
    const lastMailError = async () => String(((await call(server.url, "GET", "/api/health")).body.mail as { lastError: unknown }).lastError)
    await expect.poll(lastMailError, { timeout: 15_000 }).toMatch(/Invalid username or password/)
    const health = await call(server.url, "GET", "/api/health")
    expect(health.body.status).toBe("degraded")
    expect(health.body.mail).toMatchObject({ transport: "smtp", reachable: false, pending: 1 })
    expect(smtp.received).toEqual([])
  })
})
