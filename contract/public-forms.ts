import { Context } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import type { Session } from "./auth.ts"
import { Forbidden, TooManyRequests, Unauthorized } from "./common.ts"

/**
 * The public site's forms (docs/api.md, "Public forms"): each is limited per client address, and
 * the limit is counted before the body is read, so a stranger's bodies cost nothing once they
 * are over it. A form open to staff too (the core-team form) checks a token there first, and
 * its handler reads who sent it (`Submitter`).
 */
export interface FormLimit {
  /** What is counted; forms that share a name share one budget. */
  readonly name: string
  readonly limit: number
  readonly windowSeconds: number
  /** What the form sends, for the refusal: "Too many reports from your address." */
  readonly what: string
}

/** An endpoint's limit, as an annotation that `PublicForm` reads. */
export class PublicFormLimit extends Context.Service<PublicFormLimit, FormLimit>()("admin/PublicFormLimit") {}

/** Who sent the form: the session the request's token names (checked by `PublicForm`), or nobody (the public). */
export class Submitter extends Context.Service<Submitter, { readonly session: Session | undefined }>()("admin/Submitter") {}

export class PublicForm extends HttpApiMiddleware.Service<PublicForm, { provides: Submitter }>()("admin/PublicForm", {
  error: [TooManyRequests, Unauthorized, Forbidden]
}) {}

const hourly = (name: string, what: string): FormLimit => ({ name, limit: 5, windowSeconds: 3600, what })

export const formLimits = {
  /** Communities, influencers, businesses, startups and projects share one budget. */
  listing: hourly("listing-submit", "submissions"),
  scamReport: hourly("scam-report", "reports"),
  contact: hourly("core-team-contact", "messages"),
  inquiry: hourly("advertising-inquiry", "inquiries")
} as const
