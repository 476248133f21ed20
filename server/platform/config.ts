import { Context, Effect, Redacted, Schema } from "effect"
import { Email, type FieldIssue } from "../../contract/common.ts"
import { type IpRange, parseIpRange } from "../../contract/ip-rules.ts"
import { describeIssues, fieldIssues } from "./issues.ts"

/**
 * `TRUST_PROXY`: `off`, or the proxies in front of the server, addresses and CIDR ranges
 * comma-separated; the client address is taken from `X-Forwarded-For` only when they send it.
 */
export const parseProxies = (text: string): ReadonlyArray<IpRange> | undefined => {
  if (text === "off") return []
  const ranges = text.split(",").map((part) => parseIpRange(part))
  return ranges.every((range) => range !== undefined) ? ranges.filter((range) => range !== undefined) : undefined
}

const Proxies = Schema.String.check(
  Schema.makeFilter(
    (text: string) =>
      parseProxies(text) !== undefined ||
      "must be off, or the addresses or CIDR ranges of your own proxies, comma-separated (such as 127.0.0.1 or 10.0.0.0/8,::1)"
  )
)

const withDefault = <S extends Schema.Codec<unknown, string>>(schema: S, value: string) => schema.pipe(Schema.withDecodingDefaultKey(Effect.succeed(value)))

/**
 * How long a request may wait on PostgreSQL (docs/deploy.md, "A stalled server"): for a row
 * another connection holds, for one statement, in a transaction its own server has stopped
 * driving, and for one of the pool's connections. Milliseconds; 0 turns a PostgreSQL limit off.
 */
export interface DatabaseLimits {
  readonly lockTimeoutMs: number
  readonly statementTimeoutMs: number
  readonly idleInTransactionTimeoutMs: number
  readonly poolWaitMs: number
}

export const defaultDatabaseLimits: DatabaseLimits = {
  lockTimeoutMs: 2_000,
  statementTimeoutMs: 30_000,
  idleInTransactionTimeoutMs: 5_000,
  poolWaitMs: 2_000
}

const milliseconds = (minimum: number, fallback: number) =>
  withDefault(
    Schema.NumberFromString.check(
      Schema.isInt({ message: "must be a whole number of milliseconds" }),
      Schema.isBetween({ minimum, maximum: 3_600_000 }, { message: `must be between ${minimum} and 3600000 (an hour)` })
    ),
    String(fallback)
  )

const EnvSchema = Schema.Struct({
  PORT: withDefault(
    Schema.NumberFromString.check(
      Schema.isInt({ message: "must be a whole number" }),
      Schema.isBetween({ minimum: 0, maximum: 65535 }, { message: "must be between 0 and 65535" })
    ),
    "8080"
  ),
  HOST: withDefault(Schema.String.check(Schema.isMinLength(1, { message: "must not be empty" })), "127.0.0.1"),
  DATA_DIR: withDefault(Schema.String.check(Schema.isMinLength(1, { message: "must not be empty" })), "./data"),
  DATABASE_URL: Schema.optionalKey(
    Schema.String.check(Schema.isPattern(/^postgres(ql)?:\/\/\S+$/, { message: "must be a postgres:// URL (leave unset for the embedded database)" }))
  ),
  SMTP_URL: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^smtps?:\/\/\S+$/, { message: "must be an smtp:// or smtps:// URL" }))),
  MAIL_FROM: withDefault(Schema.String.check(Schema.isMinLength(3, { message: "must be an e-mail sender" })), "Admin Console <no-reply@localhost>"),
  ADMIN_EMAIL: withDefault(Email, "admin@example.com"),
  TRUST_PROXY: withDefault(Proxies, "off"),
  DISK_RESERVE_MB: withDefault(
    Schema.NumberFromString.check(
      Schema.isInt({ message: "must be a whole number of megabytes" }),
      Schema.isBetween({ minimum: 0, maximum: 1_000_000 }, { message: "must be between 0 and 1000000" })
    ),
    "64"
  ),
  DATABASE_LOCK_TIMEOUT_MS: milliseconds(0, defaultDatabaseLimits.lockTimeoutMs),
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds(0, defaultDatabaseLimits.statementTimeoutMs),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: milliseconds(0, defaultDatabaseLimits.idleInTransactionTimeoutMs),
  DATABASE_POOL_WAIT_MS: milliseconds(100, defaultDatabaseLimits.poolWaitMs),
  PUBLIC_ORIGIN: Schema.optionalKey(
    Schema.String.check(
      Schema.isPattern(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/u, {
        message: "must be the console's address as people open it, such as https://admin.example.com (no path, no trailing slash)"
      })
    )
  ),
  OTP_SECRET: Schema.optionalKey(Schema.String.check(Schema.isMinLength(32, { message: "must be at least 32 characters" }))),
  METRICS_TOKEN: Schema.optionalKey(Schema.String.check(Schema.isMinLength(32, { message: "must be at least 32 characters" })))
})

