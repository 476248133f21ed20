import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

export const DatabaseStatus = Schema.Literals(["connected", "disconnected"])
export type DatabaseStatus = typeof DatabaseStatus.Type

export const Health = Schema.Struct({
  success: Schema.Literal(true),
  status: Schema.Literals(["ok", "degraded"]),
  version: Schema.String,
  database: Schema.Struct({
    status: DatabaseStatus,
    engine: Schema.Literals(["pglite", "postgresql"]),
    latencyMs: Schema.NullOr(Schema.Finite)
  }),
  mail: Schema.Struct({
    transport: Schema.Literals(["outbox", "smtp"]),
    /** Mails waiting to be sent or retried. */
    pending: Schema.Int,
    /** Mails given up on in the last 24 hours. */
    failedLastDay: Schema.Int,
    lastError: Schema.NullOr(Schema.String),
    /** The last check of the SMTP connection (cached for a minute); null with the outbox, which needs none. */
    reachable: Schema.NullOr(Schema.Boolean),
    checkedAt: Schema.NullOr(Schema.String)
  }),
  /** The disk under the data folder: below the reserve, changes are refused with 507 until space is freed. */
  disk: Schema.Struct({
    status: Schema.Literals(["ok", "low"]),
    freeMb: Schema.Int,
    reserveMb: Schema.Int
  }),
  uptimeSeconds: Schema.Finite
})
export type Health = typeof Health.Type

export class SystemApi extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("health", "/api/health", { success: Health }).annotate(OpenApi.Summary, "Health of the database, mail and server"))
  .annotate(OpenApi.Title, "System")
  .annotate(OpenApi.Description, "Health and version.") {}
