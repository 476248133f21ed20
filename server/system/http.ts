import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql/SqlClient"
import packageJson from "../../package.json" with { type: "json" }
import { AdminApi } from "../../contract/api.ts"
import type { Health } from "../../contract/system.ts"
import { Database, pingDatabase } from "../platform/database.ts"
import { diskReading } from "../platform/disk.ts"
import { Mailer } from "../platform/mail.ts"
import { mailHealth } from "../platform/mail-outbox.ts"

const startedAt = Date.now()

/** How long a check of the SMTP connection is trusted: a dashboard refreshing every 30 s costs one login a minute. */
const MAIL_CHECK_TTL_MS = 60_000
let mailCheck: { readonly reachable: boolean; readonly at: Date } | undefined

export const SystemHandlers = HttpApiBuilder.group(
  AdminApi,
  "system",
  Effect.fn(function* (handlers) {
    const sql = yield* SqlClient
    const database = yield* Database
    const mailer = yield* Mailer
    const ping = pingDatabase.pipe(Effect.provideService(SqlClient, sql), Effect.timeout("2 seconds"), Effect.option)
    const reachable = Effect.suspend(() => {
      if (mailer.transport === "outbox") return Effect.succeed(undefined)
      if (mailCheck !== undefined && Date.now() - mailCheck.at.getTime() < MAIL_CHECK_TTL_MS) return Effect.succeed(mailCheck)
      return Effect.map(Effect.result(mailer.check), (result) => {
        mailCheck = { reachable: result._tag === "Success", at: new Date() }
        return mailCheck
      })
    })
    return handlers.handle("health", () =>
      Effect.map(
        Effect.all([ping, mailHealth.pipe(Effect.option), reachable, diskReading], { concurrency: "unbounded" }),
        ([latency, mail, smtp, disk]) =>
          ({
            success: true as const,
            status:
              latency._tag === "Some" && smtp?.reachable !== false && (mail._tag === "None" || mail.value.failedLastDay === 0) && !disk.low
                ? ("ok" as const)
                : ("degraded" as const),
            version: packageJson.version,
            database: {
              status: latency._tag === "Some" ? ("connected" as const) : ("disconnected" as const),
              engine: database.engine,
              latencyMs: latency._tag === "Some" ? latency.value : null
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
            uptimeSeconds: Math.round((Date.now() - startedAt) / 1000)
          }) satisfies Health
      )
    )
  })
)
