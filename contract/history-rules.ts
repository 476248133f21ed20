/**
 * Record history's plain data (docs/api.md, "Record history"): the kinds of records that keep a
 * history, their names, and the words of its refusals. Without effect, so the console's signed-in
 * chunk can read them without the API client (contract/history.ts builds the API on them).
 */

export const historyKinds = ["blog", "address", "listing", "scam-report", "contact", "inquiry", "admin", "ip", "protected-data", "settings"] as const
export type HistoryKind = (typeof historyKinds)[number]

export const isHistoryKind = (value: string): value is HistoryKind => (historyKinds as ReadonlyArray<string>).includes(value)

export const historyKindLabels: Record<HistoryKind, string> = {
  blog: "Blog post",
  address: "Address",
  listing: "Listing",
  "scam-report": "Scam report",
  contact: "Core-team contact",
  inquiry: "Advertising inquiry",
  admin: "Admin user",
  ip: "Allowed address",
  "protected-data": "Protected record",
  settings: "Site settings"
}

export const historyMessages = {
  notFound: "This record has no history.",
  noVersion: (version: number) => `There is no version ${version} of this record.`,
  removedVersion: (version: number) => `Version ${version} is the record's removal; choose a version before it.`,
  stale: "This record was changed since you opened its history. Look at the newest version and try again.",
  changedBy: (who: string) => `Someone changed this record since: ${who}. Open its history to choose a version.`,
  createdLast: "Your last change created this record; undoing it would delete it. Delete it from its screen instead.",
  sameContent: (version: number) => `The record is already as it was at version ${version}.`,
  hiddenValues: "Protected values are not kept in history, so this record can't be restored from it.",
  readOnly: (kind: string) => `Your role can't see the history of this ${kind.toLowerCase()}.`,
  restoreRole: (kind: string) => `Your role can't restore this ${kind.toLowerCase()}.`,
  taken: (field: string) => `Can't restore: ${field} is now used by another record. Change it on that record first.`
} as const
