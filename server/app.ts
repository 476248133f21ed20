import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { createServer } from "node:http"
import { AdminApi } from "../contract/api.ts"
import { AddressSearchHandlers, CexAddressHandlers, CoreTeamAddressHandlers, GeneratedAddressHandlers } from "./addresses/http.ts"
import { addAdmin, countAdmins } from "./admin-users/repository.ts"
import { BlogAdminHandlers, BlogPublicHandlers } from "./blog/http.ts"
import { CommunityHandlers, InfluencerHandlers, ListingsAdminHandlers, ListingsPublicAdminHandlers, ListingsPublicHandlers } from "./listings/http.ts"
import { BusinessHandlers, ProjectHandlers, StartupHandlers, VentureModerationHandlers, VenturesPublicHandlers } from "./ventures/http.ts"
import { EventsHandlers } from "./events/http.ts"
import { ActivityHandlers, AnalyticsHandlers } from "./activity/http.ts"
import { AdminUserHandlers } from "./admin-users/http.ts"
import { AllowedIpHandlers } from "./allowed-ips/http.ts"
import { listenForAllowedIps } from "./allowed-ips/repository.ts"
import { ProtectedDataHandlers } from "./protected-data/http.ts"
import { SessionHandlers } from "./sessions/http.ts"
import { PasskeyHandlers } from "./auth/passkeys.ts"
import { PasskeySignInHandlers } from "./auth/passkey-sign-in.ts"
import { ConfirmHandlers } from "./auth/confirm.ts"
import { listenForRevocations } from "./sessions/cache.ts"
import { SiteSettingsHandlers } from "./site-settings/http.ts"
import { ScamReportHandlers } from "./scam-reports/http.ts"
import { StreamHandlers } from "./stream/http.ts"
import { ContactHandlers } from "./contacts/http.ts"
import { AdvertisingHandlers } from "./advertising/http.ts"
import { changeFeedLayer, CommittedChanges } from "./platform/change-feed.ts"
import { liveChangesLayer } from "./stream/changes.ts"
import { schedulerLayer } from "./blog/scheduler.ts"
import { AuthHandlers, AuthorizationLive } from "./auth/http.ts"
import { PublicFormLive } from "./auth/public-forms.ts"
import { PublicReadLive } from "./auth/public-reads.ts"
import { SignIn } from "./auth/sign-in.ts"
import { adminChannelLayer } from "./platform/admin-channel.ts"
import { executeAdminCommand } from "./cli/admin-commands.ts"
import { API_DOCS_PATH, apiDocs } from "./platform/api-docs.ts"
import { drainFirst, makeLifecycle, ServerLifecycle } from "./platform/lifecycle.ts"
import { makeMetrics, ServerMetrics } from "./platform/metrics.ts"
import { makeWriteOutcomes, ServerWrites } from "./platform/write-outcomes.ts"
import { endpointsOf, observeRequests, routeMatcher } from "./platform/request-log.ts"
import { type AppConfig, Config, defaultDatabaseLimits } from "./platform/config.ts"
import { consoleDir, consoleRoutes } from "./platform/console.ts"
import { type DatabaseTarget, databaseLayer, targetFrom } from "./platform/database.ts"
import { apiNotFound, bodyLimit, httpHygiene } from "./platform/http.ts"
import { streamPosition } from "./stream/position.ts"
import { honestKeepAlive } from "./platform/keep-alive.ts"
import { forwardedForCheck } from "./platform/client-address.ts"
import { diskGuard } from "./platform/disk.ts"
import { Mailer, mailerLayer } from "./platform/mail.ts"
import { mailWorkerLayer } from "./platform/mail-outbox.ts"
import { housekeepingLayer } from "./platform/housekeeping.ts"
import { migrate } from "./platform/migrations.ts"
import { commandLine } from "./platform/record-writes.ts"
import { RequestValidationLive } from "./platform/validation.ts"
import { SystemHandlers } from "./system/http.ts"
import { importDiskUploads } from "./uploads/disk-import.ts"
import { UploadHandlers, uploadRoutes } from "./uploads/http.ts"
import { HistoryHandlers } from "./history/http.ts"
import { TriageHandlers } from "./triage/http.ts"
import { IdempotencyLive } from "./platform/idempotency.ts"
import { IdempotencyScopeLive } from "./auth/caller.ts"

/** On a database without admins, the first one comes from `ADMIN_EMAIL`, added by one server only. */
const bootstrapFirstAdmin = Effect.gen(function* () {
  const config = yield* Config
  const mailer = yield* Mailer
  if ((yield* countAdmins) > 0) return
  // Servers started at the same moment on one new database each find none: one adds it, and
  // for the others it is already there (docs/deploy.md).
  const added = yield* addAdmin(config.adminEmail, "super_admin", null, commandLine).pipe(
    Effect.as(true),
    Effect.catchTag("Conflict", () => Effect.succeed(false))
  )
  if (!added) return
  const where = mailer.transport === "outbox" ? `the outbox (${config.dataDir}/outbox) and this log` : "that mailbox"
  yield* Effect.logInfo(
    `Created the first admin ${config.adminEmail} (Super Admin). Sign in at http://localhost:${config.port}/login ` +
      `with that e-mail; the code goes to ${where}.`
  )
})

/**
 * On PostgreSQL the migrations run on a connection of their own without the limits requests
 * have (docs/deploy.md, "A stalled server"): a server starting beside another that is migrating
 * waits for its lock, and a migration of a large table takes as long as it takes.
 */
