import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql/SqlClient"
import packageJson from "../../package.json" with { type: "json" }
import { AdminApi } from "../../contract/api.ts"
import type { Health } from "../../contract/system.ts"
import { Database } from "../platform/database.ts"
import { Mailer } from "../platform/mail.ts"
import { mailHealth } from "../platform/mail-outbox.ts"

const startedAt = Date.now()

export const SystemHandlers = HttpApiBuilder.group(
  AdminApi,
  "system",
  Effect.fn(function*(handlers) {
    const sql = yield* SqlClient
    const database = yield* Database
    const mailer = yield* Mailer
    const ping = Effect.gen(function*() {
      const started = performance.now()
      yield* sql`SELECT 1`
      return Math.round((performance.now() - started) * 100) / 100
    }).pipe(Effect.timeout("2 seconds"), Effect.option)
    return handlers.handle("health", () =>
      Effect.map(Effect.all([ping, mailHealth.pipe(Effect.option)]), ([latency, mail]) => ({
        success: true as const,
        status: latency._tag === "Some" && (mail._tag === "None" || mail.value.failedLastDay === 0) ? "ok" as const : "degraded" as const,
        version: packageJson.version,
        database: {
          status: latency._tag === "Some" ? "connected" as const : "disconnected" as const,
          engine: database.engine,
          latencyMs: latency._tag === "Some" ? latency.value : null
        },
        mail: {
          transport: mailer.transport,
          pending: mail._tag === "Some" ? mail.value.pending : 0,
          failedLastDay: mail._tag === "Some" ? mail.value.failedLastDay : 0,
          lastError: mail._tag === "Some" ? mail.value.lastError : null
        },
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000)
      } satisfies Health)))
  })
)
