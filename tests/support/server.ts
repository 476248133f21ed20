import { Context, type Duration, Effect, Exit, Layer, References, Scope } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql/SqlClient"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { serverLayer } from "../../server/app.ts"
import { type AppConfig, parseProxies } from "../../server/platform/config.ts"
import type { Database } from "../../server/platform/database.ts"
import { HistoryKept } from "../../server/platform/record-history.ts"
import { SchedulerInterval } from "../../server/blog/scheduler.ts"
import type { TestDatabase } from "./database.ts"

export interface TestServer {
  readonly url: string
  readonly config: AppConfig
  /** Runs SQL on the server's own database, e.g. to move a code's expiry into the past. */
  readonly sql: <A, E>(effect: Effect.Effect<A, E, SqlClient | Database>) => Promise<A>
  readonly outbox: () => ReadonlyArray<Mail>
  /** The request log's lines so far (server/platform/request-log.ts), as written. */
  readonly requestLog: () => ReadonlyArray<string>
  readonly stop: () => Promise<void>
}

export interface Mail {
  readonly file: string
  readonly to: string
  readonly subject: string
  readonly body: string
}

const header = (raw: string, name: string): string => raw.match(new RegExp(`^${name}: (.*)$`, "mi"))?.[1]?.trim() ?? ""

/** A quoted-printable body as it reads (RFC 2045 §6.7): soft line breaks joined, `=XX` bytes decoded. */
const unquote = (body: string) =>
  Buffer.from(
    body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1"
  ).toString("utf8")

export const readOutbox = (dataDir: string): ReadonlyArray<Mail> => {
  const dir = join(dataDir, "outbox")
  let files: Array<string>
  try {
    // A mail being written is a dot file until it is whole (server/platform/mail.ts).
    files = readdirSync(dir)
      .filter((file) => !file.startsWith("."))
      .sort()
  } catch {
    return []
  }
  return files.map((file) => {
    const raw = readFileSync(join(dir, file), "utf8")
    const body = raw.split(/\n\n/).slice(1).join("\n\n")
    return {
      file,
      to: header(raw, "To"),
      subject: header(raw, "Subject"),
      body: /quoted-printable/i.test(header(raw, "Content-Transfer-Encoding")) ? unquote(body) : body
    }
  })
}

/**
 * Mail leaves after the answer (server/platform/mail-outbox.ts): waits until nothing is waiting to
 * be sent (to `email`, or to anyone), then reads the outbox folder.
 */
export const deliveredOutbox = async (server: TestServer, email?: string): Promise<ReadonlyArray<Mail>> => {
  const until = Date.now() + 15_000
  for (;;) {
    const [row] = await server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ waiting: number }>`
      SELECT count(*)::int AS waiting FROM mail_outbox
      WHERE failed_at IS NULL AND ${email === undefined ? sql`true` : sql`recipient = ${email}`}`
      )
    )
    if (row?.waiting === 0) return server.outbox()
    if (Date.now() > until) throw new Error(`mail ${email === undefined ? "" : `to ${email} `}still waiting after 15 s`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** The newest code mailed to `email`, read from the outbox as a person would read it. */
export const latestCode = async (server: TestServer, email: string): Promise<string> => {
  const mail = (await deliveredOutbox(server, email)).filter((m) => m.to === email && /code: \d{6}/.test(m.subject)).at(-1)
  const code = mail?.subject.match(/(\d{6})/)?.[1]
  if (code === undefined) throw new Error(`no code in the outbox for ${email}`)
  return code
}

/**
 * Starts the real server (HTTP on a free port) on `database`, with a fresh data folder.
 * `historyKept: false` is the history bench's: changes keep no history (record-history.ts).
 */
export const startTestServer = async (
  database: TestDatabase,
  overrides: Partial<AppConfig> = {},
  options: { readonly consoleDir?: string; readonly historyKept?: boolean; readonly schedulerInterval?: Duration.Input } = {}
): Promise<TestServer> => {
  const dataDir = mkdtempSync(join(tmpdir(), "admin-test-"))
  const config: AppConfig = {
    port: 0,
    host: "127.0.0.1",
    dataDir,
    databaseUrl: database.target.engine === "postgresql" ? database.target.url : undefined,
    smtpUrl: undefined,
    mailFrom: "Admin Console <no-reply@localhost>",
    adminEmail: "admin@example.com",
    // The tests set X-Forwarded-For from this machine: loopback is their proxy.
    trustedProxies: parseProxies("127.0.0.1,::1") ?? [],
    otpSecret: undefined,
    otpResponseFloorMs: 50,
    // The tests' data folders share the machine's disk with everything else on it.
    diskReserveMb: 0,
    ...overrides
  }
  const logged: Array<string> = []
  const layer = serverLayer(config, { database: database.target, requestLog: (line) => void logged.push(line), consoleDir: options.consoleDir }).pipe(
    Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn")),
    Layer.provide(Layer.succeed(HistoryKept, options.historyKept ?? true)),
    Layer.provide(Layer.succeed(SchedulerInterval, options.schedulerInterval ?? SchedulerInterval.defaultValue()))
  )
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const address = Context.get(context, HttpServer.HttpServer).address
  const port = "port" in address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    config,
    sql: (effect) => Effect.runPromise(Effect.provideContext(effect, context)),
    outbox: () => readOutbox(dataDir),
    requestLog: () => logged,
    stop: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
