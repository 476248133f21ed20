import { generateRegistrationOptions, verifyRegistrationResponse } from "@simplewebauthn/server"
import { isoUint8Array } from "@simplewebauthn/server/helpers"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { randomUUID } from "node:crypto"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession, type Session } from "../../contract/auth.ts"
import { BadRequest, Conflict, NotFound } from "../../contract/common.ts"
import { MAX_PASSKEYS, type Passkey, passkeyMessages, RECOVERY_CODES, type RegistrationOptions } from "../../contract/passkeys.ts"
import { findAccount } from "../admin-users/repository.ts"
import { Config } from "../platform/config.ts"
import { recordActivity, recordAdminActivity } from "../platform/activity-log.ts"
import { dieOnSqlError, inTransaction } from "../platform/database.ts"
import { enqueueMail, MailWorker } from "../platform/mail-outbox.ts"
import { hashOtp, loadOtpKey } from "../platform/secrets.ts"
import { firstPasskeyEndsCodeConfirmations } from "../sessions/confirmation-repository.ts"
import { endCodeOnlySessions, endingSessions, followAdmin } from "../sessions/repository.ts"
import { algorithms, CHALLENGE_SECONDS, challengeOf, relyingParty } from "./ceremony.ts"
import { passkeyAddedMail, passkeyRemovedMail, passkeyRenamedMail, recoveryMadeMail } from "./passkey-mails.ts"
import { newRecoveryCode, normalizeRecoveryCode } from "./recovery-codes.ts"
import {
  addOwnPasskey,
  keepChallenge,
  passkeyRequirement,
  type PasskeyRow,
  passkeyRules,
  passkeysOf,
  removeOwnPasskey,
  renameOwnPasskey,
  replaceRecoveryCodes,
  resetPasskeys,
  setPasskeyRule,
  takeChallenge
} from "./repository.ts"
import { requireConfirmed, requireSuperAdmin } from "./roles.ts"

/**
 * Passkeys (docs/security.md, "Passkeys"): a signed-in person adds WebAuthn credentials to their
 * own account through `@simplewebauthn/server` (docs/decisions.md, "Passkeys"). Each ceremony's
 * challenge is kept once, for 5 minutes, for that person; the answer is checked against it, this
 * console's origin and its relying party's id (`PUBLIC_ORIGIN`), and takes it, so it works once.
 * Their writes are the sign-in's own, like sessions', each in the activity log.
 */

const passkeyOf = (row: PasskeyRow): Passkey => ({
  _id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  backedUp: row.backedUp
})

/** What the person's role asks of them: whether it requires a passkey, and until when the code alone still signs in. */
const requirementOf = (session: Session) =>
  Effect.map(passkeyRequirement(session.user._id), (rule) => ({
    required: rule.required,
    dueBy: rule.required && rule.passkeys === 0 && rule.dueBy !== null ? rule.dueBy.toISOString() : null,
    recoveryCodesLeft: rule.recoveryCodes
  }))

/**
 * A super admin's reset of another person's passkeys (or the command line's, `actor` null): their
 * passkeys, recovery codes and second steps go, every session of theirs ends, and they may sign
 * in with a code alone for `PERSONAL_GRACE_DAYS` to add one. Logged as `admin.passkeys_reset`.
 */
export const resetAccountPasskeys = (adminId: string, actor: { readonly id: string; readonly email: string; readonly ip: string } | null) =>
  inTransaction(
    Effect.gen(function* () {
      const reset = yield* resetPasskeys(adminId)
      if (reset === undefined) return undefined
      yield* followAdmin(adminId, { disabled: true, lowerTo: undefined })
      yield* recordActivity({
        actorId: actor?.id ?? null,
        actorEmail: actor?.email ?? null,
        action: "admin.passkeys_reset",
        entityId: adminId,
        ip: actor?.ip ?? null,
        details: { removed: reset.removed, graceUntil: reset.graceUntil.toISOString() }
      })
      return reset
    })
  ).pipe(endingSessions, dieOnSqlError)

/**
 * The signed-in person, once this session confirmed it's you: adding, renaming and removing a
 * passkey and making recovery codes are guarded changes (docs/security.md, "Confirm what matters").
 */
const confirmedSession = Effect.andThen(requireConfirmed, CurrentSession)

