import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { BadRequest, Conflict, NotFound, type Offender } from "../../contract/common.ts"
import {
  canMove,
  listingMessages,
  type ListingStatus,
  listingStatuses,
  type ListingType,
  listingTypes,
  type ModerationAction,
  statusAfter
} from "../../contract/listing-rules.ts"
import { Listing, type ListingInput, PublicListing } from "../../contract/listings.ts"
import { requireEditor as requireEditorOf } from "../auth/roles.ts"
import { recordActivity, recordAdminActivities, recordAdminActivity } from "../platform/activity-log.ts"
import { announcing } from "../platform/change-feed.ts"
import { clientIp } from "../platform/client-address.ts"
import { encodableAs } from "../platform/encodable.ts"
import { csvResponse, wantsCsv } from "../platform/lists.ts"
import {
  deleteListing,
  exportQueue,
  findEvent,
  findListing,
  insertListing,
  listApproved,
  listingExportFields,
  listingOf,
  type ListingRow,
  listQueue,
  lockListings,
  moveListing,
  moveListings,
  publicListingOf,
  type QueueQuery,
  updateListing
} from "./repository.ts"

export const requireEditor = requireEditorOf(listingMessages.readOnly)

const isStatus = (value: string | null): value is ListingStatus => value !== null && (listingStatuses as ReadonlyArray<string>).includes(value)

/** Why a versioned write found nothing: the listing is gone (404) or moved on (409). */
export const missed = (id: string, types?: ReadonlyArray<ListingType>) =>
  Effect.flatMap(findListing(id, types), (current): Effect.Effect<never, NotFound | Conflict> =>
    current === undefined
      ? Effect.fail(new NotFound({ error: listingMessages.notFound }))
      : Effect.fail(new Conflict({ error: listingMessages.stale })))

/** Logs a status change (from, to, notes, the version it produced) and answers with the event's id. */
const logMove = (action: "listing.status" | "listing.undo", before: ListingRow, after: ListingRow, details: Record<string, unknown>) =>
  recordAdminActivity({
    action,
    entityId: after.id,
    fromState: before.status,
    toState: after.status,
    details: { type: after.type, version: after.version, name: after.name, ...details }
  })

/**
 * One status change by the moderation rules: stale version → 409, a move the rules forbid →
 * 409 naming the current status, gone → 404; logged in the same transaction.
 */
export const moderate = (id: string, to: ListingStatus, version: number, notes: string | undefined, types?: ReadonlyArray<ListingType>) =>
  Effect.gen(function*() {
    const current = yield* findListing(id, types)
    if (current === undefined) return yield* new NotFound({ error: listingMessages.notFound })
    if (current.version !== version) return yield* new Conflict({ error: listingMessages.stale })
    if (!canMove(current.status, to)) return yield* new Conflict({ error: listingMessages.illegal(current.status, to) })
    const moved = yield* moveListing(id, version, current.status, to, notes)
    if (moved === undefined) return yield* missed(id, types)
    const eventId = yield* logMove("listing.status", current, moved, notes === undefined ? {} : { notes })
    return { success: true as const, data: { listing: listingOf(moved), eventId } }
  }).pipe(announcing, Effect.catchTag("SqlError", Effect.die))

/** Puts back exactly the change `eventId` made, while the listing still has the version it produced. */
const undo = (id: string, eventId: string) =>
  Effect.gen(function*() {
    const event = yield* findEvent(eventId)
    if (event === undefined || event.entityId !== id || event.action !== "listing.status" || !isStatus(event.fromState) || !isStatus(event.toState)) {
      return yield* new BadRequest({ error: listingMessages.notUndoable })
    }
    const current = yield* findListing(id)
    if (current === undefined) return yield* new NotFound({ error: listingMessages.notFound })
    if (current.version !== event.details?.version || current.status !== event.toState) {
      return yield* new Conflict({ error: listingMessages.changedAfter })
    }
    const moved = yield* moveListing(id, current.version, current.status, event.fromState, undefined)
    if (moved === undefined) return yield* new Conflict({ error: listingMessages.changedAfter })
    const undoneBy = yield* logMove("listing.undo", current, moved, { undoes: eventId })
    return { success: true as const, data: { listing: listingOf(moved), eventId: undoneBy } }
  }).pipe(announcing, Effect.catchTag("SqlError", Effect.die))

