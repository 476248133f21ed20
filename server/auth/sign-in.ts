import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { OtpRequested, SignedIn } from "../../contract/auth.ts"
import { type Role, roleCovers, roleLabels, Unauthorized } from "../../contract/common.ts"
import { recordActivity } from "../platform/activity-log.ts"
import { Config } from "../platform/config.ts"
import { inTransaction } from "../platform/database.ts"
import { Mailer } from "../platform/mail.ts"
import { enqueueMail, MailWorker } from "../platform/mail-outbox.ts"
import { guard, hit, type RateLimitRule, release } from "../platform/rate-limit.ts"
import { hashOtp, loadOtpKey, newOtpCode } from "../platform/secrets.ts"
import { findAdmin, normalizeEmail } from "./admins.ts"
import { limits, messages, OTP_KEEP_SECONDS, OTP_MAX_ATTEMPTS, OTP_TTL_MINUTES } from "./policy.ts"
import { openSession } from "./sessions.ts"

const limited = (rule: RateLimitRule, subject: string) => guard(rule, subject, messages.tooMany)

const codeMail = (email: string, code: string, role: Role) => ({
  to: email,
  subject: `Your sign-in code: ${code}`,
  text: [
    `Your one-time code for the admin console is ${code}.`,
    "",
    `It signs you in as ${roleLabels[role]}, works once and expires in ${OTP_TTL_MINUTES} minutes.`,
    "If you did not ask for it, ignore this e-mail: nobody can sign in without the code."
  ].join("\n")
})

const roleMail = (email: string, requested: Role, granted: Role) => ({
  to: email,
  subject: "Sign-in request: choose the role you hold",
  text: [
    `Someone asked to sign in to the admin console as ${roleLabels[requested]} with this e-mail address.`,
    `Your account holds the ${roleLabels[granted]} role, so no code was sent.`,
    `To sign in, choose "${roleLabels[granted]}" (or a lower role) on the sign-in screen and ask for a new code.`
  ].join("\n")
})

