import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { BadRequest, Conflict, type Offender } from "../../contract/common.ts"
import {
  canMove,
  listingMessages,
  type ListingStatus,
  listingStatuses,
  type ListingType,
  type ModerationAction,
  statusAfter
} from "../../contract/listing-rules.ts"
import { Listing, PublicListing } from "../../contract/listings.ts"
import { requireEditor as requireEditorOf } from "../auth/roles.ts"
import { clientIp } from "../platform/client-address.ts"
import { encodableAs } from "../platform/encodable.ts"
import { type ChangeEvent, createRecord, removeRecord, updateRecord, updateRecords } from "../platform/record-writes.ts"
import { findEvent, listingOf, type ListingRow, listingsByIds, listingTable, ofTypes, publicListingOf, statusColumns } from "./repository.ts"

/**
 * Every change of a listing, whatever its type (communities, influencers, the three venture
 * types, events, hackathons): the moderation rules of contract/listing-rules.ts on the one write
 * path (server/platform/record-writes.ts). server/listings/http.ts, server/ventures/ and
 * server/events/ serve their endpoints with these.
 */

export const requireEditor = requireEditorOf(listingMessages.readOnly)

const isStatus = (value: string | null): value is ListingStatus => value !== null && (listingStatuses as ReadonlyArray<string>).includes(value)

/** A status change as the log holds it (from, to, notes, the version it produced): undo reads it back. */
const moveEvent = (action: "listing.status" | "listing.undo", before: ListingRow, after: ListingRow, details: Record<string, unknown>): ChangeEvent => ({
  action,
  entityId: after.id,
  fromState: before.status,
  toState: after.status,
  details: { type: after.type, version: after.version, name: after.name, ...details }
})

/** An edit as the log holds it: the versions it went between. */
export const editEvent = (
  action: "listing.create" | "listing.update" | "listing.delete" | "listing.active",
  row: ListingRow,
  before: ListingRow | undefined
): ChangeEvent => ({
  action,
  entityId: row.id,
  fromState: before === undefined ? null : `v${before.version}`,
  toState: action === "listing.delete" ? null : `v${row.version}`,
  details: { type: row.type, name: row.name }
})

const staffAnswerable = encodableAs(Listing)
const publicAnswerable = encodableAs(PublicListing)

/** A community's or influencer's row encodes as the staff's and the public's answer (docs/api.md). */
export const answerableListing = (row: ListingRow) => Effect.all([staffAnswerable(listingOf(row)), publicAnswerable(publicListingOf(row))]).pipe(Effect.as(row))

/** The columns a listing's values are stored in: its type's own fields as JSON. */
const stored = (values: { readonly details?: Readonly<Record<string, unknown>> | undefined } & Readonly<Record<string, unknown>>) => {
  const { details, ...rest } = values
  return { ...rest, ...(details === undefined ? {} : { details: JSON.stringify(details) }) }
}

/**
 * One status change by the moderation rules: stale version → 409, a move the rules forbid → 409
 * naming the current status, gone → 404; answers the listing and its event's id (for undo).
 */
export const moderate = (id: string, to: ListingStatus, version: number, notes: string | undefined, types?: ReadonlyArray<ListingType>) =>
  Effect.map(
    updateRecord<ListingRow, Conflict>(listingTable, {
      id,
      expectedVersion: version,
      scope: ofTypes(types),
      refuse: (current) => (canMove(current.status, to) ? Effect.void : Effect.fail(new Conflict({ error: listingMessages.illegal(current.status, to) }))),
      changes: () => ({ status: to, ...(notes === undefined ? {} : { moderationNotes: notes }) }),
      events: (before, after) => moveEvent("listing.status", before, after, notes === undefined ? {} : { notes })
    }),
    ({ after, eventIds }) => ({ success: true as const, data: { listing: listingOf(after), eventId: eventIds[0] ?? "" } })
  )

/** Puts back exactly the change `eventId` made, while the listing still has the version it produced. */
export const undo = (id: string, eventId: string) =>
  Effect.gen(function* () {
    const event = yield* findEvent(eventId)
    const from = event?.fromState ?? null
    if (event === undefined || event.entityId !== id || event.action !== "listing.status" || !isStatus(from) || !isStatus(event.toState)) {
      return yield* new BadRequest({ error: listingMessages.notUndoable })
    }
    const version = event.details?.version
    // The listing must still be as that change left it: same version, same status.
    const changedAfter = new Conflict({ error: listingMessages.changedAfter })
    const { after, eventIds } = yield* updateRecord<ListingRow, Conflict>(listingTable, {
      id,
      expectedVersion: version ?? -1,
      refuse: (current) => (current.status === event.toState ? Effect.void : Effect.fail(changedAfter)),
      changes: () => ({ status: from }),
      events: (before, moved) => moveEvent("listing.undo", before, moved, { undoes: eventId })
    }).pipe(Effect.catchTag("Conflict", (conflict) => Effect.fail(conflict === changedAfter ? conflict : changedAfter)))
    return { success: true as const, data: { listing: listingOf(after), eventId: eventIds[0] ?? "" } }
  })

