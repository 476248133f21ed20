import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization, SignedIn } from "./auth.ts"
import { BadRequest, boundedArray, Conflict, Forbidden, Id, NotFound, Ok, RecordId, RequiredText, Timestamp, TooManyRequests, Unauthorized } from "./common.ts"

// Passkeys (docs/api.md, "Passkeys"; docs/security.md, "Passkeys"): WebAuthn credentials a
// signed-in person adds to their own account. The ceremonies' shapes are WebAuthn's JSON, as
// `@simplewebauthn/browser` sends them; every text is bounded (docs/api.md, "Limits").

/** base64url, as WebAuthn's JSON writes bytes, at most `max` characters. */
const Base64Url = (max: number) =>
  Schema.String.check(
    Schema.isMaxLength(max, { message: `must be at most ${max} characters` }),
    Schema.isPattern(/^[A-Za-z0-9_-]*$/u, { message: "must be base64url" })
  )

/** A credential id: at most 1,023 bytes (WebAuthn), 1,364 characters of base64url. */
const CredentialId = Base64Url(1_364).check(Schema.isMinLength(1, { message: "is required" }))

const Transport = Schema.Literals(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"])
const Transports = boundedArray(Transport, { max: 7, tooMany: "must have at most 7 items" })

/** What an authenticator answered to `navigator.credentials.create` (RegistrationResponseJSON). */
export const RegistrationCredential = Schema.Struct({
  id: CredentialId,
  rawId: CredentialId,
  type: Schema.Literal("public-key"),
  response: Schema.Struct({
    clientDataJSON: Base64Url(4_096),
    attestationObject: Base64Url(16_384),
    authenticatorData: Schema.optionalKey(Base64Url(16_384)),
    publicKey: Schema.optionalKey(Base64Url(4_096)),
    publicKeyAlgorithm: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: -65_536, maximum: 65_536 }))),
    transports: Schema.optionalKey(Transports)
  }),
  authenticatorAttachment: Schema.optionalKey(Schema.Literals(["platform", "cross-platform"])),
  clientExtensionResults: Schema.Struct({
    credProps: Schema.optionalKey(Schema.Struct({ rk: Schema.optionalKey(Schema.Boolean) }))
  })
})
export type RegistrationCredential = typeof RegistrationCredential.Type

/** What the browser passes to `navigator.credentials.create` (PublicKeyCredentialCreationOptionsJSON). */
export const RegistrationOptions = Schema.Struct({
  challenge: Schema.String,
  rp: Schema.Struct({ name: Schema.String, id: Schema.String }),
  user: Schema.Struct({ id: Schema.String, name: Schema.String, displayName: Schema.String }),
  pubKeyCredParams: Schema.Array(Schema.Struct({ alg: Schema.Int, type: Schema.Literal("public-key") })),
  timeout: Schema.Int,
  excludeCredentials: Schema.Array(
    Schema.Struct({ id: Schema.String, type: Schema.Literal("public-key"), transports: Schema.optionalKey(Schema.Array(Transport)) })
  ),
  authenticatorSelection: Schema.Struct({
    residentKey: Schema.Literal("required"),
    requireResidentKey: Schema.Boolean,
    userVerification: Schema.Literal("preferred")
  }),
  attestation: Schema.Literal("none")
})
export type RegistrationOptions = typeof RegistrationOptions.Type

/** What an authenticator answered to `navigator.credentials.get` (AuthenticationResponseJSON). */
export const AuthenticationCredential = Schema.Struct({
  id: CredentialId,
  rawId: CredentialId,
  type: Schema.Literal("public-key"),
  response: Schema.Struct({
    clientDataJSON: Base64Url(4_096),
    authenticatorData: Base64Url(16_384),
    signature: Base64Url(1_024),
    userHandle: Schema.optionalKey(Base64Url(1_024))
  }),
  authenticatorAttachment: Schema.optionalKey(Schema.Literals(["platform", "cross-platform"])),
  clientExtensionResults: Schema.Struct({})
})
export type AuthenticationCredential = typeof AuthenticationCredential.Type

