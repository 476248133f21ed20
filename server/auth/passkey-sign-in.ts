import { generateAuthenticationOptions, verifyAuthenticationResponse } from "@simplewebauthn/server"
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import type { AdminUser } from "../../contract/auth.ts"
import { roleCovers, TooManyRequests, Unauthorized } from "../../contract/common.ts"
import { type AuthenticationCredential, type AuthenticationOptions, passkeyMessages } from "../../contract/passkeys.ts"
import { requireAllowedIp } from "../allowed-ips/repository.ts"
import { recordActivity } from "../platform/activity-log.ts"
import { clientIp } from "../platform/client-address.ts"
import { Config } from "../platform/config.ts"
import { dieOnSqlError, inTransaction } from "../platform/database.ts"
import { enqueueMail, MailWorker } from "../platform/mail-outbox.ts"
import { guard, hit } from "../platform/rate-limit.ts"
import { hashOtp, hashToken, loadOtpKey } from "../platform/secrets.ts"
import { openSession } from "../sessions/repository.ts"
import {
  countStepTry,
  holdPasskey,
  keepChallenge,
  passkeyForSignIn,
  type PasskeyRow,
  passkeysOf,
  passkeyUsed,
  recoveryCodesLeft,
  stepOf,
  takeChallenge,
  takeStep,
  useRecoveryCode
} from "./repository.ts"
import { normalizeRecoveryCode } from "./recovery-codes.ts"
import { CHALLENGE_SECONDS, challengeOf, relyingParty } from "./ceremony.ts"
import { limits, messages } from "./policy.ts"

/**
 * Signing in with a passkey (docs/security.md, "Passkeys"): alone, the device offering its own
 * passkey for this console (no e-mail typed); or as a code sign-in's second step, when the
 * account's role requires one, with one of the account's passkeys or recovery codes. From an
 * allowed address, limited per address like the code's checks. A refusal says one thing whatever
 * failed, and is logged as a failed sign-in.
 */

/** The options for `navigator.credentials.get`, with a challenge kept for this purpose (and person) 5 minutes, once. */
export const assertionOptions = (purpose: "sign_in" | "second_step" | "confirm", adminId: string | null, passkeys: ReadonlyArray<PasskeyRow>) =>
  Effect.gen(function* () {
    const party = yield* relyingParty
    const options = yield* Effect.promise(() =>
      generateAuthenticationOptions({ rpID: party.id, userVerification: "preferred", timeout: CHALLENGE_SECONDS * 1_000 })
    )
    yield* keepChallenge(options.challenge, purpose, adminId, CHALLENGE_SECONDS)
    return {
      challenge: options.challenge,
      rpId: party.id,
      timeout: CHALLENGE_SECONDS * 1_000,
      userVerification: "preferred",
      allowCredentials: passkeys.map((row) => ({ id: row.credentialId, type: "public-key" as const }))
    } satisfies AuthenticationOptions
  })

/** Whether the answer is this passkey's signature over the challenge, for this console; the counter moves on when it is. */
export const verifyAssertion = (credential: AuthenticationCredential, challenge: string, passkey: PasskeyRow) =>
  Effect.gen(function* () {
    const party = yield* relyingParty
    const verified = yield* Effect.promise(() =>
      verifyAuthenticationResponse({
        response: credential,
        expectedChallenge: challenge,
        expectedOrigin: party.origin,
        expectedRPID: party.id,
        credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter },
        requireUserVerification: false
      }).catch(() => ({ verified: false as const, authenticationInfo: undefined }))
    )
    if (!verified.verified || verified.authenticationInfo === undefined) return false
    yield* passkeyUsed(passkey.id, verified.authenticationInfo.newCounter)
    return true
  })

const recoveryUsedMail = (email: string, left: number) => ({
  to: email,
  subject: "A recovery code was used to sign in to your account",
  text: [
    `One of your recovery codes finished a sign-in to the admin console for ${email}. It no longer works; ${left} ${left === 1 ? "is" : "are"} left.`,
    "If that was you, add a passkey for the device you lost (Settings → Passkeys) and make new recovery codes there.",
    "If it was not, tell a super admin at once: they can reset your passkeys and end every session."
  ].join("\n")
})