export interface AppConfig {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  readonly smtpUrl: string | undefined
  readonly mailFrom: string
  readonly adminEmail: string
  /** The proxies whose `X-Forwarded-For` is believed (client-address.ts); none by default. */
  readonly trustedProxies: ReadonlyArray<IpRange>
  readonly otpSecret: string | undefined
  /**
   * The console's address as people open it (`PUBLIC_ORIGIN`): passkeys are bound to it (its host
   * is the WebAuthn relying party's id). Unset: `http://localhost:<port>`.
   */
  readonly publicOrigin?: string | undefined
  /** Every OTP request answers no sooner than this, so known and unknown e-mails look alike. */
  readonly otpResponseFloorMs: number
  /** Below this much free space on the data folder's disk, nothing is written (disk.ts). */
  readonly diskReserveMb: number
  /** Who else may read `/metrics` (this host always may): a bearer token; none by default. */
  readonly metricsToken?: Redacted.Redacted<string> | undefined
  /** PostgreSQL's waits, bounded; `defaultDatabaseLimits` when left out. */
  readonly databaseLimits?: DatabaseLimits
}

export class Config extends Context.Service<Config, AppConfig>()("platform/Config") {}

export class ConfigInvalid extends Schema.TaggedError<ConfigInvalid>()("ConfigInvalid", {
  message: Schema.String
}) {}

const firstPerField = (issues: ReadonlyArray<FieldIssue>) => issues.filter((issue, index) => issues.findIndex((other) => other.path === issue.path) === index)

/** Reads the configuration once from the environment; a bad value fails with one clear line. */
export const readConfig = (env: Record<string, string | undefined>): Effect.Effect<AppConfig, ConfigInvalid> => {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""))
  return Schema.decodeUnknownEffect(EnvSchema, { errors: "all" })(present).pipe(
    Effect.mapError((error) => new ConfigInvalid({ message: `Invalid configuration: ${describeIssues(firstPerField(fieldIssues(error, 100).shown))}` })),
    Effect.map((decoded) => ({
      port: decoded.PORT,
      host: decoded.HOST,
      dataDir: decoded.DATA_DIR,
      databaseUrl: decoded.DATABASE_URL,
      smtpUrl: decoded.SMTP_URL,
      mailFrom: decoded.MAIL_FROM,
      adminEmail: decoded.ADMIN_EMAIL.toLowerCase(),
      trustedProxies: parseProxies(decoded.TRUST_PROXY) ?? [],
      otpSecret: decoded.OTP_SECRET,
      publicOrigin: decoded.PUBLIC_ORIGIN,
      otpResponseFloorMs: 200,
      diskReserveMb: decoded.DISK_RESERVE_MB,
      metricsToken: decoded.METRICS_TOKEN === undefined ? undefined : Redacted.make(decoded.METRICS_TOKEN),
      databaseLimits: {
        lockTimeoutMs: decoded.DATABASE_LOCK_TIMEOUT_MS,
        statementTimeoutMs: decoded.DATABASE_STATEMENT_TIMEOUT_MS,
        idleInTransactionTimeoutMs: decoded.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
        poolWaitMs: decoded.DATABASE_POOL_WAIT_MS
      }
    }))
  )
}

/**
 * What a server (not a command-line tool) also needs. Codes are hashed with OTP_SECRET, else
 * with a key in DATA_DIR that is each server's own: servers sharing a PostgreSQL would then
 * refuse each other's codes.
 */
export const serverConfigProblem = (config: AppConfig): string | undefined =>
  config.databaseUrl !== undefined && config.otpSecret === undefined
    ? "Invalid configuration: OTP_SECRET: must be set with DATABASE_URL (every server on one database needs the same key)"
    : undefined
