import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization, OtpCode } from "./auth.ts"
import { BadRequest, Conflict, Ok, Timestamp, TooManyRequests, Unauthorized } from "./common.ts"
import { AuthenticationCredential, AuthenticationOptions } from "./passkeys.ts"
import { KeptAnswer } from "./idempotency.ts"

// Confirming it's you again (docs/security.md, "Confirm what matters"): changing admin users,
// roles, the allowed addresses or protected data, a passkey rule or reset, one's own passkeys and
// recovery codes, and restoring a deleted record ask for the person's passkey again once the
// session's last use of it is older than `CONFIRM_MINUTES` (never one this session added); a
// person with no passkey confirms with a code by e-mail.

/** How long a confirmation lasts. */
export const CONFIRM_MINUTES = 10

export const Confirmation = Schema.Struct({
  /** How this person confirms: their passkey, or (having none) a code by e-mail. */
  method: Schema.Literals(["passkey", "code"]),
  /** Until when this session needs no confirmation; null: it needs one now. */
  confirmedUntil: Schema.NullOr(Timestamp)
})
export type Confirmation = typeof Confirmation.Type

export const ConfirmCode = Schema.Struct({ code: OtpCode })

export const confirmMessages = {
  required: `Confirm it's you first: changes to admins, addresses, protected data, passkeys and restores ask for your passkey (or, without one, a code by e-mail) again after ${CONFIRM_MINUTES} minutes.`,
  noPasskey: "You have no passkey: confirm with a code by e-mail.",
  hasPasskey: "Confirm with your passkey.",
  /** A passkey never confirms the session that added it (docs/security.md, "Confirm what matters"). */
  addedHere: "A passkey added in this session cannot confirm it's you here. Sign out and sign in with that passkey, or use one you added before.",
  refused: "This passkey could not confirm it's you. Try again, or use another of yours.",
  wrongCode: "Invalid or expired code. Send a new one if needed.",
  codeSent: (email: string) => `We sent a 6-digit code to ${email}. It works once, for 10 minutes.`,
  tooMany: (wait: string) => `Too many confirmations asked. Try again ${wait}.`
} as const

const Confirmed = Schema.Struct({ success: Schema.Literal(true), data: Confirmation })

export class ConfirmApi extends HttpApiGroup.make("confirm")
  .add(
    HttpApiEndpoint.get("status", "/api/admin/auth/confirm", {
      success: Confirmed
    }).annotate(OpenApi.Summary, "How this session confirms it's you, and until when it needs not"),
    HttpApiEndpoint.post("options", "/api/admin/auth/confirm/options", {
      success: Schema.Struct({ success: Schema.Literal(true), data: AuthenticationOptions }),
      error: [Conflict, TooManyRequests]
    }).annotate(OpenApi.Summary, "Confirm with a passkey: options naming the caller's passkeys, a challenge valid 5 minutes, once"),
    HttpApiEndpoint.post("passkey", "/api/admin/auth/confirm/passkey", {
      payload: Schema.Struct({ credential: AuthenticationCredential }),
      success: Confirmed,
      error: [Unauthorized, TooManyRequests]
    }).annotate(OpenApi.Summary, "Confirm it's you with one of your passkeys"),
    HttpApiEndpoint.post("sendCode", "/api/admin/auth/confirm/code", {
      success: Ok,
      error: [Conflict, TooManyRequests]
    }).annotate(OpenApi.Summary, "Confirm without a passkey: mail a code to the session's e-mail"),
    HttpApiEndpoint.post("verifyCode", "/api/admin/auth/confirm/code/verify", {
      payload: ConfirmCode,
      success: Confirmed,
      error: [BadRequest, Unauthorized, Conflict, TooManyRequests]
    }).annotate(OpenApi.Summary, "Confirm it's you with the code mailed")
  )
  .middleware(Authorization)
  // Its answers are a session's token, a ceremony's challenge or a confirmation: never kept for a repeat.
  .annotateEndpoints(KeptAnswer, "nothing")
  .annotate(OpenApi.Title, "Confirm it's you")
  .annotate(OpenApi.Description, "Asked again before what matters, 10 minutes after the last time.") {}