const migrateOn = (database: DatabaseTarget) =>
  database.engine === "postgresql"
    ? Effect.scoped(Effect.flatMap(Layer.build(databaseLayer(database)), (context) => Effect.provideContext(migrate, context)))
    : migrate

/**
 * Configuration, a migrated database and mail. Migrating includes moving the images an older
 * server kept on its disk into the database (server/uploads/disk-import.ts).
 */
export const platformLayer = (config: AppConfig, database: DatabaseTarget = targetFrom(config)) =>
  Layer.provideMerge(
    Layer.effectDiscard(Effect.andThen(migrateOn(database), importDiskUploads)),
    Layer.mergeAll(databaseLayer(database, config.databaseLimits ?? defaultDatabaseLimits), mailerLayer(config), Layer.succeed(Config, config))
  )

const apiLayer = HttpApiBuilder.layer(AdminApi, { openapiPath: "/api/openapi.json" }).pipe(
  Layer.provide([
    AuthHandlers,
    SystemHandlers,
    GeneratedAddressHandlers,
    CexAddressHandlers,
    CoreTeamAddressHandlers,
    AddressSearchHandlers,
    BlogPublicHandlers,
    CommunityHandlers,
    InfluencerHandlers,
    ListingsAdminHandlers,
    ListingsPublicHandlers,
    ListingsPublicAdminHandlers,
    BusinessHandlers,
    StartupHandlers,
    ProjectHandlers,
    VentureModerationHandlers,
    VenturesPublicHandlers,
    EventsHandlers,
    ScamReportHandlers,
    StreamHandlers,
    ContactHandlers,
    AdvertisingHandlers,
    AnalyticsHandlers,
    ActivityHandlers,
    AdminUserHandlers,
    AllowedIpHandlers,
    SessionHandlers,
    PasskeyHandlers,
    PasskeySignInHandlers,
    ConfirmHandlers,
    ProtectedDataHandlers,
    SiteSettingsHandlers,
    HistoryHandlers,
    TriageHandlers,
    BlogAdminHandlers,
    UploadHandlers
  ]),
  Layer.provide([AuthorizationLive, PublicFormLive, PublicReadLive, RequestValidationLive, SignIn.layer]),
  Layer.provide(Layer.provide(IdempotencyLive, IdempotencyScopeLive))
)

const routes = (staticDir: string) =>
  Layer.mergeAll(apiLayer, apiDocs(AdminApi), apiNotFound, uploadRoutes, consoleRoutes(staticDir), httpHygiene, forwardedForCheck, diskGuard, streamPosition)

/**
 * The router's bound on one path parameter. Its default, 100, answered a post whose slug was
 * longer (titles may be 200 characters) with 404; past this bound a parameter is still a 404,
 * below it the contract's schemas judge it (a slug is at most 220 characters: a 400 beyond).
 */
const MAX_PATH_PARAM = 1024

export interface ServerOptions {
  /** Where the database lives; by default from `DATABASE_URL` / `DATA_DIR`. */
  readonly database?: DatabaseTarget
  /** The built console; by default `dist/`. */
  readonly consoleDir?: string
  /** Where the request log's lines go (platform/request-log.ts); by default standard output. */
  readonly requestLog?: (line: string) => void
}

/** Every route the server answers, for the request log and the metrics: the contract's, and the few beside it. */
const routeOf = routeMatcher([
  ...endpointsOf(AdminApi),
  { method: "GET", path: "/uploads/:type/:name" },
  { method: "GET", path: "/api/openapi.json" },
  { method: "GET", path: API_DOCS_PATH },
  { method: "*", path: "/api/*" }
])

/**
 * How long a stopping server gives the requests it has begun before it closes their
 * connections (docs/deploy.md, "Stopping a server"). Writes take milliseconds; this is for an
 * upload on a slow link.
 */
const DRAIN_TIMEOUT = "10 seconds"

/** The whole product on one port: API, docs and console. */
export const serverLayer = (config: AppConfig, options: ServerOptions = {}) => {
  const database = options.database ?? targetFrom(config)
  // With the embedded database on a folder, the admin tools reach it through this server.
  const adminChannel = database.engine === "pglite" && database.dataDir !== undefined ? adminChannelLayer(config.dataDir, executeAdminCommand) : Layer.empty
  const metrics = makeMetrics()
  const lifecycle = makeLifecycle()
  const write = options.requestLog ?? ((line: string) => void process.stdout.write(`${line}\n`))
  const listening = () => honestKeepAlive(observeRequests(createServer(), { write, metrics, routeOf, draining: lifecycle.draining }))
  return drainFirst(lifecycle).pipe(
    Layer.provideMerge(HttpRouter.serve(routes(options.consoleDir ?? consoleDir), { disableLogger: true, routerConfig: { maxParamLength: MAX_PATH_PARAM } })),
    Layer.provideMerge(NodeHttpServer.layer(listening, { port: config.port, host: config.host, gracefulShutdownTimeout: DRAIN_TIMEOUT })),
    Layer.provideMerge(
      Layer.provideMerge(
        Layer.mergeAll(
          Layer.effectDiscard(bootstrapFirstAdmin),
          listenForRevocations,
          listenForAllowedIps,
          Layer.provideMerge(liveChangesLayer, changeFeedLayer),
          schedulerLayer,
          housekeepingLayer,
          mailWorkerLayer,
          adminChannel
        ),
        platformLayer(config, database)
      )
    ),
    Layer.provide([
      bodyLimit,
      Layer.succeed(ServerMetrics, metrics),
      Layer.succeed(ServerLifecycle, lifecycle),
      Layer.succeed(ServerWrites, makeWriteOutcomes()),
      Layer.succeed(CommittedChanges, new Set())
    ])
  )
}