/** One action on many listings: all of them move, in one statement, or none does. */
const bulk = (ids: ReadonlyArray<string>, action: ModerationAction, notes: string | undefined) =>
  Effect.gen(function*() {
    if (new Set(ids).size !== ids.length) return yield* new BadRequest({ error: listingMessages.duplicateIds })
    const to = statusAfter[action]
    const rows = yield* lockListings(ids)
    const found = new Set(rows.map((row) => row.id))
    const offenders: Array<Offender> = [
      ...ids.filter((id) => !found.has(id)).map((id) => ({ _id: id, reason: listingMessages.notFound })),
      ...rows.filter((row) => !canMove(row.status, to)).map((row) => ({ _id: row.id, reason: listingMessages.illegal(row.status, to) }))
    ]
    if (offenders.length > 0) return yield* new Conflict({ error: listingMessages.bulkRefused, offenders })
    const moved = yield* moveListings(rows.map((row) => ({ id: row.id, version: row.version, from: row.status })), to, notes)
    if (moved.length !== rows.length) return yield* new Conflict({ error: listingMessages.stale })
    const before = new Map(rows.map((row) => [row.id, row]))
    // One insert for all the events: a bulk change of 500 is one more statement, not 500.
    const eventIds = yield* recordAdminActivities(moved.map((row) => ({
      action: "listing.status",
      entityId: row.id,
      fromState: before.get(row.id)?.status ?? null,
      toState: row.status,
      details: { type: row.type, version: row.version, name: row.name, bulk: true, ...(notes === undefined ? {} : { notes }) }
    })))
    return {
      success: true as const,
      data: { listings: moved.map((row, index) => ({ _id: row.id, status: row.status, version: row.version, eventId: eventIds[index] ?? "" })) }
    }
  }).pipe(announcing, Effect.catchTag("SqlError", Effect.die))

const staffAnswerable = encodableAs(Listing)
const publicAnswerable = encodableAs(PublicListing)

/** A community's or influencer's row encodes as the staff's and the public's answer (docs/api.md). */
const answerableListing = (row: ListingRow) =>
  Effect.all([staffAnswerable(listingOf(row)), publicAnswerable(publicListingOf(row))]).pipe(Effect.as(row))

export const logEdit = (action: "listing.create" | "listing.update" | "listing.delete" | "listing.active", row: ListingRow, before: ListingRow | undefined) =>
  recordAdminActivity({
    action,
    entityId: row.id,
    fromState: before === undefined ? null : `v${before.version}`,
    toState: action === "listing.delete" ? null : `v${row.version}`,
    details: { type: row.type, name: row.name }
  })

const create = (type: ListingType, input: ListingInput) =>
  Effect.gen(function*() {
    yield* requireEditor
    const row = yield* Effect.flatMap(insertListing({ type, name: input.name.trim(), description: input.description.trim() }), answerableListing)
    yield* logEdit("listing.create", row, undefined)
    return { success: true as const, data: { listing: listingOf(row) } }
  }).pipe(announcing, Effect.catchTag("SqlError", Effect.die))

const update = (types: ReadonlyArray<ListingType>, id: string, payload: ListingInput & { readonly version: number }) =>
  Effect.gen(function*() {
    yield* requireEditor
    const before = yield* findListing(id, types)
    const row = yield* updateListing(id, types, payload.version, { name: payload.name.trim(), description: payload.description.trim() })
    if (row === undefined) return yield* missed(id, types)
    yield* answerableListing(row)
    yield* logEdit("listing.update", row, before)
    return { success: true as const, data: { listing: listingOf(row) } }
  }).pipe(announcing, Effect.catchTag("SqlError", Effect.die))

export const remove = (types: ReadonlyArray<ListingType>, id: string, version: number) =>
  Effect.gen(function*() {
    yield* requireEditor
    const row = yield* deleteListing(id, types, version)
    if (row === undefined) return yield* missed(id, types)
    yield* logEdit("listing.delete", row, row)
    return { success: true as const }
  }).pipe(announcing, Effect.catchTag("SqlError", Effect.die))

export const queue = (query: QueueQuery) => Effect.orDie(listQueue(query))

/** A queue's JSON page, or, when the call asks for CSV, every listing its filters match. */
export const pageOrCsv = <A>(name: string, query: QueueQuery & { readonly format?: "json" | "csv" | undefined }, page: (query: QueueQuery) => Effect.Effect<A, never, SqlClient>) =>
  Effect.flatMap(wantsCsv(query.format), (csv) =>
    csv
      ? csvResponse({ name, fields: listingExportFields, record: listingOf, rows: exportQueue(query) })
      // Written as JSON directly, as the directories' pages are: the rows are typed by `listingOf`.
      : Effect.map(page(query), (answer) => HttpServerResponse.jsonUnsafe(answer))).pipe(Effect.orDie)

/**
 * A submission from the public site: limited per client address, stored with that address and
 * always pending (a submission never sets its own status), logged in its transaction.
 */
