import type { HistoryKind } from "../../contract/history-rules.ts"
import { type Role } from "../../contract/common.ts"
import { addressTable } from "../addresses/repository.ts"
import { inquiryTable } from "../advertising/repository.ts"
import { protectedTable, settingsTable } from "../admin/repository.ts"
import { adminTable } from "../auth/admins.ts"
import { ipTable } from "../auth/allowed-ips.ts"
import { postTable } from "../blog/posts.ts"
import { contactTable } from "../contacts/repository.ts"
import { listingTable } from "../listings/writes.ts"
import type { VersionedTable } from "../platform/record-writes.ts"
import { reportTable } from "../scam-reports/repository.ts"

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
}

export const kinds: Record<HistoryKind, KindRules> = {
  blog: { table: postTable, restore: "admin", unique: { blog_posts_slug_key: "The slug" } },
  address: { table: addressTable, restore: "admin", unique: { addresses_identifier_key: "The identifier" } },
  // server/listings/writes.ts: a status and its notes, a venture's visibility, an event's feature.
  listing: { table: listingTable, restore: "admin", handling: ["status", "moderationNotes", "isActive", "details.featured"] },
  // server/scam-reports/http.ts: one of status, priority or notes.
  "scam-report": { table: reportTable, restore: "admin", handling: ["status", "priority", "adminNotes"] },
  // server/contacts/http.ts: how a contact is handled, with the times its status stamps.
  contact: {
    table: contactTable,
    restore: "admin",
    handling: ["status", "priority", "assignedTo", "response", "internalNotes", "followUpRequired", "expectedResponseTime", "respondedAt", "resolvedAt"]
  },
  // server/advertising/http.ts: a status and its notes.
  inquiry: { table: inquiryTable, restore: "admin", handling: ["status", "adminNotes"] },
  admin: { table: adminTable, restore: "super_admin", unique: { admins_email_key: "The e-mail" } },
  ip: { table: ipTable, restore: "super_admin", unique: { allowed_ips_ip_key: "The address" } },
  "protected-data": { table: protectedTable, restore: "super_admin", unique: { protected_data_key: "The type and key" } },
  settings: { table: settingsTable, restore: "super_admin", rowId: () => "1" }
}
