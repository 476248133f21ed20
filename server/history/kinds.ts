import { Effect } from "effect"
import type { Conflict, NotFound, Role } from "../../contract/common.ts"
import type { HistoryKind } from "../../contract/history-rules.ts"
import { addressTable } from "../addresses/repository.ts"
import { adminTable, changeAdmin } from "../admin-users/repository.ts"
import { inquiryTable } from "../advertising/repository.ts"
import { ipTable, restoreAllowedIp } from "../allowed-ips/repository.ts"
import { postTable } from "../blog/repository.ts"
import { contactTable } from "../contacts/repository.ts"
import { listingTable } from "../listings/repository.ts"
import type { Content } from "../platform/record-history.ts"
import type { Actor, VersionedTable } from "../platform/record-writes.ts"
import { protectedTable } from "../protected-data/repository.ts"
import { reportTable } from "../scam-reports/repository.ts"
import { settingsTable } from "../site-settings/repository.ts"

/** What the triage desk changes on any waiting record, which every role may (docs/security.md, "Roles"). */
const triageHandling = ["ownerId", "snoozedUntil", "duplicateOf"]

/** What a restore through an area's own rules answers: the version it made and its events (none: nothing changed). */
type Restored<E> = Effect.Effect<{ readonly version: number; readonly eventIds: ReadonlyArray<string> }, E, Effect.Services<ReturnType<typeof changeAdmin>>>

/**
 * What history needs to know of each kind of record (docs/api.md, "Record history"). Who may
 * read a kind's history is who may read its records (`mayRead`, server/auth/roles.ts).
 */
export interface KindRules {
  readonly table: VersionedTable
  /** Who may restore a version: who may change the record's content. */
  readonly restore: Role
  /**
   * What staff below `restore` may change of a record (status, priority, notes: docs/security.md,
   * "Roles"), as the endpoints that make those changes allow; a JSON field's key as `field.key`.
   * Such a person may undo their own last change of these fields.
   */
  readonly handling?: ReadonlyArray<string>
  /** Its row's id for the id its events name (the settings document is `site`, row 1). */
  readonly rowId?: (id: string) => string
  /** Unique indexes a restored version may collide with, by constraint name: the field's words. */
  readonly unique?: Readonly<Record<string, string>>
  /**
   * A version restored through the area's own change, where a record keeps rules the write path
   * does not know: an admin account (the last super admin, the sessions a change ends or lowers).
   */
  readonly change?: (id: string, content: Content, expectedVersion: number, actor: Actor) => Restored<Conflict | NotFound>
  /** A removed record brought back through the area's own rules: an allowed address (the list may not shut out who restores it). */
  readonly bringBack?: (id: string, content: Content, version: number, restoredVersion: number, actor: Actor) => Restored<Conflict>
}

const restoredAdmin: KindRules["change"] = (id, content, expectedVersion, actor) =>
  changeAdmin(
    id,
    // A version from before the admin had a name does not name one: it had none.
    { name: (content["name"] ?? null) as string | null, role: content["role"] as Role, disabled: content["disabled"] as boolean },
    { version: expectedVersion, actor }
  )

const restoredIp: KindRules["bringBack"] = (id, content, version, restoredVersion, actor) =>
  Effect.map(
    restoreAllowedIp(id, { ip: content["ip"] as string, description: content["description"] as string }, version, restoredVersion, actor),
    ({ row, eventIds }) => ({ version: row.version, eventIds })
  )

export const kinds: Record<HistoryKind, KindRules> = {
  blog: { table: postTable, restore: "admin", unique: { blog_posts_slug_key: "The slug" } },
  address: { table: addressTable, restore: "admin", unique: { addresses_identifier_key: "The identifier" } },
  // server/listings/writes.ts: a status and its notes, a venture's visibility, an event's feature.
  listing: { table: listingTable, restore: "admin", handling: ["status", "moderationNotes", "isActive", "details.featured", ...triageHandling] },
  // server/scam-reports/http.ts: one of status, priority or notes.
  "scam-report": { table: reportTable, restore: "admin", handling: ["status", "priority", "adminNotes", ...triageHandling] },
  // server/contacts/http.ts: how a contact is handled, with the times its status stamps.
  contact: {
    table: contactTable,
    restore: "admin",
    handling: [
      "status",
      "priority",
      "assignedTo",
      "response",
      "internalNotes",
      "followUpRequired",
      "expectedResponseTime",
      "respondedAt",
      "resolvedAt",
      ...triageHandling
    ]
  },
  // server/advertising/http.ts: a status and its notes.
  inquiry: { table: inquiryTable, restore: "admin", handling: ["status", "adminNotes", ...triageHandling] },
  admin: { table: adminTable, restore: "super_admin", unique: { admins_email_key: "The e-mail" }, change: restoredAdmin },
  ip: { table: ipTable, restore: "super_admin", unique: { allowed_ips_ip_key: "The address" }, bringBack: restoredIp },
  "protected-data": { table: protectedTable, restore: "super_admin", unique: { protected_data_key: "The type and key" } },
  settings: { table: settingsTable, restore: "super_admin", rowId: () => "1" }
}
