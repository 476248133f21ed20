import { Effect, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { SqlClient } from "effect/sql/SqlClient"
import { timingSafeEqual } from "node:crypto"
import packageJson from "../../package.json" with { type: "json" }
import { AdminApi } from "../../contract/api.ts"
import { Forbidden, NotFound, ServiceBusy } from "../../contract/common.ts"
import { type Health, METRICS_PATH, metricsMessages, serverStates } from "../../contract/system.ts"
import { fromThisHost } from "../platform/client-address.ts"
import { Config } from "../platform/config.ts"
import { connectionsByState, Database, databaseSizeMb, pingDatabase } from "../platform/database.ts"
import { diskReading } from "../platform/disk.ts"
import { ServerLifecycle } from "../platform/lifecycle.ts"
import { Mailer } from "../platform/mail.ts"
import { mailHealth } from "../platform/mail-outbox.ts"
import { CHANGE_STREAMS_OPEN, type Gauge, ServerMetrics } from "../platform/metrics.ts"
import { ServerWrites } from "../platform/write-outcomes.ts"

const startedAt = Date.now()

/** How long a check of the SMTP connection is trusted: a dashboard refreshing every 30 s costs one login a minute. */
const MAIL_CHECK_TTL_MS = 60_000

export const SystemHandlers = HttpApiBuilder.group(
  AdminApi,
  "system",
  Effect.fn(function* (handlers) {
    const context = yield* Effect.context<SqlClient | Database | Config>()
    const database = yield* Database
    const mailer = yield* Mailer
    const ping = pingDatabase.pipe(Effect.provideContext(context), Effect.timeout("2 seconds"), Effect.option)
    // Readiness answers within a second, whatever the database does (docs/deploy.md, "Health").
    const readyPing = pingDatabase.pipe(Effect.provideContext(context), Effect.timeout("1 second"), Effect.option)
    const size = databaseSizeMb.pipe(Effect.provideContext(context), Effect.timeout("2 seconds"), Effect.option)
    const writes = yield* ServerWrites
    // This server's own mailer's: a process running several servers (the tests) keeps one each.
    let mailCheck: { readonly reachable: boolean; readonly at: Date } | undefined
    const reachable = Effect.suspend(() => {
      if (mailer.transport === "outbox") return Effect.succeed(undefined)
      if (mailCheck !== undefined && Date.now() - mailCheck.at.getTime() < MAIL_CHECK_TTL_MS) return Effect.succeed(mailCheck)
      return Effect.map(Effect.result(mailer.check), (result) => {
        mailCheck = { reachable: result._tag === "Success", at: new Date() }
        return mailCheck
      })
    })
    const lifecycle = yield* ServerLifecycle
    const metrics = yield* ServerMetrics
    const config = yield* Config
    const run = <A>(effect: Effect.Effect<A, unknown, SqlClient | Database | Config>) => Effect.runPromise(Effect.provideContext(effect, context))
    const gauges: ReadonlyArray<Gauge> = [
      {
        name: CHANGE_STREAMS_OPEN,
        help: "Change streams (server-sent events) open on this server.",
        read: () => [{ value: metrics.level(CHANGE_STREAMS_OPEN).value() }]
      },
      {
        name: "mail_outbox_pending",
        help: "Mails waiting to be sent or retried, by every server on this database.",
        read: async () => [{ value: (await run(mailHealth)).pending }]
      },
      {
        name: "db_pool_connections",
        help: "This server's database connections, by state.",
        read: async () => (await run(connectionsByState)).map(({ state, count }) => ({ labels: { state }, value: count }))
      },
      { name: "db_pool_max_connections", help: "The connections this server may open at most.", read: () => [{ value: database.maxConnections }] },
      { name: "server_draining", help: "1 while this server is stopping.", read: () => [{ value: lifecycle.draining() ? 1 : 0 }] },
      { name: "process_resident_memory_bytes", help: "Resident memory of this server's process.", read: () => [{ value: process.memoryUsage.rss() }] },
      { name: "process_uptime_seconds", help: "Seconds since this server started.", read: () => [{ value: Math.round((Date.now() - startedAt) / 1000) }] }
    ]
    /** The bearer token METRICS_TOKEN names, compared in constant time. */
    const tokenMatches = (header: string | undefined) => {
      const expected = config.metricsToken === undefined ? undefined : Buffer.from(Redacted.value(config.metricsToken))
      const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? "")?.[1]?.trim() ?? "")
      return expected !== undefined && given.length === expected.length && timingSafeEqual(given, expected)
    }
    return handlers
      .handle("live", () => Effect.succeed({ success: true as const, status: "alive" as const }))
      .handle("ready", () =>
        Effect.gen(function* () {
          if (lifecycle.draining()) return yield* new ServiceBusy({ error: serverStates.stopping, retryAfterSeconds: 1 })
          if ((yield* readyPing)._tag === "None") return yield* new ServiceBusy({ error: serverStates.databaseDown, retryAfterSeconds: 5 })
          return { success: true as const, status: "ready" as const }
        })
      )
      .handle("metrics", () =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          // The router folds case, slashes, escapes and a `;` parameter onto this route; a proxy
          // that keeps the public from /metrics blocks one spelling (docs/deploy.md, "Metrics").
          if (request.url.split("?")[0] !== METRICS_PATH) return yield* new NotFound({ error: metricsMessages.notHere })
          const local = yield* Effect.provideService(fromThisHost, Config, config)
          if (!local && !tokenMatches(request.headers.authorization)) return yield* new Forbidden({ error: metricsMessages.refused })
          return yield* Effect.promise(() => metrics.render(gauges))
        })
      )
      .handle("health", () =>
        Effect.map(
          Effect.all([ping, mailHealth.pipe(Effect.option), reachable, diskReading, size], { concurrency: "unbounded" }),
          ([latency, mail, smtp, disk, sizeMb]) => {
            const written = writes.current()
            return {
              success: true as const,
              status:
                latency._tag === "Some" &&
                smtp?.reachable !== false &&
                (mail._tag === "None" || mail.value.failedLastDay === 0) &&
                !disk.low &&
                !written.failing
                  ? ("ok" as const)
                  : ("degraded" as const),
              version: packageJson.version,
              database: {
                status: latency._tag === "Some" ? ("connected" as const) : ("disconnected" as const),
                engine: database.engine,
                latencyMs: latency._tag === "Some" ? latency.value : null,
                sizeMb: sizeMb._tag === "Some" ? sizeMb.value : null
              },
              mail: {
                transport: mailer.transport,
                pending: mail._tag === "Some" ? mail.value.pending : 0,
                failedLastDay: mail._tag === "Some" ? mail.value.failedLastDay : 0,
                lastError: mail._tag === "Some" ? mail.value.lastError : null,
                reachable: smtp?.reachable ?? null,
                checkedAt: smtp?.at.toISOString() ?? null
              },
              disk: { status: disk.low ? ("low" as const) : ("ok" as const), freeMb: disk.freeMb, reserveMb: disk.reserveMb },
              writes: { status: written.failing ? ("failing" as const) : ("ok" as const), lastRefusedAt: written.lastRefusedAt?.toISOString() ?? null },
              uptimeSeconds: Math.round((Date.now() - startedAt) / 1000)
            } satisfies Health
          }
        )
      )
  })
)