export const PasskeySignInHandlers = HttpApiBuilder.group(
  AdminApi,
  "passkeySignIn",
  Effect.fn(function* (handlers) {
    const otpKey = loadOtpKey(yield* Config)
    const worker = yield* MailWorker
    const request = Effect.gen(function* () {
      const ip = yield* clientIp
      yield* requireAllowedIp(ip)
      const userAgent = (yield* HttpServerRequest.HttpServerRequest).headers["user-agent"] ?? null
      return { ip, userAgent }
    })
    const refuse = (ip: string, reason: string, email: string | null = null, error: string = passkeyMessages.signInFailed) =>
      Effect.flatMap(recordActivity({ actorId: null, actorEmail: email, action: "session.verify_failed", entityId: null, ip, details: { reason } }), () =>
        Effect.fail(new Unauthorized({ error }))
      )
    const signedIn = (session: { token: string; user: AdminUser; expiresAt: string } | undefined, ip: string) =>
      session === undefined
        ? refuse(ip, "account disabled meanwhile")
        : Effect.succeed({ success: true as const, token: session.token, user: session.user, expiresAt: session.expiresAt })
    /** A second step's account, if the step is live: 401 otherwise (expired, finished, or never given). */
    const liveStep = (step: string, ip: string, lock = false) =>
      Effect.flatMap(stepOf(hashToken(step), lock), (found) =>
        found === undefined || found.disabled ? refuse(ip, "second step: none live", found?.email ?? null, passkeyMessages.stepExpired) : Effect.succeed(found)
      )
    return handlers
      .handle("options", () =>
        Effect.gen(function* () {
          const { ip } = yield* request
          yield* guard(limits.passkeyOptionsPerIp, ip, passkeyMessages.tooMany)
          return { success: true as const, data: yield* assertionOptions("sign_in", null, []) }
        }).pipe(dieOnSqlError)
      )
      .handle("signIn", ({ payload }) =>
        Effect.gen(function* () {
          const { ip, userAgent } = yield* request
          yield* guard(limits.passkeySignInsPerIp, ip, passkeyMessages.tooMany)
          const challenge = challengeOf(payload.credential)
          // The challenge goes first, whatever follows: an answer is tried once.
          if (challenge === undefined || !(yield* takeChallenge(challenge, "sign_in", null))) return yield* refuse(ip, "passkey: no live challenge")
          const passkey = yield* passkeyForSignIn(payload.credential.id)
          if (passkey === undefined) return yield* refuse(ip, "passkey: unknown")
          if (passkey.disabled) return yield* refuse(ip, "passkey: account disabled", passkey.email)
          if (!(yield* verifyAssertion(payload.credential, challenge, passkey))) return yield* refuse(ip, "passkey: not verified", passkey.email)
          const account = { id: passkey.adminId, email: passkey.email, name: passkey.adminName, role: passkey.accountRole }
          // No more than the role the session that added it acted with, nor than the account's now.
          const role = roleCovers(passkey.accountRole, passkey.role) ? passkey.role : passkey.accountRole
          // Opened only while the passkey is still the account's, its row held: a reset landing
          // meanwhile waits and then ends the session; one that landed before leaves nothing to open.
          const session = yield* inTransaction(
            Effect.gen(function* () {
              if (!(yield* holdPasskey(passkey.id))) return undefined
              return yield* openSession(account, role, ip, userAgent, "passkey")
            })
          )
          return yield* signedIn(session, ip)
        }).pipe(dieOnSqlError)
      )
      .handle("stepOptions", ({ payload }) =>
        Effect.gen(function* () {
          const { ip } = yield* request
          yield* guard(limits.passkeyOptionsPerIp, ip, passkeyMessages.tooMany)
          const step = yield* liveStep(payload.step, ip)
          return { success: true as const, data: yield* assertionOptions("second_step", step.adminId, yield* passkeysOf(step.adminId)) }
        }).pipe(dieOnSqlError)
      )
      .handle("stepPasskey", ({ payload }) =>
        Effect.gen(function* () {
          const { ip, userAgent } = yield* request
          yield* guard(limits.passkeySignInsPerIp, ip, passkeyMessages.tooMany)
          const step = yield* liveStep(payload.step, ip)
          const challenge = challengeOf(payload.credential)
          if (challenge === undefined || !(yield* takeChallenge(challenge, "second_step", step.adminId)))
            return yield* refuse(ip, "second step: no live challenge", step.email)
          const passkey = yield* passkeyForSignIn(payload.credential.id)
          // Only one of this account's own passkeys finishes its sign-in.
          if (passkey === undefined || passkey.adminId !== step.adminId) return yield* refuse(ip, "second step: not this account's passkey", step.email)
          if (!(yield* verifyAssertion(payload.credential, challenge, passkey))) return yield* refuse(ip, "second step: not verified", step.email)
          // Of two answers at once, one finishes the step.
          const account = { id: step.adminId, email: step.email, name: step.name, role: step.accountRole }
          const outcome = yield* inTransaction(
            Effect.gen(function* () {
              if (!(yield* holdPasskey(passkey.id))) return { kind: "gone" as const }
              if (!(yield* takeStep(hashToken(payload.step)))) return { kind: "finished" as const }
              return { kind: "opened" as const, session: yield* openSession(account, step.role, ip, userAgent, "code+passkey") }
            })
          )
          if (outcome.kind === "finished") return yield* refuse(ip, "second step: already finished", step.email, passkeyMessages.stepExpired)
          return yield* signedIn(outcome.kind === "opened" ? outcome.session : undefined, ip)
        }).pipe(dieOnSqlError)
      )
      .handle("stepRecovery", ({ payload }) =>
        Effect.gen(function* () {
          const { ip, userAgent } = yield* request
          yield* guard(limits.verificationsPerIp, ip, messages.tooMany)
          const tokenHash = hashToken(payload.step)
          // The step's row is held while its guess is counted and compared: guesses at one step
          // take turns, each seeing the count the one before left (no more than five compared).
          const outcome = yield* inTransaction(
            Effect.gen(function* () {
              const step = yield* stepOf(tokenHash, true)
              if (step === undefined || step.disabled) return { kind: "no step" as const, email: step?.email ?? null }
              // The account's day of guesses, the code's own budget (docs/security.md, "Sign-in").
              const budget = yield* hit(limits.recoveryGuesses, step.adminId)
              if (!budget.allowed) return { kind: "paused" as const, email: step.email, seconds: budget.retryAfterSeconds }
              if (!(yield* useRecoveryCode(step.adminId, hashOtp(otpKey, step.adminId, normalizeRecoveryCode(payload.code))))) {
                yield* countStepTry(tokenHash)
                return { kind: "wrong" as const, email: step.email }
              }
              yield* takeStep(tokenHash)
              const account = { id: step.adminId, email: step.email, name: step.name, role: step.accountRole }
              const session = yield* openSession(account, step.role, ip, userAgent, "code+recovery")
              const left = yield* recoveryCodesLeft(step.adminId)
              yield* enqueueMail(recoveryUsedMail(step.email, left), 24 * 60)
              return { kind: "signed in" as const, email: step.email, session }
            })
          )
          switch (outcome.kind) {
            case "no step":
              return yield* refuse(ip, "recovery: no live step", outcome.email, passkeyMessages.stepExpired)
            case "paused":
              yield* recordActivity({
                actorId: null,
                actorEmail: outcome.email,
                action: "session.verify_failed",
                entityId: null,
                ip,
                details: { reason: "recovery: day's guesses used" }
              })
              return yield* new TooManyRequests({ error: passkeyMessages.recoveryPaused, retryAfterSeconds: outcome.seconds })
            case "wrong":
              return yield* refuse(ip, "recovery: wrong code", outcome.email, passkeyMessages.recoveryRefused)
            case "signed in":
              yield* worker.wake
              return yield* signedIn(outcome.session, ip)
          }
        }).pipe(dieOnSqlError)
      )
  })
)