/** One action on many listings: all of them move, in one statement, or none does (one change of many records on the write path). */
export const bulk = (ids: ReadonlyArray<string>, action: ModerationAction, notes: string | undefined) =>
  Effect.gen(function* () {
    if (new Set(ids).size !== ids.length) return yield* new BadRequest({ error: listingMessages.duplicateIds })
    const to = statusAfter[action]
    const { changed } = yield* updateRecords<ListingRow, Conflict>(listingTable, {
      where: listingsByIds(ids),
      refuse: (rows) => {
        const found = new Set(rows.map((row) => row.id))
        const offenders: Array<Offender> = [
          ...ids.filter((id) => !found.has(id)).map((id) => ({ _id: id, reason: listingMessages.notFound })),
          ...rows.filter((row) => !canMove(row.status, to)).map((row) => ({ _id: row.id, reason: listingMessages.illegal(row.status, to) }))
        ]
        return offenders.length > 0 ? Effect.fail(new Conflict({ error: listingMessages.bulkRefused, offenders })) : Effect.void
      },
      set: statusColumns(to, notes),
      events: (before, after) => moveEvent("listing.status", before, after, { bulk: true, ...(notes === undefined ? {} : { notes }) })
    })
    const byId = new Map(changed.map((change) => [change.after.id, change]))
    return {
      success: true as const,
      data: {
        listings: ids.flatMap((id) => {
          const change = byId.get(id)
          return change === undefined ? [] : [{ _id: id, status: change.after.status, version: change.after.version, eventId: change.eventId }]
        })
      }
    }
  })

type ListingValues = { readonly details?: Readonly<Record<string, unknown>> | undefined } & Readonly<Record<string, unknown>>

/** A listing added by staff: checked to encode as its answers (`answerable`) inside the transaction. */
export const createListing = (type: ListingType, values: ListingValues, answerable: (row: ListingRow) => Effect.Effect<ListingRow> = answerableListing) =>
  Effect.gen(function* () {
    yield* requireEditor
    const { row } = yield* createRecord<ListingRow>(listingTable, {
      values: { id: randomUUID(), type, submittedFrom: null, ...stored({ details: {}, ...values }) },
      check: answerable,
      events: (created) => editEvent("listing.create", created, undefined)
    })
    return row
  })

/** An edit at the version the caller saw: `changes` from the listing as it is (events keep their other fields). */
export const editListing = (
  types: ReadonlyArray<ListingType>,
  id: string,
  version: number,
  changes: (before: ListingRow) => ListingValues,
  options: {
    readonly answerable?: (row: ListingRow) => Effect.Effect<ListingRow>
    /** The event when it is not an edit's (a visibility switch names what it switched). */
    readonly event?: (before: ListingRow, row: ListingRow) => ChangeEvent
    /** A moderator's change too (a venture's visibility), not only an editor's. */
    readonly moderators?: boolean
  } = {}
) =>
  Effect.gen(function* () {
    if (options.moderators !== true) yield* requireEditor
    const { after } = yield* updateRecord<ListingRow>(listingTable, {
      id,
      expectedVersion: version,
      scope: ofTypes(types),
      changes: (before) => stored(changes(before)),
      check: options.answerable ?? answerableListing,
      events: options.event ?? ((before, row) => editEvent("listing.update", row, before))
    })
    return after
  })

export const removeListing = (types: ReadonlyArray<ListingType>, id: string, version: number) =>
  Effect.gen(function* () {
    yield* requireEditor
    yield* removeRecord<ListingRow>(listingTable, {
      id,
      expectedVersion: version,
      scope: ofTypes(types),
      events: (before) => editEvent("listing.delete", before, before)
    })
    return { success: true as const }
  })

/**
 * A submission from the public site: limited per client address, stored with that address and
 * always pending (a submission never sets its own status), logged in its transaction.
 */
export const submit = (
  values: { readonly type: ListingType; readonly name: string; readonly description: string; readonly details?: Readonly<Record<string, unknown>> },
  answerable: (row: ListingRow) => Effect.Effect<ListingRow> = answerableListing
) =>
  Effect.gen(function* () {
    // Counted against the address before the body was read (server/auth/public-forms.ts).
    const ip = yield* clientIp
    const { row } = yield* createRecord<ListingRow>(listingTable, {
      values: { id: randomUUID(), ...stored({ details: {}, ...values }), submittedFrom: ip },
      check: answerable,
      events: (created) => ({ action: "listing.submit", entityId: created.id, toState: created.status, details: { type: created.type, name: created.name } }),
      actor: { ip }
    })
    return row
  })
