import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Forbidden, NotFound, ServiceBusy } from "./common.ts"

export const DatabaseStatus = Schema.Literals(["connected", "disconnected"])
export type DatabaseStatus = typeof DatabaseStatus.Type

export const Health = Schema.Struct({
  success: Schema.Literal(true),
  status: Schema.Literals(["ok", "degraded"]),
  version: Schema.String,
  database: Schema.Struct({
    status: DatabaseStatus,
    engine: Schema.Literals(["pglite", "postgresql"]),
    latencyMs: Schema.NullOr(Schema.Finite),
    /** The database's size on its disk (`pg_database_size`); null when it does not answer. */
    sizeMb: Schema.NullOr(Schema.Int)
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
  /**
   * Room to write (docs/architecture.md, "A full disk"). Embedded: the disk under the data folder;
   * below the reserve, changes are refused with 507 until space is freed. PostgreSQL: its own disk,
   * which the server cannot measure (`freeMb` and `reserveMb` are null); `low` while writes fail for want of space.
   */
  disk: Schema.Struct({
    status: Schema.Literals(["ok", "low"]),
    freeMb: Schema.NullOr(Schema.Int),
    reserveMb: Schema.NullOr(Schema.Int)
  }),
  /** This server's writes: `failing` while the database refused the last one for want of space and none has succeeded since. */
  writes: Schema.Struct({
    status: Schema.Literals(["ok", "failing"]),
    /** When the database last refused one of this server's writes for want of space; null if it has not since the server started. */
    lastRefusedAt: Schema.NullOr(Schema.String)
  }),
  uptimeSeconds: Schema.Finite
})
export type Health = typeof Health.Type

/** The process answers: it need not be restarted (docs/deploy.md, "Health"). */
export const Alive = Schema.Struct({ success: Schema.Literal(true), status: Schema.Literal("alive") })

/** The server takes work: its database answers and it is not stopping. */
export const Ready = Schema.Struct({ success: Schema.Literal(true), status: Schema.Literal("ready") })

export const serverStates = {
  stopping: "This server is stopping: send requests to another one.",
  databaseDown: "This server's database does not answer in time."
} as const

export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

/** Prometheus's text exposition format (docs/api.md, "Health and metrics"). */
const MetricsText = Schema.String.pipe(HttpApiSchema.asText({ contentType: METRICS_CONTENT_TYPE }))

export const METRICS_PATH = "/metrics"

export const metricsMessages = {
  refused: "Metrics are read from this host, or with the bearer token METRICS_TOKEN names",
  notHere: `Metrics are at ${METRICS_PATH}, spelled exactly so`
} as const

export class SystemApi extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("health", "/api/health", { success: Health }).annotate(OpenApi.Summary, "Health of the database, mail and server"))
  .add(HttpApiEndpoint.get("live", "/api/health/live", { success: Alive }).annotate(OpenApi.Summary, "Liveness: the process answers"))
  .add(
    HttpApiEndpoint.get("ready", "/api/health/ready", { success: Ready, error: ServiceBusy }).annotate(
      OpenApi.Summary,
      "Readiness: the database answers and the server is not stopping (503 otherwise)"
    )
  )
  .add(
    HttpApiEndpoint.get("metrics", METRICS_PATH, { success: MetricsText, error: [Forbidden, NotFound] })
      .annotate(OpenApi.Summary, "The server's metrics in Prometheus's text format")
      .annotate(
        OpenApi.Description,
        "Requests by route and status, their latency, open change streams, the mail outbox and the database pool. " +
          "Answered to the server's own host, or to a bearer token equal to METRICS_TOKEN; 403 otherwise. " +
          "Only at /metrics exactly: another spelling the router would fold onto it (case, slashes, `;`) is a 404."
      )
  )
  .annotate(OpenApi.Title, "System")
  .annotate(OpenApi.Description, "Health and version.") {}
