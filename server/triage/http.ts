import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession } from "../../contract/auth.ts"
import { seesStaffEmails } from "../auth/roles.ts"
import { BadRequest, Conflict, MAX_LONG_TEXT } from "../../contract/common.ts"
import type { TriageChange, TriageItem } from "../../contract/triage.ts"
import { duplicateStatus, MAX_SNOOZE_DAYS, type TriageArea, triageMessages as messages, waitingStatuses } from "../../contract/triage-rules.ts"
import { type InquiryRow, inquiryOf, inquiryTable } from "../advertising/repository.ts"
import { type ContactRow, contactOf, contactTable } from "../contacts/repository.ts"
import { staffListingOf } from "../listings/records.ts"
import { type ListingRow, listingTable } from "../listings/repository.ts"
import type { SqlClient } from "effect/sql/SqlClient"
import { updateRecord, type VersionedTable } from "../platform/record-writes.ts"
import { type ReportRow, reportOf, reportTable } from "../scam-reports/repository.ts"
import { streamKinds } from "../stream/kinds.ts"
import { recordsByIds } from "../stream/repository.ts"
import { databaseNow, type DeskEntry, deskPage, owners, ownerUsable, recordExists } from "./repository.ts"

/**
 * The triage desk (docs/api.md, "The triage desk"): every record waiting for a staff decision,
 * read as its area's endpoint answers it, and the desk's own changes (owner, snooze, duplicate)
 * on the one write path with the area's table, so the history, the activity log and the stream
 * see them as any other change of the record. The decisions themselves are the areas' own calls.
 */

type Row = ListingRow | ReportRow | ContactRow | InquiryRow

interface AreaRules {
  readonly table: VersionedTable
  /** The column the reason of a duplicate is added to: the area's staff notes. */
  readonly notes: "moderationNotes" | "adminNotes" | "internalNotes"
  readonly answer: (row: never) => object
}

const areas: Readonly<Record<TriageArea, AreaRules>> = {
  listing: { table: listingTable, notes: "moderationNotes", answer: (row: ListingRow) => staffListingOf(row) },
  "scam-report": { table: reportTable, notes: "adminNotes", answer: (row: ReportRow) => reportOf(row) },
  contact: { table: contactTable, notes: "internalNotes", answer: (row: ContactRow) => contactOf(row) },
  inquiry: { table: inquiryTable, notes: "adminNotes", answer: (row: InquiryRow) => inquiryOf(row) }
}

const itemOf = (area: TriageArea, row: Row) => ({ area, ...(areas[area].answer as (row: Row) => object)(row) }) as TriageItem

/** The records a page names, in its order, each as its area answers it (one read per area). */
const itemsOf = (entries: ReadonlyArray<DeskEntry>) =>
  Effect.gen(function* () {
    const byArea = new Map<TriageArea, Array<string>>()
    for (const entry of entries) byArea.set(entry.area, [...(byArea.get(entry.area) ?? []), entry.id])
    const found = new Map<string, object>()
    for (const [area, ids] of byArea) {
      const kind = streamKinds[area]
      if (kind === undefined) continue
      for (const row of yield* recordsByIds(kind.source, ids)) found.set(`${area}:${String(row.id)}`, { area, ...kind.fieldsOf(row) })
    }
    // A record removed between the two reads is left out.
    return entries.flatMap((entry) => {
      const item = found.get(`${entry.area}:${entry.id}`)
      return item === undefined ? [] : [item as TriageItem]
    })
  })

const refused = (error: string, path?: string) => new BadRequest({ error, ...(path === undefined ? {} : { issues: [{ path, message: error }] }) })

