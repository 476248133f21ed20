import type { ActivityArea } from "../../contract/activity.ts"
import { addressTable } from "../addresses/repository.ts"
import { type AddressRow, kinds as directories } from "../addresses/kinds.ts"
import { type AccountRow, accountColumns, accountOf, adminTable } from "../admin-users/repository.ts"
import { type InquiryRow, inquiryOf, inquiryTable } from "../advertising/repository.ts"
import { allowedIpOf, type IpRow, ipTable } from "../allowed-ips/repository.ts"
import { type PostRow, postTable, toPost } from "../blog/repository.ts"
import { type ContactRow, contactOf, contactTable } from "../contacts/repository.ts"
import { staffListingOf } from "../listings/records.ts"
import { type ListingRow, listingTable } from "../listings/repository.ts"
import type { VersionedTable } from "../platform/record-writes.ts"
import { protectedOf, type ProtectedRow, protectedTable } from "../protected-data/repository.ts"
import { type ReportRow, reportOf, reportTable } from "../scam-reports/repository.ts"
import { defaultSettings, documentOf, type SettingsRow, settingsTable } from "../site-settings/repository.ts"
import type { RecordSource } from "./repository.ts"

/**
 * What the change stream sends of each area's records (docs/api.md, "Live changes"): where they
 * are read, which column names the list a record belongs to, and the record as the area's read
 * endpoint answers staff, protected values left out. Sessions carry no record.
 */
export interface StreamKind {
  readonly source: RecordSource
  /** The row an event's entity id names (the settings document is `site`, row 1). */
  readonly rowId: (entityId: string) => string
  /** The column naming the list a record belongs to (a listing's type, an address's directory). */
  readonly kindColumn?: string
  /** Fields never sent: the history's hidden ones (a protected value). */
  readonly hidden: ReadonlyArray<string>
  readonly fieldsOf: (row: Readonly<Record<string, unknown>>) => object
}

const sameId = (entityId: string) => entityId

/** An area read from its table on the write path, answered as `answer` does. */
const fromTable = <Row>(
  table: VersionedTable,
  answer: (row: Row) => object,
  options: { readonly source?: RecordSource; readonly kindColumn?: string; readonly rowId?: (entityId: string) => string } = {}
): StreamKind => ({
  source: options.source ?? { from: table.table, columns: table.columns, id: "id" },
  rowId: options.rowId ?? sameId,
  ...(options.kindColumn === undefined ? {} : { kindColumn: options.kindColumn }),
  hidden: table.history?.hidden ?? [],
  // The row comes from `source.columns`, the columns the area's own reads use.
  fieldsOf: (row) => answer(row as Row)
})

const addressOf = (row: AddressRow): object => directories[row.kind].fromRow(row)

const settingsOf = (row: SettingsRow & { readonly updatedAt: Date }): object => ({
  ...defaultSettings,
  ...documentOf(row),
  updatedAt: row.updatedAt.toISOString(),
  version: row.version
})

export const streamKinds: Partial<Record<ActivityArea, StreamKind>> = {
  listing: fromTable<ListingRow>(listingTable, staffListingOf, { kindColumn: "type" }),
  "scam-report": fromTable<ReportRow>(reportTable, reportOf),
  inquiry: fromTable<InquiryRow>(inquiryTable, inquiryOf),
  contact: fromTable<ContactRow>(contactTable, contactOf),
  blog: fromTable<PostRow>(postTable, toPost),
  address: fromTable<AddressRow>(addressTable, addressOf, { kindColumn: "kind" }),
  // An account answers with its open sessions (the admin-users screen's columns).
  admin: fromTable<AccountRow>(adminTable, accountOf, { source: { from: "admins a", columns: accountColumns, id: "a.id" } }),
  ip: fromTable<IpRow>(ipTable, allowedIpOf),
  "protected-data": fromTable<ProtectedRow>(protectedTable, protectedOf),
  settings: fromTable<SettingsRow & { readonly updatedAt: Date }>(settingsTable, settingsOf, { rowId: () => "1" })
}
