import { Context } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import type { Session } from "./auth.ts"
import { Forbidden } from "./common.ts"

/**
 * Reads open to the public and to staff alike (the blog's posts, categories and tags): a token,
 * when one comes, is resolved here, once, for every such endpoint, so a token from outside the
 * allowed-address list is a 403 before any handler runs (docs/security.md, "Allowed addresses").
 * A token that names no live session reads as the public.
 */

/** Who is reading: the session the request's token names, or nobody (the public). */
export class Reader extends Context.Service<Reader, { readonly session: Session | undefined }>()("admin/Reader") {}

export class PublicRead extends HttpApiMiddleware.Service<PublicRead, { provides: Reader }>()("admin/PublicRead", {
  error: [Forbidden]
}) {}
