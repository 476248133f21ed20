import { Context, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import type { OtpRequested, SecondStepNeeded, SignedIn } from "../../contract/auth.ts"
import { BadRequest, Forbidden, type Role, roleCovers, roleLabels, TooManyRequests, Unauthorized } from "../../contract/common.ts"
import { passkeyMessages } from "../../contract/passkeys.ts"
import { findAdmin, normalizeEmail } from "../admin-users/repository.ts"
import { recordActivity } from "../platform/activity-log.ts"
import { Config } from "../platform/config.ts"
import { dieOnSqlError, inTransaction } from "../platform/database.ts"
import { describeIssues } from "../platform/issues.ts"
import { Mailer } from "../platform/mail.ts"
import { enqueueMail, MailWorker } from "../platform/mail-outbox.ts"
import { exhausted, guard, hit, type RateLimitRule, type RateLimitVerdict, release, waitText } from "../platform/rate-limit.ts"
import { hashOtp, hashToken, loadOtpKey, newOtpCode, newSessionToken } from "../platform/secrets.ts"
import { GUESS_NOTICE_AT, limits, messages, OTP_TTL_MINUTES } from "./policy.ts"
import { openSession } from "../sessions/repository.ts"
import { channelOf, countGuess, joinCode, openStep, passkeyRequirement, rememberBrowser, storeCode, useCode } from "./repository.ts"

const limited = (rule: RateLimitRule, subject: string) => guard(rule, subject, messages.tooMany)

/**
 * The code, and the role it signs in with. A role asked for above the one held signs in with the
 * one held, and only this mail says so: the screen answers alike for every e-mail.
 */
const codeMail = (email: string, code: string, asked: Role, role: Role) => ({
  to: email,
  subject: `Your sign-in code: ${code}`,
  text: [
    `Your one-time code for the admin console is ${code}.`,
    "",
    asked === role
      ? `It signs you in as ${roleLabels[role]}.`
      : `You asked to sign in as ${roleLabels[asked]}; your account holds the ${roleLabels[role]} role, so this code signs you in as ${roleLabels[role]}.`,
    `Type it on the sign-in screen where you asked for it. It works once and expires in ${OTP_TTL_MINUTES} minutes.`,
    "If you did not ask for it, ignore this e-mail: nobody can sign in without the code."
  ].join("\n")
})

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`

/** Told to the admin when codes are being tried for their e-mail: at `GUESS_NOTICE_AT`, and when the day's are used up. */
const guessedMail = (email: string, tried: number, pausedUntil: Date | undefined) => ({
  to: email,
  subject: pausedUntil === undefined ? "Sign-in codes are being tried for your account" : "Sign-in codes for your account are paused",
  text: [
    `${tried} sign-in codes have been typed for ${email} in the last day.`,
    pausedUntil === undefined
      ? "If that was not you, someone is guessing. They cannot sign in without a code mailed here: each code takes five tries, and the day's tries are few."
      : `No more codes are taken for this e-mail until ${utc(pausedUntil)}, except from browsers you have signed in from before: yours keep working.`,
    "Nothing else is needed. If it keeps happening, tell a super admin: the activity log shows each try with its address."
  ].join("\n")
})

const makeSignIn = Effect.gen(function* () {
  const config = yield* Config
  const mailer = yield* Mailer
  const worker = yield* MailWorker
  const otpKey = loadOtpKey(config)

  /**
   * Where a browser's codes and guesses are counted for `email`: apart, when it signed in as
   * `email` before; otherwise with every other browser not known for it, strangers' included.
   */
  const browserOf = (email: string, key: string | undefined) =>
    Effect.gen(function* () {
      const keyHash = key === undefined ? undefined : hashToken(key)
      const channel = yield* channelOf(email, keyHash)
      return { keyHash, channel, subject: channel === "" ? email : `${email}|${channel}` }
    })

  const pausedError = (seconds: number) => new TooManyRequests({ error: messages.paused(waitText(seconds)), retryAfterSeconds: seconds })

  /** Stores a code with its first attempt and queues its mail; the mail leaves after the answer (mail-outbox.ts). */
  const issue = (email: string, channel: string, asked: Role, attempt: { tokenHash: string; role: Role }) =>
    Effect.gen(function* () {
      const code = newOtpCode()
      yield* storeCode({ id: randomUUID(), email, channel, codeHash: hashOtp(otpKey, email, code) }, attempt)
      yield* enqueueMail(codeMail(email, code, asked, attempt.role), OTP_TTL_MINUTES)
      if (mailer.transport === "outbox") yield* Effect.logInfo(`OTP for ${email}: ${code}`)
    })

  /**
   * One request's code, in one transaction with the browser's minute: the first request of a
   * minute issues one, the others are attempts on it. Only an enabled admin gets one, for the role
   * asked or, above the one held, for the one held. The minute's row stays locked until the code
   * is stored, so a request that arrives meanwhile waits and then finds the code to join; a request
   * that failed rolls its minute back with it, so the next one is acted on at once.
   */
  const codeFor = (email: string, browser: { channel: string; subject: string }, asked: Role, tokenHash: string) =>
    Effect.gen(function* () {
      const fresh = yield* hit(limits.codeResendsPerEmail, browser.subject)
      const admin = yield* findAdmin(email)
      if (admin === undefined || admin.disabled) return { mailed: false, resendAfterSeconds: fresh.allowed ? undefined : fresh.retryAfterSeconds }
      const attempt = { tokenHash, role: roleCovers(admin.role, asked) ? asked : admin.role }
      if (!fresh.allowed) {
        yield* joinCode(email, browser.channel, attempt)
        return { mailed: false, resendAfterSeconds: fresh.retryAfterSeconds }
      }
      yield* issue(email, browser.channel, asked, attempt)
      return { mailed: true, resendAfterSeconds: undefined }
    }).pipe(inTransaction)

  /**
   * Known, unknown and disabled e-mails get the same answer after the same minimum time; the
   * request only writes rows, so nothing it does takes longer for a real admin. Every answer
   * names a new attempt; within the minute it is an attempt on the code already mailed.
   */
  const requestCode = (rawEmail: string, role: Role, ip: string, browserKey?: string) =>
    Effect.gen(function* () {
      const email = normalizeEmail(rawEmail)
      yield* limited(limits.codeRequestsPerIp, ip)
      yield* limited(limits.codeRequestsPerEmailAndIp, `${email}|${ip}`)
      const browser = yield* browserOf(email, browserKey)
      // No code is sent that could not be typed: the day's guesses for this browser are used up.
      const paused = yield* exhausted(limits.codeGuesses, browser.subject)
      if (paused !== undefined) return yield* pausedError(paused.retryAfterSeconds)
      const floor = Effect.sleep(`${config.otpResponseFloorMs} millis`)
      const attempt = newSessionToken()
      const [outcome] = yield* Effect.all([codeFor(email, browser, role, hashToken(attempt)), floor], { concurrency: 2 })
      if (outcome.mailed) yield* worker.wake
      if (outcome.resendAfterSeconds === undefined) {
        return { success: true, requiresOTP: true, attempt, message: messages.codeRequested } satisfies OtpRequested
      }
      // Nothing new is sent: the answer says so, and when a new code can be asked for.
      const seconds = outcome.resendAfterSeconds
      return { success: true, requiresOTP: true, attempt, message: messages.codeKept(seconds), resendAfterSeconds: seconds } satisfies OtpRequested
    }).pipe(dieOnSqlError)

  /** Logs a refused verification: how many guesses its attempt has met, or that none was live. */
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
   * Tells an admin, in the log and by mail, that codes are being tried for their e-mail: when
   * `GUESS_NOTICE_AT` have been, and with the day's last one (no more are taken until the window
   * ends). Once each a day, whatever the concurrency: each count is met by exactly one guess.
   */
  const warnOf = (email: string, ip: string, verdict: RateLimitVerdict) =>
    Effect.gen(function* () {
      const last = verdict.hits === limits.codeGuesses.limit
      if (verdict.hits !== GUESS_NOTICE_AT && !last) return
      const admin = yield* findAdmin(email)
      if (admin === undefined || admin.disabled) return
      const pausedUntil = last ? new Date(Date.now() + verdict.retryAfterSeconds * 1000) : undefined
      const tried = verdict.hits
      yield* recordActivity({
        actorId: admin.id,
        actorEmail: email,
        action: "session.codes_tried",
        entityId: null,
        ip,
        details: { codesTried: tried, ...(pausedUntil === undefined ? {} : { pausedUntil: pausedUntil.toISOString() }) }
      })
      yield* enqueueMail(guessedMail(email, tried, pausedUntil), 24 * 60)
      yield* worker.wake
    }).pipe(inTransaction)

  /**
   * The guess's attempt, its code and the session it opens, in one transaction: of two attempts
   * typing the same code at once, one uses it up and the other finds it gone.
   */
  const tryCode = (email: string, code: string, attempt: string, ip: string, userAgent: string | null, browserHash: string | undefined) =>
    Effect.gen(function* () {
      const guess = yield* countGuess(email, hashToken(attempt), hashOtp(otpKey, email, code))
      if (guess === undefined || !guess.matched) return { tries: guess?.tries }
      const admin = yield* findAdmin(email)
      if (admin === undefined || admin.disabled || !roleCovers(admin.role, guess.role)) return { tries: guess.tries }
      if (!(yield* useCode(guess.codeId))) return { tries: undefined }
      // The account's role decides, whichever role was asked for: a relayed code for a super
      // admin asked as a moderator still needs the passkey (docs/security.md, "Passkeys").
      const rule = yield* passkeyRequirement(admin.id)
      if (rule.required && rule.passkeys > 0) {
        const step = newSessionToken()
        yield* openStep(hashToken(step), admin.id, guess.role)
        return { tries: guess.tries, step, recoveryCodes: rule.recoveryCodes > 0 }
      }
      if (rule.required && rule.dueBy === null) return { tries: guess.tries, passkeyMissing: true }
      const session = yield* openSession(admin, guess.role, ip, userAgent)
      // Known only once signed in: a relayed code that opened no session makes no browser known.
      if (session !== undefined && browserHash !== undefined) yield* rememberBrowser(browserHash, email)
      return { tries: session === undefined ? undefined : guess.tries, session, dueBy: rule.required ? rule.dueBy?.toISOString() : undefined }
    }).pipe(inTransaction)

  /**
   * A code typed for an e-mail first counts against the day's codes of its browser (or of all
   * browsers not known for the e-mail), whatever its address; past them it is refused uncompared.
   * Then it counts against its attempt (`countGuess`).
   */
  const verifyCode = (input: {
    readonly email: string
    readonly code: string
    readonly attempt: string | undefined
    readonly ip: string
    readonly userAgent: string | null
    readonly browserKey: string | undefined
  }) =>
    Effect.gen(function* () {
      const email = normalizeEmail(input.email)
      if (input.attempt === undefined) {
        const issues = [{ path: "attempt", message: messages.attemptMissing }]
        return yield* new BadRequest({ error: `Invalid request body: ${describeIssues(issues)}`, issues })
      }
      yield* limited(limits.verificationsPerIp, input.ip)
      const browser = yield* browserOf(email, input.browserKey)
      const budget = yield* hit(limits.codeGuesses, browser.subject)
      yield* warnOf(email, input.ip, budget)
      if (!budget.allowed) return yield* pausedError(budget.retryAfterSeconds)
      const outcome = yield* tryCode(email, input.code, input.attempt, input.ip, input.userAgent, browser.keyHash)
      if (outcome.step === undefined && outcome.passkeyMissing === undefined && outcome.session === undefined)
        return yield* refuse(email, input.ip, outcome.tries)
      // The code is used: the next request (another device) is acted on at once. Only the
      // mailbox's owner can get here, so this tells nobody anything.
      yield* Effect.ignore(release(limits.codeResendsPerEmail, browser.subject))
      if (outcome.step !== undefined) {
        return {
          success: true,
          secondStep: true,
          step: outcome.step,
          message: passkeyMessages.secondStep,
          recoveryCodes: outcome.recoveryCodes
        } satisfies SecondStepNeeded
      }
      if (outcome.session === undefined) {
        yield* recordActivity({
          actorId: null,
          actorEmail: email,
          action: "session.verify_failed",
          entityId: null,
          ip: input.ip,
          details: { reason: "passkey required, none held" }
        })
        return yield* new Forbidden({ error: passkeyMessages.required })
      }
      const { session, dueBy } = outcome
      return {
        success: true,
        token: session.token,
        user: session.user,
        expiresAt: session.expiresAt,
        ...(dueBy === undefined ? {} : { passkeyDueBy: dueBy })
      } satisfies SignedIn
    }).pipe(dieOnSqlError)

  return { requestCode, verifyCode }
})

export class SignIn extends Context.Service<SignIn, Effect.Success<typeof makeSignIn>>()("auth/SignIn") {
  static readonly layer = Layer.effect(SignIn, makeSignIn)
}
