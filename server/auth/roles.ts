import { Effect } from "effect"
import { type ActivityArea, activityAreas } from "../../contract/activity.ts"
import { adminMessages } from "../../contract/admin-users.ts"
import { CurrentSession } from "../../contract/auth.ts"
import { CONFIRM_MINUTES, confirmMessages } from "../../contract/confirm.ts"
import { sessionConfirmation } from "../sessions/confirmation-repository.ts"
import { Forbidden, type Role, roleCovers } from "../../contract/common.ts"

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

/**
 * Refuses with 403 unless this session confirmed it's you within `CONFIRM_MINUTES`: what changes
 * who may do what (one's own passkeys and recovery codes too), protected data and a restore of a
 * deleted record (docs/security.md, "Confirm what matters"; the confirmation itself:
 * server/auth/confirm.ts).
 */
export const requireConfirmed = Effect.gen(function* () {
  const session = yield* CurrentSession
  const confirmation = yield* sessionConfirmation(session.id, CONFIRM_MINUTES)
  if (confirmation.until === null) return yield* new Forbidden({ error: confirmMessages.required })
})

/** The admin-management areas' refusal: admin users, allowed addresses, protected data, the site's settings. */
export const superAdminOnly = requireSuperAdmin(adminMessages.superOnly)

/**
 * Who may read the records of each area (docs/security.md, "Roles"): the one rule the activity
 * log (its pages, its CSV, the dashboard's Recent Activity) and record history follow, so no
 * event or version shows a record its endpoints would refuse. A session is its owner's: only
 * super admins read everyone's.
 */
const readers: Record<ActivityArea, Role> = {
  session: "super_admin",
  admin: "super_admin",
  ip: "super_admin",
  "protected-data": "super_admin",
  settings: "moderator",
  blog: "moderator",
  address: "moderator",
  listing: "moderator",
  "scam-report": "moderator",
  contact: "moderator",
  inquiry: "moderator",
  upload: "moderator"
}

/** Areas of which everyone reads the events they did themselves: their own sign-ins, sign-outs and sessions ended. */
const ownAreas: ReadonlyArray<ActivityArea> = ["session"]

export const mayRead = (role: Role, area: ActivityArea): boolean => roleCovers(role, readers[area])

/** What a role reads of the activity log: every event of the areas in `all`, and in `own` the events the reader did. */
export const readableAreas = (role: Role): { readonly all: ReadonlyArray<ActivityArea>; readonly own: ReadonlyArray<ActivityArea> } => ({
  all: activityAreas.filter((area) => mayRead(role, area)),
  own: ownAreas.filter((area) => !mayRead(role, area))
})

/**
 * Whether a role sees the client address of events other staff did: an address is its session's,
 * so only who may read everyone's sessions does. A public submission's address is its record's.
 */
export const seesStaffAddresses = (role: Role): boolean => mayRead(role, "session")

/**
 * Whether a role reads other staff members' e-mails: an e-mail is an admin account's, so only who
 * may read admin accounts does; every role reads names, and each person their own
 * (docs/security.md, "Roles").
 */
export const seesStaffEmails = (role: Role): boolean => mayRead(role, "admin")
