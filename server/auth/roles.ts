import { Effect } from "effect"
import { CurrentSession } from "../../contract/auth.ts"
import { Forbidden } from "../../contract/common.ts"

/** Moderators read (and change statuses); admins and super admins create, edit and delete. */
export const requireEditor = (refusal: string) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    if (session.user.role === "moderator") return yield* new Forbidden({ error: refusal })
    return session
  })

/** Admin users, allowed addresses, protected data and the site's settings: super admins only. */
export const requireSuperAdmin = (refusal: string) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    if (session.user.role !== "super_admin") return yield* new Forbidden({ error: refusal })
    return session
  })
