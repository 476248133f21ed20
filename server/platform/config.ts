import { Context, Effect, Schema } from "effect"
import { Email, type FieldIssue } from "../../contract/common.ts"
import { describeIssues, fieldIssues } from "./issues.ts"

const flag = Schema.Literals(["1", "0", "true", "false", "on", "off", "yes", "no"]).annotate({
  message: "must be one of on, off, true, false, 1, 0, yes, no"
})

const withDefault = <S extends Schema.Codec<unknown, string>>(schema: S, value: string) =>
  schema.pipe(Schema.withDecodingDefaultKey(Effect.succeed(value)))

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
    Schema.String.check(
      Schema.isPattern(/^postgres(ql)?:\/\/\S+$/, { message: "must be a postgres:// URL (leave unset for the embedded database)" })
    )
  ),
  SMTP_URL: Schema.optionalKey(
    Schema.String.check(Schema.isPattern(/^smtps?:\/\/\S+$/, { message: "must be an smtp:// or smtps:// URL" }))
  ),
  MAIL_FROM: withDefault(Schema.String.check(Schema.isMinLength(3, { message: "must be an e-mail sender" })), "Admin Console <no-reply@localhost>"),
  ADMIN_EMAIL: withDefault(Email, "admin@example.com"),
  TRUST_PROXY: withDefault(flag, "off"),
  OTP_SECRET: Schema.optionalKey(Schema.String.check(Schema.isMinLength(32, { message: "must be at least 32 characters" })))
})

export interface AppConfig {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  readonly smtpUrl: string | undefined
  readonly mailFrom: string
  readonly adminEmail: string
  readonly trustProxy: boolean
  readonly otpSecret: string | undefined
  /** Every OTP request answers no sooner than this, so known and unknown e-mails look alike. */
  readonly otpResponseFloorMs: number
}

export class Config extends Context.Service<Config, AppConfig>()("platform/Config") {}

export class ConfigInvalid extends Schema.TaggedError<ConfigInvalid>()("ConfigInvalid", {
  message: Schema.String
}) {}

const firstPerField = (issues: ReadonlyArray<FieldIssue>) =>
  issues.filter((issue, index) => issues.findIndex((other) => other.path === issue.path) === index)

const truthy = new Set(["1", "true", "on", "yes"])

/** Reads the configuration once from the environment; a bad value fails with one clear line. */
export const readConfig = (env: Record<string, string | undefined>): Effect.Effect<AppConfig, ConfigInvalid> => {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""))
  return Schema.decodeUnknownEffect(EnvSchema, { errors: "all" })(present).pipe(
    Effect.mapError(
      (error) => new ConfigInvalid({ message: `Invalid configuration: ${describeIssues(firstPerField(fieldIssues(error)))}` })
    ),
    Effect.map((decoded) => ({
      port: decoded.PORT,
      host: decoded.HOST,
      dataDir: decoded.DATA_DIR,
      databaseUrl: decoded.DATABASE_URL,
      smtpUrl: decoded.SMTP_URL,
      mailFrom: decoded.MAIL_FROM,
      adminEmail: decoded.ADMIN_EMAIL.toLowerCase(),
      trustProxy: truthy.has(decoded.TRUST_PROXY),
      otpSecret: decoded.OTP_SECRET,
      otpResponseFloorMs: 200
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