const makeSignIn = Effect.gen(function* () {
  const config = yield* Config
  const mailer = yield* Mailer
  const worker = yield* MailWorker
  const sql = yield* SqlClient
  const otpKey = loadOtpKey(config)

  /**
   * Stores a new code unless a code younger than `OTP_KEEP_SECONDS` exists: a request made by
   * someone else cannot kill the code the admin is typing. True when a code was stored.
   */
  const storeCode = (email: string, code: string, role: Role) =>
    Effect.map(
      sql<{ email: string }>`
      INSERT INTO one_time_codes (email, code_hash, role, attempts, created_at, expires_at)
      VALUES (${email}, ${hashOtp(otpKey, email, code)}, ${role}, 0, now(),
              now() + make_interval(mins => ${OTP_TTL_MINUTES}::int))
      ON CONFLICT (email) DO UPDATE SET
        code_hash = EXCLUDED.code_hash, role = EXCLUDED.role, attempts = 0,
        created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
      WHERE one_time_codes.created_at <= now() - make_interval(secs => ${OTP_KEEP_SECONDS}::int)
         OR one_time_codes.expires_at <= now()
      RETURNING email`,
      (rows) => rows.length > 0
    )

  /**
   * Queues a code only for an enabled admin asking for a role they hold, the code and its mail
   * in one transaction; the mail leaves after the answer (mail-outbox.ts).
   */
  const issue = (email: string, role: Role) =>
    Effect.gen(function* () {
      const admin = yield* findAdmin(email)
      if (admin === undefined || admin.disabled) return false
      if (!roleCovers(admin.role, role)) {
        if (!(yield* hit(limits.roleNoticesPerEmail, email)).allowed) return false
        yield* enqueueMail(roleMail(email, role, admin.role), OTP_TTL_MINUTES)
        return true
      }
      const code = newOtpCode()
      if (!(yield* storeCode(email, code, role))) return false
      yield* enqueueMail(codeMail(email, code, role), OTP_TTL_MINUTES)
      if (mailer.transport === "outbox") yield* Effect.logInfo(`OTP for ${email}: ${code}`)
      return true
    }).pipe(inTransaction)

  /**
   * Known, unknown and disabled e-mails get the same answer after the same minimum time; the
   * request only writes rows, so nothing it does takes longer for a real admin.
   */
  const requestCode = (rawEmail: string, role: Role, ip: string) =>
    Effect.gen(function* () {
      const email = normalizeEmail(rawEmail)
      yield* limited(limits.codeRequestsPerIp, ip)
      yield* limited(limits.codeRequestsPerEmailAndIp, `${email}|${ip}`)
      const floor = Effect.sleep(`${config.otpResponseFloorMs} millis`)
      const fresh = yield* hit(limits.codeResendsPerEmail, email)
      if (!fresh.allowed) {
        // Nothing is sent: the answer says so, and when a new code can be asked for.
        const seconds = fresh.retryAfterSeconds
        yield* Effect.logInfo(`No new code for ${email}: one was asked for less than ${OTP_KEEP_SECONDS} s ago; a new one can be asked for in ${seconds} s`)
        yield* floor
        return { success: true, requiresOTP: true, message: messages.codeKept(seconds), resendAfterSeconds: seconds } satisfies OtpRequested
      }
      const [outcome] = yield* Effect.all([Effect.exit(issue(email, role)), floor], { concurrency: 2 })
      if (outcome._tag === "Success" && outcome.value) yield* worker.wake
      // A request that failed sent nothing: the next one is acted on at once.
      if (outcome._tag === "Failure") yield* Effect.ignore(release(limits.codeResendsPerEmail, email))
      yield* Effect.orDie(outcome)
      return { success: true, requiresOTP: true, message: messages.codeRequested } satisfies OtpRequested
    })

  /** Logs a refused verification: how many guesses the code has met, or that none was live. */
  const refuse = (email: string, ip: string, attempts: number | undefined) =>
    Effect.gen(function* () {
      yield* recordActivity({
        actorId: null,
        actorEmail: email,
        action: "session.verify_failed",
        entityId: null,
        ip,
        details: attempts === undefined ? { reason: "no live code" } : { attempts }
      })
      return yield* new Unauthorized({ error: messages.invalidCode })
    })

  /**
   * Counts the guess and compares it in one statement: the row lock makes guesses that arrive
   * together take turns, and each one sees the count the one before it left, so no more than
   * `OTP_MAX_ATTEMPTS` guesses are ever compared with one code, whatever the concurrency. The
   * right guess uses the code up in the same statement, so of two simultaneous right guesses
   * exactly one wins.
   */
  const guess = (email: string, code: string) =>
    Effect.gen(function* () {
      const hash = hashOtp(otpKey, email, code)
      const rows = yield* sql<{ matched: boolean; role: Role; attempts: number }>`
        UPDATE one_time_codes
        SET attempts = CASE WHEN code_hash = ${hash} THEN ${OTP_MAX_ATTEMPTS} ELSE attempts + 1 END
        WHERE email = ${email} AND expires_at > now() AND attempts < ${OTP_MAX_ATTEMPTS}
        RETURNING code_hash = ${hash} AS matched, role, attempts`
      const row = rows[0]
      // A used or killed code can no longer be guessed; its row goes (a newer code has 0 tries).
      if (row !== undefined && row.attempts >= OTP_MAX_ATTEMPTS) {
        yield* sql`DELETE FROM one_time_codes WHERE email = ${email} AND attempts >= ${OTP_MAX_ATTEMPTS}`
      }
      return row
    })

  const verifyCode = (rawEmail: string, code: string, ip: string, userAgent: string | null = null) =>
    Effect.gen(function* () {
      const email = normalizeEmail(rawEmail)
      yield* limited(limits.verificationsPerIp, ip)
      const outcome = yield* guess(email, code)
      if (outcome === undefined || !outcome.matched) return yield* refuse(email, ip, outcome?.attempts)
      const admin = yield* findAdmin(email)
      if (admin === undefined || admin.disabled || !roleCovers(admin.role, outcome.role)) return yield* refuse(email, ip, outcome.attempts)
      const session = yield* openSession(admin, outcome.role, ip, userAgent)
      // The code is used: the next request (another device) is acted on at once. Only the
      // mailbox's owner can get here, so this tells nobody anything.
      yield* Effect.ignore(release(limits.codeResendsPerEmail, email))
      return { success: true, token: session.token, user: session.user, expiresAt: session.expiresAt } satisfies SignedIn
    })

  return { requestCode, verifyCode }
})

export class SignIn extends Context.Service<SignIn, Effect.Success<typeof makeSignIn>>()("auth/SignIn") {
  static readonly layer = Layer.effect(SignIn, makeSignIn)
}
