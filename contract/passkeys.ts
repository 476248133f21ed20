import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization, RandomKey, SignedIn } from "./auth.ts"
import {
  BadRequest,
  boundedArray,
  Conflict,
  Forbidden,
  Id,
  NotFound,
  Ok,
  RecordId,
  RequiredText,
  Role,
  Timestamp,
  TooManyRequests,
  Unauthorized
} from "./common.ts"
import { KeptAnswer } from "./idempotency.ts"

// Passkeys (docs/api.md, "Passkeys"; docs/security.md, "Passkeys"): WebAuthn credentials a
// signed-in person adds to their own account. The ceremonies' shapes are WebAuthn's JSON, as
// `@simplewebauthn/browser` sends them; every text is bounded (docs/api.md, "Limits").

/** base64url, as WebAuthn's JSON writes bytes, at most `max` characters. */
const Base64Url = (max: number) =>
  Schema.String.check(
    Schema.isMaxLength(max, { message: `must be at most ${max} characters` }),
    Schema.isPattern(/^[A-Za-z0-9_-]*$/u, { message: "must be base64url" })
  )

/** How many base64url characters (no padding) write `bytes` bytes. */
const base64UrlLength = (bytes: number) => Math.ceil((bytes * 4) / 3)

/**
 * The longest signature of the algorithms the server offers and verifies (server/auth/passkeys.ts):
 * ML-DSA-87's, 4,627 bytes (ML-DSA-65 3,309, ML-DSA-44 2,420; RS256 with a 4,096-bit key 512, ES256
 * at most 72). Chromium makes ML-DSA-44 passkeys when it is offered first (docs/decisions.md, "Passkeys").
 */
export const MAX_SIGNATURE_BYTES = 4_627

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
    signature: Base64Url(base64UrlLength(MAX_SIGNATURE_BYTES)),
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

/** How many recovery codes are made at once; each works once (docs/security.md, "Passkeys"). */
export const RECOVERY_CODES = 10
/** A new account, or one whose passkeys a super admin reset, may sign in with a code alone this long to add one. */
export const PERSONAL_GRACE_DAYS = 3
/** The longest grace a role's rule gives. */
export const MAX_GRACE_DAYS = 90

/**
 * A recovery code as the console shows it: three groups of four letters and digits (60 bits);
 * typed with or without the dashes and spaces, in either case.
 */
export const RecoveryCode = Schema.String.check(
  Schema.isMaxLength(20, { message: "must be a recovery code: three groups of four letters and digits" }),
  Schema.isPattern(/^\s*[a-zA-Z0-9]{4}[\s-]?[a-zA-Z0-9]{4}[\s-]?[a-zA-Z0-9]{4}\s*$/u, {
    message: "must be a recovery code: three groups of four letters and digits"
  })
)

/** What the console's form checks before finishing a second step with a recovery code. */
export const RecoveryStep = Schema.Struct({ code: RecoveryCode })

/** Whether a role requires a passkey, and from when for a person who has none (docs/security.md, "Passkeys"). */
export const PasskeyRule = Schema.Struct({
  role: Role,
  required: Schema.Boolean,
  /** Until then a person of this role with no passkey signs in with the code alone, then adds one. */
  graceUntil: Schema.NullOr(Timestamp)
})
export type PasskeyRule = typeof PasskeyRule.Type

export const PasskeyRuleChange = Schema.Struct({
  required: Schema.Boolean,
  graceDays: Schema.Int.check(
    Schema.isBetween({ minimum: 0, maximum: MAX_GRACE_DAYS }, { message: `must be a whole number of days from 0 to ${MAX_GRACE_DAYS}` })
  )
})

export const passkeyMessages = {
  expired: "This passkey request has expired or was already used. Start again.",
  notVerified: "This passkey could not be verified. Try again, or use another one.",
  known: "This passkey is already registered.",
  /** Two passkeys of one person never share a name (in any case): the list could not tell them apart. */
  nameTaken: (name: string) => `You already have a passkey named “${name}”. Choose another name.`,
  atMost: `You have ${MAX_PASSKEYS} passkeys, the most an account keeps. Remove one first.`,
  notFound: "This passkey no longer exists.",
  signInFailed: "This passkey could not sign you in. Use another one, or sign in with a code by e-mail.",
  tooMany: (wait: string) => `Too many passkey sign-ins from this address. Try again in ${wait}.`,
  secondStep: "Your code is right. Your role requires a passkey too: use one of yours to finish signing in.",
  stepExpired: "This sign-in has expired or was already finished. Start again with a new code.",
  recoveryRefused: "This recovery code is not one of yours, or it was already used.",
  recoveryPaused: "Too many recovery codes were tried for this account today. Use your passkey, or ask a super admin to reset your passkeys.",
  required:
    "Your role requires a passkey, and your account has none. Ask a super admin to reset your passkeys: you can then add one after signing in with a code.",
  lastRequired: "Your role requires a passkey: add another one before removing your last.",
  superOnly: "Only super admins may change these rules or reset another person's passkeys.",
  adminNotFound: "This admin no longer exists."
} as const

/** What a person's passkeys screen shows: the passkeys, the recovery codes left, and whether the role requires one. */
export const PasskeyOverview = Schema.Struct({
  passkeys: Schema.Array(Passkey),
  recoveryCodesLeft: Schema.Int,
  /** Whether the account's role requires a passkey; `dueBy`: until when the code alone still signs in. */
  required: Schema.Boolean,
  dueBy: Schema.NullOr(Timestamp)
})
export type PasskeyOverview = typeof PasskeyOverview.Type

