import { Context, Effect, Layer, Schema } from "effect"
import { linkSync, mkdirSync, unlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import nodemailer from "nodemailer"

export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
}

export class MailFailed extends Schema.TaggedError<MailFailed>()("MailFailed", {
  message: Schema.String
}) {}

export type MailTransport = "outbox" | "smtp"

export interface MailerService {
  readonly transport: MailTransport
  readonly send: (message: MailMessage) => Effect.Effect<void, MailFailed>
  /** Whether mail can go out now: the SMTP server answers and accepts our login; the outbox always can. */
  readonly check: Effect.Effect<void, MailFailed>
}
export class Mailer extends Context.Service<Mailer, MailerService>()("platform/Mailer") {}

/** No SMTP message may keep a request waiting longer than this. */
const SEND_TIMEOUT = "15 seconds"

const outboxName = () => `${new Date().toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}.eml`

const makeOutbox = (dataDir: string, from: string): MailerService => {
  const outbox = join(dataDir, "outbox")
  const renderer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" })
  return {
    transport: "outbox",
    check: Effect.void,
    send: (message) =>
      Effect.tryPromise({
        try: async () => {
          const info = await renderer.sendMail({ from, ...message })
          mkdirSync(outbox, { recursive: true })
          // Whole or not at all: a reader of the folder never sees a mail half written. The mail is
          // written under a dot name first, then linked in under its own name (which, unlike a
          // rename, refuses to replace a mail already there).
          const name = outboxName()
          const partial = join(outbox, `.${name}.partial`)
          writeFileSync(partial, info.message as Buffer, { flag: "wx" })
          try {
            linkSync(partial, join(outbox, name))
          } finally {
            unlinkSync(partial)
          }
        },
        catch: (cause) => new MailFailed({ message: `Could not write to the outbox: ${String(cause)}` })
      })
  }
}

const makeSmtp = (url: string, from: string): MailerService => {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 15_000
  })
  return {
    transport: "smtp",
    check: Effect.tryPromise({
      try: () => transporter.verify(),
      catch: (cause) => new MailFailed({ message: `The mail server refused or could not be reached: ${String(cause)}` })
    }).pipe(
      Effect.timeoutOrElse({ duration: SEND_TIMEOUT, orElse: () => Effect.fail(new MailFailed({ message: "The mail server did not answer in time" })) }),
      Effect.asVoid
    ),
    send: (message) =>
      Effect.tryPromise({
        try: () => transporter.sendMail({ from, ...message }),
        catch: (cause) => new MailFailed({ message: `The mail server refused or could not be reached: ${String(cause)}` })
      }).pipe(
        Effect.timeoutOrElse({
          duration: SEND_TIMEOUT,
          orElse: () => Effect.fail(new MailFailed({ message: "The mail server did not answer in time" }))
        }),
        Effect.asVoid
      )
  }
}

/** SMTP when `SMTP_URL` is set; otherwise each mail is an `.eml` file in `DATA_DIR/outbox/`. */
export const mailerLayer = (config: { smtpUrl: string | undefined; dataDir: string; mailFrom: string }) =>
  Layer.succeed(Mailer, config.smtpUrl !== undefined ? makeSmtp(config.smtpUrl, config.mailFrom) : makeOutbox(config.dataDir, config.mailFrom))
