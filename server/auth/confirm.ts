import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession } from "../../contract/auth.ts"
import { Conflict, Unauthorized } from "../../contract/common.ts"
import { CONFIRM_MINUTES, type Confirmation, confirmMessages } from "../../contract/confirm.ts"
import { recordActivity } from "../platform/activity-log.ts"
import { Config } from "../platform/config.ts"
import { dieOnSqlError } from "../platform/database.ts"
import { enqueueMail, MailWorker } from "../platform/mail-outbox.ts"
import { guard } from "../platform/rate-limit.ts"
import { hashOtp, loadOtpKey, newOtpCode } from "../platform/secrets.ts"
import { confirmSession, keepConfirmCode, sessionConfirmation, tryConfirmCode } from "../sessions/confirmation-repository.ts"
import { assertionOptions, verifyAssertion } from "./passkey-sign-in.ts"
import { limits, OTP_MAX_ATTEMPTS, OTP_TTL_MINUTES } from "./policy.ts"
import { passkeyForSignIn, passkeysOf, takeChallenge } from "./repository.ts"
import { challengeOf } from "./ceremony.ts"

/**
 * Confirming it's you again (docs/security.md, "Confirm what matters"), as GitHub's sudo mode:
 * what changes who may do what (admin users and roles, the allowed addresses, passkey rules and
 * resets, one's own passkeys and recovery codes), protected data and a restore ask for the
 * session's passkey again once its last use is older than `CONFIRM_MINUTES`, never one this
 * session added; an account with no passkey confirms with a code by e-mail.
 */

const answer = (confirmation: { readonly method: Confirmation["method"]; readonly until: Date | null }) => ({
  success: true as const,
  data: { method: confirmation.method, confirmedUntil: confirmation.until?.toISOString() ?? null }
})

const confirmMail = (email: string, code: string) => ({
  to: email,
  subject: `Your confirmation code: ${code}`,
  text: [
    `Your code to confirm it's you in the admin console is ${code}.`,
    `Type it where you were asked for it. It works once and expires in ${OTP_TTL_MINUTES} minutes.`,
    "If you did not ask for it, someone is using your signed-in session: sign out everywhere (Settings → Sessions) and tell a super admin."
  ].join("\n")
})

export const ConfirmHandlers = HttpApiBuilder.group(
  AdminApi,
  "confirm",
  Effect.fn(function* (handlers) {
    const otpKey = loadOtpKey(yield* Config)
    const worker = yield* MailWorker
    const refused = (reason: string, error: string) =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        yield* recordActivity({
          actorId: session.user._id,
          actorEmail: session.user.email,
          action: "session.confirm_failed",
          entityId: session.id,
          ip: session.ip,
          details: { reason }
        })
        return yield* new Unauthorized({ error })
      })
    return handlers
      .handle("status", () =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          return answer(yield* sessionConfirmation(session.id, CONFIRM_MINUTES))
        })
      )
      .handle("options", () =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          yield* guard(limits.confirmationsPerSession, session.id, confirmMessages.tooMany)
          const passkeys = yield* passkeysOf(session.user._id)
          if (passkeys.length === 0) return yield* new Conflict({ error: confirmMessages.noPasskey })
          // Not those this session added: a passkey never confirms the session that added it.
          const before = passkeys.filter((passkey) => passkey.sessionId !== session.id)
          if (before.length === 0) return yield* new Conflict({ error: confirmMessages.addedHere })
          return { success: true as const, data: yield* assertionOptions("confirm", session.user._id, before) }
        }).pipe(dieOnSqlError)
      )
      .handle("passkey", ({ payload }) =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          yield* guard(limits.confirmationsPerSession, session.id, confirmMessages.tooMany)
          const challenge = challengeOf(payload.credential)
          if (challenge === undefined || !(yield* takeChallenge(challenge, "confirm", session.user._id)))
            return yield* refused("confirm: no live challenge", confirmMessages.refused)
          const passkey = yield* passkeyForSignIn(payload.credential.id)
          // Only one of the session's own account's passkeys confirms it.
          if (passkey === undefined || passkey.adminId !== session.user._id)
            return yield* refused("confirm: not this account's passkey", confirmMessages.refused)
          // Added by this session: whoever holds the session made it, so it proves nothing more.
          if (passkey.sessionId === session.id) return yield* refused("confirm: added in this session", confirmMessages.addedHere)
          if (!(yield* verifyAssertion(payload.credential, challenge, passkey))) return yield* refused("confirm: not verified", confirmMessages.refused)
          yield* confirmSession(session.id, "passkey")
          return answer(yield* sessionConfirmation(session.id, CONFIRM_MINUTES))
        }).pipe(dieOnSqlError)
      )
      .handle("sendCode", () =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          // An account with passkeys confirms with one: a code by e-mail is what a phishing page relays.
          if ((yield* passkeysOf(session.user._id)).length > 0) return yield* new Conflict({ error: confirmMessages.hasPasskey })
          yield* guard(limits.confirmationsPerSession, session.id, confirmMessages.tooMany)
          const code = newOtpCode()
          yield* keepConfirmCode(session.id, hashOtp(otpKey, session.id, code), OTP_TTL_MINUTES)
          yield* enqueueMail(confirmMail(session.user.email, code), OTP_TTL_MINUTES)
          yield* worker.wake
          return { success: true as const }
        }).pipe(dieOnSqlError)
      )
      .handle("verifyCode", ({ payload }) =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          yield* guard(limits.confirmationsPerSession, session.id, confirmMessages.tooMany)
          // A code mailed before the account's first passkey no longer confirms once it has one.
          if ((yield* passkeysOf(session.user._id)).length > 0) return yield* new Conflict({ error: confirmMessages.hasPasskey })
          if (!(yield* tryConfirmCode(session.id, hashOtp(otpKey, session.id, payload.code), OTP_MAX_ATTEMPTS)))
            return yield* refused("confirm: wrong code", confirmMessages.wrongCode)
          yield* confirmSession(session.id, "code")
          return answer(yield* sessionConfirmation(session.id, CONFIRM_MINUTES))
        }).pipe(dieOnSqlError)
      )
  })
)
