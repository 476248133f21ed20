import { Context } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import type { Session } from "./auth.ts"
import { Forbidden, ServiceBusy, TooManyRequests } from "./common.ts"

/**
 * Reads open to the public and to staff alike: the public site's lists (listings of each type,
 * the blog's posts) and the blog's post, categories and tags (docs/api.md, "Public reads"). A
 * token, when one comes, is resolved here, once, before any handler, so a token from outside the
 * allowed-address list is a 403 (docs/security.md, "Allowed addresses"); a token that names no
 * live session reads as the public. The public's reads are bounded, staff's never: each client
 * address has `publicReads.perAddress` a window, a list shows the public its newest
 * `PUBLIC_LIST_DEPTH` rows, and a few anonymous reads run at a time.
 */

/** Who is reading: the session the request's token names, or nobody (the public). */
export class Reader extends Context.Service<Reader, { readonly session: Session | undefined }>()("admin/Reader") {}

export class PublicRead extends HttpApiMiddleware.Service<PublicRead, { provides: Reader }>()("admin/PublicRead", {
  error: [Forbidden, TooManyRequests, ServiceBusy]
}) {}

/** How many rows of a list the public pages through, newest first: a search narrows a list, paging stops here. */
export const PUBLIC_LIST_DEPTH = 1_000

export const publicReads = {
  /** Anonymous reads per client address and window, counted by each server (docs/decisions.md). */
  perAddress: { limit: 300, windowSeconds: 60 },
  /** Anonymous reads a server runs at once, as a share of its database connections, and how many more wait. */
  connectionShare: 1 / 3,
  waiting: 16
} as const

export const publicReadMessages = {
  tooMany: (wait: string) => `Too many requests from your address. Try again ${wait}.`,
  busy: "The site is busy. Try again in a moment.",
  tooDeep: (limit: number) =>
    `must be at most ${Math.floor(PUBLIC_LIST_DEPTH / limit)} with ${limit} a page: the newest ${PUBLIC_LIST_DEPTH.toLocaleString("en")} are listed; search to find older ones`
} as const