/** What the browser passes to `navigator.credentials.get`: no credentials named, the device offers its own (discoverable). */
export const AuthenticationOptions = Schema.Struct({
  challenge: Schema.String,
  rpId: Schema.String,
  timeout: Schema.Int,
  userVerification: Schema.Literal("preferred"),
  allowCredentials: Schema.Array(Schema.Struct({ id: Schema.String, type: Schema.Literal("public-key") }))
})
export type AuthenticationOptions = typeof AuthenticationOptions.Type

/** A passkey as its owner sees it: never its key. */
export const Passkey = Schema.Struct({
  _id: Id,
  name: Schema.String,
  createdAt: Timestamp,
  lastUsedAt: Schema.NullOr(Timestamp),
  /** Kept in the person's password manager or cloud account (it can be restored on a new device). */
  backedUp: Schema.Boolean
})
export type Passkey = typeof Passkey.Type

/** The most passkeys one person keeps. */
export const MAX_PASSKEYS = 10

export const passkeyMessages = {
  expired: "This passkey request has expired or was already used. Start again.",
  notVerified: "This passkey could not be verified. Try again, or use another one.",
  known: "This passkey is already registered.",
  atMost: `You have ${MAX_PASSKEYS} passkeys, the most an account keeps. Remove one first.`,
  notFound: "This passkey no longer exists.",
  signInFailed: "This passkey could not sign you in. Use another one, or sign in with a code by e-mail.",
  tooMany: (wait: string) => `Too many passkey sign-ins from this address. Try again in ${wait}.`
} as const

/** What the console's form checks before the ceremony: the passkey's name. */
export const PasskeyName = Schema.Struct({ name: RequiredText })

export const PasskeyRegistration = Schema.Struct({ ...PasskeyName.fields, credential: RegistrationCredential })

export class PasskeysApi extends HttpApiGroup.make("passkeys")
  .add(
    HttpApiEndpoint.get("list", "/api/admin/passkeys", {
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ passkeys: Schema.Array(Passkey) }) })
    }).annotate(OpenApi.Summary, "The caller's passkeys, newest first"),
    HttpApiEndpoint.post("registrationOptions", "/api/admin/auth/passkeys/options", {
      success: Schema.Struct({ success: Schema.Literal(true), data: RegistrationOptions }),
      error: [Conflict]
    }).annotate(OpenApi.Summary, "Start adding a passkey: the options for navigator.credentials.create, with a challenge valid 5 minutes, once"),
    HttpApiEndpoint.post("register", "/api/admin/auth/passkeys", {
      payload: PasskeyRegistration,
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ passkey: Passkey }) }),
      error: [BadRequest, Conflict]
    }).annotate(OpenApi.Summary, "Add a passkey: the authenticator's answer to the options, checked against their challenge and this console's origin"),
    HttpApiEndpoint.delete("remove", "/api/admin/passkeys/:id", {
      params: { id: RecordId },
      success: Ok,
      error: [NotFound, Forbidden]
    }).annotate(OpenApi.Summary, "Remove one of the caller's passkeys")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Passkeys")
  .annotate(OpenApi.Description, "WebAuthn passkeys a signed-in person adds to their own account.") {}

/** Signing in with a passkey (docs/api.md, "Passkeys"): no token yet, from an allowed address, limited per address. */
export class PasskeySignInApi extends HttpApiGroup.make("passkeySignIn")
  .add(
    HttpApiEndpoint.post("options", "/api/admin/auth/passkeys/sign-in/options", {
      success: Schema.Struct({ success: Schema.Literal(true), data: AuthenticationOptions }),
      error: [Forbidden, TooManyRequests]
    }).annotate(OpenApi.Summary, "Start a passkey sign-in: options for navigator.credentials.get, with a challenge valid 5 minutes, once"),
    HttpApiEndpoint.post("signIn", "/api/admin/auth/passkeys/sign-in", {
      payload: Schema.Struct({ credential: AuthenticationCredential }),
      success: SignedIn,
      error: [Unauthorized, Forbidden, TooManyRequests]
    }).annotate(OpenApi.Summary, "Sign in with a passkey: the device's answer, checked against the challenge, the console's origin and the passkey's key")
  )
  .annotate(OpenApi.Title, "Passkey sign-in")
  .annotate(OpenApi.Description, "Signing in with a discoverable passkey instead of a code by e-mail.") {}