/** The one change asked, checked against what needs no lock: the date's range, the duplicate's record. */
const checked = (area: TriageArea, id: string, payload: TriageChange) =>
  Effect.gen(function* () {
    const given = (["owner", "snoozedUntil", "duplicateOf"] as const).filter((field) => payload[field] !== undefined)
    const field = given[0]
    if (field === undefined || given.length > 1 || (payload.reason !== undefined && field !== "duplicateOf")) return yield* refused(messages.oneChange)
    if (field === "snoozedUntil" && payload.snoozedUntil != null) {
      const until = new Date(payload.snoozedUntil)
      const now = yield* databaseNow
      if (Number.isNaN(until.getTime()) || until <= now) return yield* refused(messages.snoozePast, "snoozedUntil")
      if (until.getTime() - now.getTime() > MAX_SNOOZE_DAYS * 86_400_000) return yield* refused(messages.snoozeTooLong, "snoozedUntil")
      return { field, until } as const
    }
    if (field === "duplicateOf") {
      const of = payload.duplicateOf ?? ""
      if (of.toLowerCase() === id.toLowerCase()) return yield* refused(messages.duplicateSelf, "duplicateOf")
      if (!(yield* recordExists(areas[area].table.table, of))) return yield* refused(messages.duplicateMissing, "duplicateOf")
      return { field, of } as const
    }
    return field === "owner" ? ({ field, owner: payload.owner ?? null } as const) : ({ field, until: null } as const)
  })

/** The area's staff notes of a row. */
const notesOf = (row: Row, rules: AreaRules): string => {
  const notes = (row as unknown as Readonly<Record<string, unknown>>)[rules.notes]
  return typeof notes === "string" ? notes : ""
}

const actionOf = { owner: "owner", snoozedUntil: "snooze", duplicateOf: "duplicate" } as const

export const TriageHandlers = HttpApiBuilder.group(AdminApi, "triage", (handlers) =>
  handlers
    .handle("desk", ({ query }) =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        const owner = query.owner === undefined || query.owner === "all" ? "all" : query.owner === "me" ? session.user._id : query.owner
        const { entries, ...page } = yield* deskPage({ ...query, owner })
        return { success: true as const, data: { items: yield* itemsOf(entries), ...page } }
      })
    )
    .handle("owners", () =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        const { owners: people, unowned } = yield* owners
        const seesEmails = seesStaffEmails(session.user.role)
        const shown = people.map((owner) => (seesEmails || owner._id === session.user._id ? owner : { ...owner, email: null }))
        return { success: true as const, data: { owners: shown, unowned } }
      })
    )
    .handle("change", ({ params, payload }) =>
      Effect.gen(function* () {
        const change = yield* checked(params.area, params.id, payload)
        const rules = areas[params.area]
        const { after } = yield* updateRecord<Row, BadRequest | Conflict, SqlClient>(rules.table, {
          id: params.id,
          expectedVersion: payload.version,
          refuse: (before) =>
            Effect.gen(function* () {
              // Who handles it may change at any time; snoozing and closing are for what still waits.
              if (change.field !== "owner" && !waitingStatuses[params.area].includes(before.status)) return yield* new Conflict({ error: messages.notWaiting })
              if (change.field === "owner" && change.owner !== null && !(yield* ownerUsable(change.owner))) return yield* refused(messages.noOwner, "owner")
              if (change.field === "duplicateOf" && payload.reason !== undefined) {
                const notes = notesOf(before, rules)
                if (notes.length + payload.reason.length + 1 > MAX_LONG_TEXT)
                  return yield* refused(`reason: the notes would pass ${MAX_LONG_TEXT} characters`, "reason")
              }
            }),
          changes: (before) => {
            if (change.field === "owner") return { ownerId: change.owner }
            if (change.field === "snoozedUntil") return { snoozedUntil: change.until }
            const notes = notesOf(before, rules)
            const reason = payload.reason?.trim() ?? ""
            return {
              status: duplicateStatus[params.area],
              duplicateOf: change.of,
              snoozedUntil: null,
              ...(reason === "" ? {} : { [rules.notes]: notes === "" ? reason : `${notes}\n${reason}` })
            }
          },
          events: (before, row) => ({
            action: `${params.area}.${actionOf[change.field]}`,
            entityId: row.id,
            fromState: change.field === "duplicateOf" ? before.status : null,
            toState: change.field === "duplicateOf" ? row.status : null,
            details: {
              version: row.version,
              ...(change.field === "duplicateOf" ? { duplicateOf: change.of, ...(payload.reason === undefined ? {} : { reason: payload.reason }) } : {})
            }
          })
        })
        return { success: true as const, data: { item: itemOf(params.area, after) } }
      })
    )
)
