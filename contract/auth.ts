import { Context, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, HttpApiSecurity, OpenApi } from "effect/http-api"
import { BadRequest, Email, Forbidden, Id, MailUnavailable, Ok, Role, TooManyRequests, Unauthorized } from "./common.ts"
import { KeptAnswer } from "./idempotency.ts"

/** Length of the one-time code, docs/product-spec.md §9. */
export const OTP_LENGTH = 6

export { OTP_RESEND_SECONDS } from "./auth-rules.ts"

export const AdminUser = Schema.Struct({
  _id: Id,
  email: Email,
  name: Schema.NullOr(Schema.String),
  /** The role this session acts with: the one picked at sign-in. */
  role: Role,
  /** The highest role the account holds. */
  grantedRole: Role
})
export type AdminUser = typeof AdminUser.Type

export const OtpCode = Schema.String.check(
  Schema.isMaxLength(OTP_LENGTH, { message: `must be ${OTP_LENGTH} digits` }),
  Schema.isPattern(/^\d{6}$/u, { message: `must be ${OTP_LENGTH} digits` })
)

/** 256 random bits, URL-safe: a sign-in attempt's name, or a browser's key. */
export const RandomKey = (what: string) =>
  Schema.String.check(
    Schema.isMaxLength(43, { message: `must be the ${what}: 43 URL-safe characters` }),
    Schema.isPattern(/^[A-Za-z0-9_-]{43}$/u, { message: `must be the ${what}: 43 URL-safe characters` })
  )

/**
 * `POST /api/admin/auth` takes `{ email, role }` to ask for a code and `{ email, otp, attempt }`
 * to sign in with it, `attempt` being what the request's answer named: a code belongs to the
 * attempts that asked for it, and a wrong guess counts against the attempt it names only
 * (docs/security.md, "Sign-in"). `browser` is the console's key for this browser, sent with both
 * steps: a browser that signed in as an e-mail before keeps its own way in while strangers guess.
 * One struct with every key optional keeps the messages naming the field.
 */
export const AuthRequest = Schema.Struct({
  email: Email,
  role: Schema.optionalKey(Role),
  otp: Schema.optionalKey(OtpCode),
  attempt: Schema.optionalKey(RandomKey("attempt the code request answered with")),
  browser: Schema.optionalKey(RandomKey("browser's key"))
})
export type AuthRequest = typeof AuthRequest.Type

export const OtpRequested = Schema.Struct({
  success: Schema.Literal(true),
  requiresOTP: Schema.Literal(true),
  message: Schema.String,
  /** The attempt to name when signing in with the code (absent from a server that has none). */
  attempt: Schema.optionalKey(Schema.String),
  /**
   * Set when no new code was sent because one was asked for less than a minute ago (for any
   * e-mail, admin or not, so the answer says nothing of who is one): the seconds until a new
   * code can be asked for. The code sent before still works.
   */
  resendAfterSeconds: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3600 })))
})
export type OtpRequested = typeof OtpRequested.Type

/**
 * The spec's "OTP request returned false" (docs/product-spec.md §8): an answer that sent no
 * code. This server refuses with a status instead and never sends it, but the console says the
 * spec's words for it, as it would to a server that does.
 */
export const OtpNotSent = Schema.Struct({
  success: Schema.Literal(false),
  message: Schema.optionalKey(Schema.String)
})
export type OtpNotSent = typeof OtpNotSent.Type

export const SignedIn = Schema.Struct({
  success: Schema.Literal(true),
  token: Schema.String,
  user: AdminUser,
  expiresAt: Schema.String,
  /**
   * Set when the account's role requires a passkey and it has none yet (docs/security.md,
   * "Passkeys"): the code alone signs in until then, and the console asks for one first.
   */
  passkeyDueBy: Schema.optionalKey(Schema.String)
})
export type SignedIn = typeof SignedIn.Type