export const PasskeyHandlers = HttpApiBuilder.group(
  AdminApi,
  "passkeys",
  Effect.fn(function* (handlers) {
    const otpKey = loadOtpKey(yield* Config)
    const worker = yield* MailWorker
    /** Writes `change` and its mail to the owner in one transaction, then wakes the mail worker. */
    const withMail = <A, E, R>(change: Effect.Effect<A, E, R>, mail: (done: A) => ReturnType<typeof passkeyAddedMail> | undefined) =>
      inTransaction(
        Effect.tap(change, (done) => {
          const told = mail(done)
          return told === undefined ? Effect.void : enqueueMail(told, 24 * 60)
        })
      ).pipe(Effect.tap(() => worker.wake))
    return handlers
      .handle("list", () =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          const passkeys = (yield* passkeysOf(session.user._id)).map(passkeyOf)
          return { success: true as const, data: { passkeys, ...(yield* requirementOf(session)) } }
        })
      )
      .handle("rename", ({ params, payload }) =>
        Effect.gen(function* () {
          const session = yield* confirmedSession
          const name = payload.name.trim()
          const renamed = yield* withMail(renameOwnPasskey(session.user._id, params.id, name), (row) =>
            typeof row !== "object" || row.before === row.name ? undefined : passkeyRenamedMail(session.user.email, row.before, row.name, session.ip)
          )
          if (renamed === undefined) return yield* new NotFound({ error: passkeyMessages.notFound })
          if (renamed === "name taken") return yield* new Conflict({ error: passkeyMessages.nameTaken(name) })
          return { success: true as const, data: { passkey: passkeyOf(renamed) } }
        }).pipe(dieOnSqlError)
      )
      .handle("recoveryCodes", () =>
        Effect.gen(function* () {
          const session = yield* confirmedSession
          const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode)
          const hashes = codes.map((code) => hashOtp(otpKey, session.user._id, normalizeRecoveryCode(code)))
          const made = Effect.andThen(replaceRecoveryCodes(session.user._id, hashes), () =>
            recordAdminActivity({ action: "session.recovery_codes", entityId: null, details: { made: codes.length } })
          )
          yield* withMail(made, () => recoveryMadeMail(session.user.email, session.ip))
          return { success: true as const, data: { codes } }
        }).pipe(dieOnSqlError)
      )
      .handle("rules", () =>
        Effect.gen(function* () {
          yield* requireSuperAdmin(passkeyMessages.superOnly)
          return { success: true as const, data: { rules: yield* passkeyRules } }
        })
      )
      .handle("setRule", ({ params, payload }) =>
        Effect.gen(function* () {
          yield* requireSuperAdmin(passkeyMessages.superOnly)
          yield* requireConfirmed
          // A role that now requires a passkey ends its code-only sessions at once, in every server
          // (docs/security.md, "Required by role"): under `endingSessions`, as a disabling is.
          const rule = yield* endingSessions(
            Effect.gen(function* () {
              const rule = yield* setPasskeyRule(params.role, payload.required, payload.graceDays)
              yield* recordAdminActivity({ action: "admin.passkey_rule", entityId: null, toState: rule.required ? "required" : "optional", details: rule })
              if (rule.required) yield* endCodeOnlySessions(rule.role, rule.graceUntil === null ? null : new Date(rule.graceUntil))
              return rule
            })
          ).pipe(dieOnSqlError)
          return { success: true as const, data: { rule } }
        })
      )
      .handle("reset", ({ params }) =>
        Effect.gen(function* () {
          const session = yield* requireSuperAdmin(passkeyMessages.superOnly)
          yield* requireConfirmed
          if ((yield* findAccount(params.id)) === undefined) return yield* new NotFound({ error: passkeyMessages.adminNotFound })
          const reset = yield* resetAccountPasskeys(params.id, { id: session.user._id, email: session.user.email, ip: session.ip })
          if (reset === undefined) return yield* new NotFound({ error: passkeyMessages.adminNotFound })
          return { success: true as const, data: { removed: reset.removed, graceUntil: reset.graceUntil.toISOString() } }
        })
      )
      .handle("registrationOptions", () =>
        Effect.gen(function* () {
          const session = yield* confirmedSession
          const party = yield* relyingParty
          const held = yield* passkeysOf(session.user._id)
          if (held.length >= MAX_PASSKEYS) return yield* new Conflict({ error: passkeyMessages.atMost })
          const options = yield* Effect.promise(() =>
            generateRegistrationOptions({
              rpName: "Admin Console",
              rpID: party.id,
              userName: session.user.email,
              userDisplayName: session.user.name ?? session.user.email,
              // The account's id, so an authenticator keeps one passkey per account and site.
              userID: isoUint8Array.fromUTF8String(session.user._id),
              timeout: CHALLENGE_SECONDS * 1_000,
              attestationType: "none",
              excludeCredentials: held.map((row) => ({ id: row.credentialId })),
              authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
              supportedAlgorithmIDs: [...algorithms],
              preferredAuthenticatorType: undefined
            })
          )
          yield* keepChallenge(options.challenge, "register", session.user._id, CHALLENGE_SECONDS)
          const answer: RegistrationOptions = {
            challenge: options.challenge,
            rp: { name: options.rp.name, id: party.id },
            user: options.user,
            pubKeyCredParams: options.pubKeyCredParams.map((param) => ({ alg: param.alg, type: "public-key" as const })),
            timeout: CHALLENGE_SECONDS * 1_000,
            excludeCredentials: held.map((row) => ({ id: row.credentialId, type: "public-key" as const })),
            authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "preferred" },
            attestation: "none"
          }
          return { success: true as const, data: answer }
        })
      )
      .handle("register", ({ payload }) =>
        Effect.gen(function* () {
          const session = yield* confirmedSession
          const party = yield* relyingParty
          const challenge = challengeOf(payload.credential)
          // The challenge goes first, whatever follows: an answer is tried once.
          if (challenge === undefined || !(yield* takeChallenge(challenge, "register", session.user._id)))
            return yield* new BadRequest({ error: passkeyMessages.expired })
          const verified = yield* Effect.promise(() =>
            verifyRegistrationResponse({
              response: payload.credential as Parameters<typeof verifyRegistrationResponse>[0]["response"],
              expectedChallenge: challenge,
              expectedOrigin: party.origin,
              expectedRPID: party.id,
              requireUserVerification: false,
              supportedAlgorithmIDs: [...algorithms]
            }).catch(() => ({ verified: false as const, registrationInfo: undefined }))
          )
          const info = verified.registrationInfo
          // The credential the authenticator made is the one the answer names.
          if (!verified.verified || info === undefined || info.credential.id !== payload.credential.id)
            return yield* new BadRequest({ error: passkeyMessages.notVerified })
          const id = randomUUID()
          const row = {
            id,
            adminId: session.user._id,
            credentialId: info.credential.id,
            publicKey: info.credential.publicKey,
            counter: info.credential.counter,
            transports: (payload.credential.response.transports ?? []).join(","),
            name: payload.name.trim(),
            backedUp: info.credentialBackedUp,
            role: session.user.role,
            sessionId: session.id
          }
          // Told by mail, as a sign-in code is: a passkey added by someone else holding the session is
          // seen. The mail is the passkey's own write, so a refused or failed one mails nothing.
          const adding = Effect.tap(addOwnPasskey(row, MAX_PASSKEYS), (added) =>
            typeof added === "object" ? firstPasskeyEndsCodeConfirmations(session.user._id, session.id) : Effect.void
          )
          const added = yield* withMail(adding, (done) => (typeof done === "object" ? passkeyAddedMail(session.user.email, done.name, session.ip) : undefined))
          if (added === "known") return yield* new Conflict({ error: passkeyMessages.known })
          if (added === "too many") return yield* new Conflict({ error: passkeyMessages.atMost })
          if (added === "name taken") return yield* new Conflict({ error: passkeyMessages.nameTaken(row.name) })
          return { success: true as const, data: { passkey: passkeyOf(added) } }
        }).pipe(dieOnSqlError)
      )
      .handle("remove", ({ params }) =>
        Effect.gen(function* () {
          const session = yield* confirmedSession
          const { required } = yield* passkeyRequirement(session.user._id)
          const removed = yield* withMail(removeOwnPasskey(session.user._id, params.id, required), (gone) =>
            typeof gone === "object" ? passkeyRemovedMail(session.user.email, gone.name, session.ip) : undefined
          )
          if (removed === "last") return yield* new Conflict({ error: passkeyMessages.lastRequired })
          if (removed === false) return yield* new NotFound({ error: passkeyMessages.notFound })
          return { success: true as const }
        }).pipe(dieOnSqlError)
      )
  })
)
