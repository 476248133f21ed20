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

/** Each kind's own plural, as a list of them is titled ("Deleted addresses"). */
export const historyKindPlurals: Record<HistoryKind, string> = {
  blog: "Blog posts",
  address: "Addresses",
  listing: "Listings",
  "scam-report": "Scam reports",
  contact: "Core-team contacts",
  inquiry: "Advertising inquiries",
  admin: "Admin users",
  ip: "Allowed addresses",
  "protected-data": "Protected records",
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

/** A value as one canonical JSON text (keys in one order, absent as null): two values are the same when these are. */
const canonical = (value: unknown): string =>
  JSON.stringify(value ?? null, (_, inner: unknown) =>
    typeof inner === "object" && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner
  )

/** Whether two kept values are the same, whatever the order of a document's keys. */
export const sameKept = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b)

const isDocument = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null && !Array.isArray(value)

/** One field's change as history shows it. */
export interface PathChange {
  readonly field: string
  readonly before: unknown
  readonly after: unknown
}

/**
 * What changed in one field, a document's keys each as a field of its own by its path
 * (`author.username`, `details.website`), at any depth; nothing when the values are the same
 * (docs/api.md, "Record history"). A document that comes or goes names each key it has.
 */
export const changedPaths = (field: string, before: unknown, after: unknown): ReadonlyArray<PathChange> => {
  const [a, b] = [before ?? null, after ?? null]
  if (sameKept(a, b)) return []
  if ((isDocument(a) || a === null) && (isDocument(b) || b === null)) {
    const keys = [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])]
    const inner = keys.flatMap((key) => changedPaths(`${field}.${key}`, a?.[key], b?.[key]))
    if (inner.length > 0) return inner
  }
  return [{ field, before: a, after: b }]
}
