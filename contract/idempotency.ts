import { Context } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, KeyReused } from "./common.ts"

/**
 * Every change the console makes is a command with an id made in the browser, sent as this
 * header (docs/api.md, "Commands, exactly once"): the server applies a command once however
 * often it arrives, answering a repeat with the first answer, and refuses the key with another
 * request (422). Any write endpoint takes it; a request without it is applied as it comes.
 */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key"

/** 16 to 100 URL-safe characters: a UUID, or 128 random bits or more. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,100}$/u

export const idempotencyMessages = {
  badKey: "must be 16 to 100 letters, digits, hyphens or underscores: a new random id for each command",
  reused: "This Idempotency-Key was sent before with another request. A new command needs a new key."
} as const

/** The header is checked, and a repeat answered, before the endpoint runs; the endpoint runs once per key. */
export class Idempotency extends HttpApiMiddleware.Service<Idempotency>()("admin/Idempotency", {
  error: [BadRequest, KeyReused]
}) {}

/**
 * What the server keeps of a keyed command's answer for a repeat (docs/api.md, "Commands, exactly
 * once"), declared on the endpoint whose answer holds a secret, the one place that says so:
 * - `answer` (every endpoint not declared): the whole answer; a repeat gets its bytes again.
 * - `outcome`: the answer holds a record's secret (a protected value). The server keeps which
 *   record the command made or changed, never the answer; a repeat is answered by reading that
 *   record again, with the caller's rights of now (a refusal, which holds no secret, is kept).
 * - `nothing`: the answer is a secret of its own (a session's token, a ceremony's challenge,
 *   recovery codes): nothing is kept, and a repeat runs again.
 */
export const KeptAnswer = Context.Reference<"answer" | "outcome" | "nothing">("admin/KeptAnswer", { defaultValue: () => "answer" })

/** The header as the OpenAPI document names it on every write operation. */
export const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "A new id for each command (a UUID). A repeat with the same key and request is answered with the first answer and `Idempotent-Replayed: true`; the same key with another request is a 422.",
  schema: { type: "string", minLength: 16, maxLength: 100, pattern: "^[A-Za-z0-9_-]{16,100}$" }
} as const