/**
 * The code was right, and the account's role requires a passkey (docs/security.md, "Passkeys"):
 * no session yet. `step` names this sign-in's second step, answered with one of the account's
 * passkeys or, if the device is lost, one of its recovery codes.
 */
export const SecondStepNeeded = Schema.Struct({
  success: Schema.Literal(true),
  secondStep: Schema.Literal(true),
  step: Schema.String,
  message: Schema.String,
  /** Whether the account has recovery codes left. */
  recoveryCodes: Schema.Boolean
})
export type SecondStepNeeded = typeof SecondStepNeeded.Type

export const SessionCheck = Schema.Struct({
  success: Schema.Literal(true),
  user: AdminUser
})
export type SessionCheck = typeof SessionCheck.Type

/**
 * A session token's SHA-256, as the server stores it: 64 lowercase hex digits. What a sign-out made
 * with no link keeps in the browser instead of the token (docs/security.md, "What stays in the
 * browser"); it opens nothing, and ends the session at `POST /api/admin/auth/revoke`.
 */
export const TokenHash = Schema.String.check(
  Schema.isMaxLength(64, { message: "must be the token's SHA-256: 64 lowercase hex digits" }),
  Schema.isPattern(/^[0-9a-f]{64}$/u, { message: "must be the token's SHA-256: 64 lowercase hex digits" })
)

export const RevokeRequest = Schema.Struct({ tokenHash: TokenHash })
export type RevokeRequest = typeof RevokeRequest.Type

/** The signed-in session, provided to every handler behind `Authorization`. */
export interface Session {
  readonly id: string
  readonly user: AdminUser
  readonly ip: string
}
export class CurrentSession extends Context.Service<CurrentSession, Session>()("admin/CurrentSession") {}

/**
 * Bearer-token check for admin endpoints: 401 without a live session, 403 from an address the
 * allowed-IP list does not cover (docs/api.md, "Allowed addresses").
 */
export class Authorization extends HttpApiMiddleware.Service<Authorization, { provides: CurrentSession }>()("admin/Authorization", {
  security: { bearer: HttpApiSecurity.bearer },
  error: [Unauthorized, Forbidden]
}) {}

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("signIn", "/api/admin/auth", {
      payload: AuthRequest,
      success: [OtpRequested, SignedIn, SecondStepNeeded, OtpNotSent],
      error: [BadRequest, Unauthorized, Forbidden, TooManyRequests, MailUnavailable]
    })
      .annotate(OpenApi.Summary, "Ask for a one-time code, or sign in with it")
      .annotate(
        OpenApi.Description,
        "Ask for a one-time code ({email, role, browser?}) or sign in with it ({email, otp, attempt, browser?}); the first answer names the attempt."
      ),
    HttpApiEndpoint.get("check", "/api/admin/auth/check", {
      success: SessionCheck
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "Check the session and read who is signed in"),
    HttpApiEndpoint.post("logout", "/api/admin/auth/logout", {
      success: Ok
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "Sign out: end this session"),
    HttpApiEndpoint.post("revoke", "/api/admin/auth/revoke", {
      payload: RevokeRequest,
      success: HttpApiSchema.NoContent,
      error: [BadRequest, TooManyRequests]
    })
      .annotate(OpenApi.Summary, "End the session whose token hashes to tokenHash: a sign-out sent later, with no token")
      .annotate(
        OpenApi.Description,
        'No bearer: the body names the session by its token\'s SHA-256 (hex). 204 whether a session was ended or none matched; limited per address (docs/api.md, "Sign-out").'
      )
  )
  // Its answers are a session's token, a ceremony's challenge or a confirmation: never kept for a
  // repeat. A revocation's repeat runs again too: it ends nothing more, and keeps no key row for anyone.
  .annotateEndpoints(KeptAnswer, "nothing")
  .annotate(OpenApi.Title, "Sign-in")
  .annotate(OpenApi.Description, "One-time codes by e-mail, sessions and sign-out (docs/security.md).") {}