export const submit = (
  values: { readonly type: ListingType; readonly name: string; readonly description: string; readonly details?: Readonly<Record<string, unknown>> },
  answerable: (row: ListingRow) => Effect.Effect<ListingRow> = answerableListing
) =>
  Effect.gen(function*() {
    // Counted against the address before the body was read (server/auth/public-forms.ts).
    const ip = yield* clientIp
    return yield* Effect.gen(function*() {
      const row = yield* Effect.flatMap(insertListing({ ...values, submittedFrom: ip }), answerable)
      yield* recordActivity({
        actorId: null,
        actorEmail: null,
        action: "listing.submit",
        entityId: row.id,
        toState: row.status,
        ip,
        details: { type: row.type, name: row.name }
      })
      return row
    }).pipe(announcing)
  }).pipe(Effect.catchTag("SqlError", Effect.die))

/** The spec's five calls of the community or the influencer screen. */
const communityHandlers = (type: "community" | "influencer") => ({
  combined: (query: Omit<QueueQuery, "types">) =>
    Effect.map(queue({ ...query, types: [type] }), ({ rows, pagination, counts }) => ({ listings: rows.map(listingOf), pagination, counts })),
  create: ({ payload }: { readonly payload: ListingInput }) => create(type, payload),
  update: ({ params, payload }: { readonly params: { readonly id: string }; readonly payload: ListingInput & { readonly version: number } }) =>
    update([type], params.id, payload),
  remove: ({ params, query }: { readonly params: { readonly id: string }; readonly query: { readonly version: number } }) =>
    remove([type], params.id, query.version),
  setStatus: ({ params, payload }: { readonly params: { readonly id: string }; readonly payload: { readonly status: ListingStatus; readonly version: number; readonly notes?: string } }) =>
    moderate(params.id, payload.status, payload.version, payload.notes, [type])
})

const communities = communityHandlers("community")
const influencers = communityHandlers("influencer")

export const CommunityHandlers = HttpApiBuilder.group(AdminApi, "communities", (handlers) =>
  handlers
    .handle("combined", ({ query }) =>
      pageOrCsv("communities", { ...query, types: ["community"] }, () =>
        Effect.map(communities.combined(query), ({ listings, pagination, counts }) =>
          ({ success: true as const, data: { communities: listings, pagination, counts } }))))
    .handle("create", communities.create)
    .handle("update", communities.update)
    .handle("remove", communities.remove)
    .handle("setStatus", communities.setStatus))

export const InfluencerHandlers = HttpApiBuilder.group(AdminApi, "influencers", (handlers) =>
  handlers
    .handle("combined", ({ query }) =>
      pageOrCsv("influencers", { ...query, types: ["influencer"] }, () =>
        Effect.map(influencers.combined(query), ({ listings, pagination, counts }) =>
          ({ success: true as const, data: { influencers: listings, pagination, counts } }))))
    .handle("create", influencers.create)
    .handle("update", influencers.update)
    .handle("remove", influencers.remove)
    .handle("setStatus", influencers.setStatus))

const allTypes: ReadonlyArray<ListingType> = listingTypes

export const ListingsAdminHandlers = HttpApiBuilder.group(AdminApi, "listingsAdmin", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      pageOrCsv("listings", { ...query, types: query.type === undefined ? undefined : [query.type] }, (filtered) =>
        Effect.map(queue(filtered), ({ rows, pagination, counts }) =>
          ({ success: true as const, data: { listings: rows.map(listingOf), pagination, counts } }))))
    .handle("moderate", ({ params, payload }) => moderate(params.id, statusAfter[payload.action], payload.version, payload.notes))
    .handle("remove", ({ params, query }) => remove(allTypes, params.id, query.version))
    .handle("undo", ({ params, payload }) => undo(params.id, payload.eventId))
    .handle("bulk", ({ payload }) => bulk(payload.ids, payload.action, payload.notes)))

export const ListingsPublicHandlers = HttpApiBuilder.group(AdminApi, "listingsPublic", (handlers) =>
  handlers
    .handle("list", ({ params, query }) =>
      listApproved(params.type, query).pipe(
        Effect.map(({ rows, pagination }) => ({ success: true as const, data: { listings: rows.map(publicListingOf), pagination } })),
        Effect.orDie
      ))
    .handle("submit", ({ params, payload }) =>
      Effect.map(submit({ type: params.type, name: payload.name.trim(), description: payload.description.trim() }), (row) =>
        ({ success: true as const, data: { listing: publicListingOf(row) } }))))

export const ListingsPublicAdminHandlers = HttpApiBuilder.group(AdminApi, "listingsPublicAdmin", (handlers) =>
  handlers
    .handle("update", ({ params, payload }) => update([params.type], params.id, payload))
    .handle("remove", ({ params, query }) => remove([params.type], params.id, query.version)))
