/**
 * The fields the triage desk adds to every record that can wait for a decision (listings, scam
 * reports, contacts, inquiries: contract/triage-rules.ts), read and answered the same way by each
 * area's repository (docs/api.md, "The triage desk").
 */

/** The columns, in the SQL client's names, that every area's read adds to its own. */
export const triageColumns = `owner_id AS "ownerId", snoozed_until AS "snoozedUntil", duplicate_of AS "duplicateOf"`

export interface TriageRow {
  readonly ownerId: string | null
  readonly snoozedUntil: Date | null
  readonly duplicateOf: string | null
}

/** The row's triage fields as every area's answer has them. */
export const triageOf = (row: TriageRow) => ({
  ownerId: row.ownerId,
  snoozedUntil: row.snoozedUntil === null ? null : row.snoozedUntil.toISOString(),
  duplicateOf: row.duplicateOf
})
