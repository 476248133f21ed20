import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server"
import { isoBase64URL, isoUint8Array } from "@simplewebauthn/server/helpers"
import { Effect } from "effect"
import { HttpServer, HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { randomUUID } from "node:crypto"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession } from "../../contract/auth.ts"
import { BadRequest, Conflict, NotFound, roleCovers, Unauthorized } from "../../contract/common.ts"
import { MAX_PASSKEYS, type Passkey, passkeyMessages, type AuthenticationOptions, type RegistrationOptions } from "../../contract/passkeys.ts"
import { Config } from "../platform/config.ts"
import { requireAllowedIp } from "../allowed-ips/repository.ts"
import { recordActivity } from "../platform/activity-log.ts"
import { clientIp } from "../platform/client-address.ts"
import { guard } from "../platform/rate-limit.ts"
import { dieOnSqlError } from "../platform/database.ts"
import { openSession } from "../sessions/repository.ts"
import { limits } from "./policy.ts"
import { addOwnPasskey, keepChallenge, type PasskeyRow, passkeyForSignIn, passkeysOf, passkeyUsed, removeOwnPasskey, takeChallenge } from "./repository.ts"

/**
 * Passkeys (docs/security.md, "Passkeys"): a signed-in person adds WebAuthn credentials to their
 * own account through `@simplewebauthn/server` (docs/decisions.md, "Passkeys"). Each ceremony's
 * challenge is kept once, for 5 minutes, for that person; the answer is checked against it, this
 * console's origin and its relying party's id (`PUBLIC_ORIGIN`), and takes it, so it works once.
 * Their writes are the sign-in's own, like sessions', each in the activity log.
 */

/** How long a ceremony's challenge may be answered. */
export const CHALLENGE_SECONDS = 300

/**
 * Where passkeys are bound: the console's public address (`PUBLIC_ORIGIN`) and its host; unset,
 * `http://localhost:` and the port the server listens on (never a request's own Host, which a
 * relaying page would choose).
 */
export const relyingParty = Effect.gen(function* () {
  const config = yield* Config
  const server = yield* HttpServer.HttpServer
  const port = "port" in server.address ? server.address.port : config.port
  const origin = config.publicOrigin ?? `http://localhost:${port}`
  return { origin, id: new URL(origin).hostname }
})

const passkeyOf = (row: PasskeyRow): Passkey => ({
  _id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  backedUp: row.backedUp
})

/**
 * The challenge an authenticator signed, as its client data says; undefined when unreadable, or
 * when a cross-origin frame asked (this console refuses to be framed: defence in depth).
 */
const challengeOf = (credential: { readonly response: { readonly clientDataJSON: string } }): string | undefined => {
  try {
    const data: unknown = JSON.parse(isoBase64URL.toUTF8String(credential.response.clientDataJSON))
    if (typeof data !== "object" || data === null || ("crossOrigin" in data && data.crossOrigin === true)) return undefined
    return "challenge" in data && typeof data.challenge === "string" ? data.challenge : undefined
  } catch {
    return undefined
  }
}

export const PasskeyHandlers = HttpApiBuilder.group(AdminApi, "passkeys", (handlers) =>
  handlers
    .handle("list", () =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        return { success: true as const, data: { passkeys: (yield* passkeysOf(session.user._id)).map(passkeyOf) } }
      })
    )
    .handle("registrationOptions", () =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
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
        const session = yield* CurrentSession
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
            requireUserVerification: false
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
          role: session.user.role
        }
        const added = yield* addOwnPasskey(row, MAX_PASSKEYS)
        if (added === "known") return yield* new Conflict({ error: passkeyMessages.known })
        if (added === "too many") return yield* new Conflict({ error: passkeyMessages.atMost })
        return { success: true as const, data: { passkey: passkeyOf(added) } }
      })
    )
    .handle("remove", ({ params }) =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        if (!(yield* removeOwnPasskey(session.user._id, params.id))) return yield* new NotFound({ error: passkeyMessages.notFound })
        return { success: true as const }
      })
    )
)

/**
 * Signing in with a passkey (docs/security.md, "Passkeys"): from an allowed address, limited per
 * address like the code's checks; the device offers its own passkey for this console (no e-mail
 * typed). A refusal says one thing whatever failed, and is logged as a failed sign-in.
 */
export const PasskeySignInHandlers = HttpApiBuilder.group(AdminApi, "passkeySignIn", (handlers) =>
  handlers
    .handle("options", () =>
      Effect.gen(function* () {
        const ip = yield* clientIp
        yield* requireAllowedIp(ip)
        yield* guard(limits.passkeyOptionsPerIp, ip, passkeyMessages.tooMany)
        const party = yield* relyingParty
        const options = yield* Effect.promise(() =>
          generateAuthenticationOptions({ rpID: party.id, userVerification: "preferred", timeout: CHALLENGE_SECONDS * 1_000 })
        )
        yield* keepChallenge(options.challenge, "sign_in", null, CHALLENGE_SECONDS)
        const answer: AuthenticationOptions = {
          challenge: options.challenge,
          rpId: party.id,
          timeout: CHALLENGE_SECONDS * 1_000,
          userVerification: "preferred",
          allowCredentials: []
        }
        return { success: true as const, data: answer }
      }).pipe(dieOnSqlError)
    )
    .handle("signIn", ({ payload }) =>
      Effect.gen(function* () {
        const ip = yield* clientIp
        yield* requireAllowedIp(ip)
        yield* guard(limits.passkeySignInsPerIp, ip, passkeyMessages.tooMany)
        const party = yield* relyingParty
        const refuse = (reason: string, email: string | null = null) =>
          Effect.flatMap(recordActivity({ actorId: null, actorEmail: email, action: "session.verify_failed", entityId: null, ip, details: { reason } }), () =>
            Effect.fail(new Unauthorized({ error: passkeyMessages.signInFailed }))
          )
        const challenge = challengeOf(payload.credential)
        // The challenge goes first, whatever follows: an answer is tried once.
        if (challenge === undefined || !(yield* takeChallenge(challenge, "sign_in", null))) return yield* refuse("passkey: no live challenge")
        const passkey = yield* passkeyForSignIn(payload.credential.id)
        if (passkey === undefined) return yield* refuse("passkey: unknown")
        if (passkey.disabled) return yield* refuse("passkey: account disabled", passkey.email)
        const verified = yield* Effect.promise(() =>
          verifyAuthenticationResponse({
            response: payload.credential,
            expectedChallenge: challenge,
            expectedOrigin: party.origin,
            expectedRPID: party.id,
            credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter },
            requireUserVerification: false
          }).catch(() => ({ verified: false as const, authenticationInfo: undefined }))
        )
        if (!verified.verified || verified.authenticationInfo === undefined) return yield* refuse("passkey: not verified", passkey.email)
        yield* passkeyUsed(passkey.id, verified.authenticationInfo.newCounter)
        const userAgent = (yield* HttpServerRequest.HttpServerRequest).headers["user-agent"] ?? null
        const account = { id: passkey.adminId, email: passkey.email, name: passkey.adminName, role: passkey.accountRole }
        // No more than the role the session that added it acted with, nor than the account's now.
        const role = roleCovers(passkey.accountRole, passkey.role) ? passkey.role : passkey.accountRole
        const session = yield* openSession(account, role, ip, userAgent)
        return { success: true as const, token: session.token, user: session.user, expiresAt: session.expiresAt }
      }).pipe(dieOnSqlError)
    )
)