/** What the console's form checks before the ceremony: the passkey's name. */
export const PasskeyName = Schema.Struct({ name: RequiredText })

export const PasskeyRegistration = Schema.Struct({ ...PasskeyName.fields, credential: RegistrationCredential })

export class PasskeysApi extends HttpApiGroup.make("passkeys")
  .add(
    HttpApiEndpoint.get("list", "/api/admin/passkeys", {
      success: Schema.Struct({ success: Schema.Literal(true), data: PasskeyOverview })
    }).annotate(OpenApi.Summary, "The caller's passkeys, newest first, with the recovery codes left and the role's rule"),
    HttpApiEndpoint.patch("rename", "/api/admin/passkeys/:id", {
      params: { id: RecordId },
      payload: PasskeyName,
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ passkey: Passkey }) }),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotate(OpenApi.Summary, "Rename one of the caller's passkeys (after confirming it's you; the owner is mailed)"),
    HttpApiEndpoint.post("recoveryCodes", "/api/admin/auth/passkeys/recovery-codes", {
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ codes: Schema.Array(Schema.String) }) }),
      error: [Forbidden, Conflict]
    })
      .annotate(KeptAnswer, "nothing")
      .annotate(
        OpenApi.Summary,
        "Make ten new recovery codes, shown this once (never kept for a repeat; after confirming it's you); the caller's earlier ones stop working"
      ),
    HttpApiEndpoint.get("rules", "/api/admin/passkeys/rules", {
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ rules: Schema.Array(PasskeyRule) }) }),
      error: [Forbidden]
    }).annotate(OpenApi.Summary, "Which roles require a passkey (super admins)"),
    HttpApiEndpoint.put("setRule", "/api/admin/passkeys/rules/:role", {
      params: { role: Role },
      payload: PasskeyRuleChange,
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ rule: PasskeyRule }) }),
      error: [BadRequest, Forbidden]
    }).annotate(OpenApi.Summary, "Require a passkey for a role, with days of grace for those who have none, or stop requiring it (super admins)"),
    HttpApiEndpoint.post("reset", "/api/admin/users/:id/passkeys/reset", {
      params: { id: RecordId },
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ removed: Schema.Int, graceUntil: Timestamp }) }),
      error: [Forbidden, NotFound]
    }).annotate(
      OpenApi.Summary,
      "Remove an admin's passkeys and recovery codes and end their sessions; they may sign in with a code alone for 3 days to add one (super admins)"
    ),
    HttpApiEndpoint.post("registrationOptions", "/api/admin/auth/passkeys/options", {
      success: Schema.Struct({ success: Schema.Literal(true), data: RegistrationOptions }),
      error: [Forbidden, Conflict]
    })
      .annotate(KeptAnswer, "nothing")
      .annotate(
        OpenApi.Summary,
        "Start adding a passkey (after confirming it's you): the options for navigator.credentials.create, with a challenge valid 5 minutes, once"
      ),
    HttpApiEndpoint.post("register", "/api/admin/auth/passkeys", {
      payload: PasskeyRegistration,
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ passkey: Passkey }) }),
      error: [BadRequest, Forbidden, Conflict]
    })
      .annotate(KeptAnswer, "nothing")
      .annotate(OpenApi.Summary, "Add a passkey: the authenticator's answer to the options, checked against their challenge and this console's origin"),
    HttpApiEndpoint.delete("remove", "/api/admin/passkeys/:id", {
      params: { id: RecordId },
      success: Ok,
      error: [NotFound, Forbidden, Conflict]
    }).annotate(OpenApi.Summary, "Remove one of the caller's passkeys (after confirming it's you; the owner is mailed)")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Passkeys")
  .annotate(OpenApi.Description, "WebAuthn passkeys a signed-in person adds to their own account.") {}

/** A code sign-in's second step, as its answer named it. */
export const SecondStep = Schema.Struct({ step: RandomKey("step the code's answer named") })

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
    }).annotate(OpenApi.Summary, "Sign in with a passkey: the device's answer, checked against the challenge, the console's origin and the passkey's key"),
    HttpApiEndpoint.post("stepOptions", "/api/admin/auth/second-step/options", {
      payload: SecondStep,
      success: Schema.Struct({ success: Schema.Literal(true), data: AuthenticationOptions }),
      error: [Unauthorized, Forbidden, TooManyRequests]
    }).annotate(OpenApi.Summary, "Second step of a code sign-in: options for navigator.credentials.get naming the account's passkeys"),
    HttpApiEndpoint.post("stepPasskey", "/api/admin/auth/second-step/passkey", {
      payload: Schema.Struct({ ...SecondStep.fields, credential: AuthenticationCredential }),
      success: SignedIn,
      error: [Unauthorized, Forbidden, TooManyRequests]
    }).annotate(OpenApi.Summary, "Finish a code sign-in with one of the account's passkeys"),
    HttpApiEndpoint.post("stepRecovery", "/api/admin/auth/second-step/recovery", {
      payload: Schema.Struct({ ...SecondStep.fields, ...RecoveryStep.fields }),
      success: SignedIn,
      error: [BadRequest, Unauthorized, Forbidden, TooManyRequests]
    }).annotate(OpenApi.Summary, "Finish a code sign-in with one of the account's recovery codes: each works once")
  )
  // Its answers are a session's token, a ceremony's challenge or a confirmation: never kept for a repeat.
  .annotateEndpoints(KeptAnswer, "nothing")
  .annotate(OpenApi.Title, "Passkey sign-in")
  .annotate(OpenApi.Description, "Signing in with a discoverable passkey instead of a code by e-mail.") {}
