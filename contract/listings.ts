import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import {
  BadRequest,
  boundedArray,
  Conflict,
  Forbidden,
  Id,
  listQueryFields,
  pageQueryFields,
  LongText,
  NotFound,
  Ok,
  Pagination,
  RecordId,
  RequiredLongText,
  RequiredText,
  Timestamp,
  TooManyRequests,
  Version,
  VersionParam
} from "./common.ts"
import { listingStatuses, listingTypes, MAX_BULK, moderationActions } from "./listing-rules.ts"
import { CsvExport } from "./lists.ts"
import { formLimits, PublicForm, PublicFormLimit } from "./public-forms.ts"
import { PublicRead } from "./public-reads.ts"
import { triageFields } from "./triage-rules.ts"

const stored = { _id: Id, createdAt: Timestamp, updatedAt: Timestamp, version: Version }

export const ListingType = Schema.Literals(listingTypes)
export type ListingType = typeof ListingType.Type

/** The two types the public site submits and staff moderate on their own screens. */
export const CommunityType = Schema.Literals(["community", "influencer"])

export const ListingStatus = Schema.Literals(listingStatuses)
export type ListingStatus = typeof ListingStatus.Type

export const ModerationAction = Schema.Literals(moderationActions)
export type ModerationAction = typeof ModerationAction.Type

/** A user-submitted listing as staff see it (docs/product-spec.md §3, plus the moderation notes). */
export const Listing = Schema.Struct({
  ...stored,
  type: ListingType,
  name: RequiredText,
  description: RequiredLongText,
  status: ListingStatus,
  moderationNotes: LongText,
  ...triageFields
})
export type Listing = typeof Listing.Type

/** What staff type for a community or influencer: Name and Description are required. */
export const ListingInput = Schema.Struct({ name: RequiredText, description: RequiredLongText })
export type ListingInput = typeof ListingInput.Type

/** A listing as the public site shows it: approved ones only, without the staff's notes. */
export const PublicListing = Schema.Struct({ _id: Id, type: ListingType, name: RequiredText, description: RequiredLongText, createdAt: Timestamp })
export type PublicListing = typeof PublicListing.Type

/** The queue's four counts, kept by the database (server/platform/migrations.ts, "0005_listings"). */
export const ListingCounts = Schema.Struct({ total: Schema.Int, pending: Schema.Int, approved: Schema.Int, rejected: Schema.Int })
export type ListingCounts = typeof ListingCounts.Type

/** An activity event's id, as a change's answer gives it (a bigint, so a string). */
export const ActivityEventId = Schema.String.check(
  Schema.isMaxLength(18, { message: "must be an activity event id" }),
  Schema.isPattern(/^\d{1,18}$/u, { message: "must be an activity event id" })
)

/** A status change as the server made it: the listing, and the activity event that undoes it. */
export const Moderated = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({ listing: Listing, eventId: ActivityEventId })
})
export type Moderated = typeof Moderated.Type

const oneListing = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ listing: Listing }) })

/** A queue's page with its four counts, as `…/combined` answers it under `field`. */
export const listingPage = <Field extends string>(field: Field) =>
  Schema.Struct({
    success: Schema.Literal(true),
    data: Schema.Struct({ [field]: Schema.Array(Listing), pagination: Pagination, counts: ListingCounts } as { [K in Field]: Schema.$Array<typeof Listing> } & {
      pagination: typeof Pagination
      counts: typeof ListingCounts
    })
  })

export const CommunityPage = listingPage("communities")
export const InfluencerPage = listingPage("influencers")
export const ListingPage = listingPage("listings")

const queueQuery = { ...listQueryFields, status: Schema.optionalKey(ListingStatus) }
const idParam = { id: RecordId }

/** The spec's community and influencer calls: one group each, the same five calls. */
const communityCalls = <Name extends string, Path extends `/api/admin/${string}`, Field extends string>(name: Name, path: Path, field: Field, label: string) =>
  HttpApiGroup.make(name)
    .add(
      HttpApiEndpoint.get("combined", `${path}/combined`, { query: queueQuery, success: [listingPage(field), CsvExport] }).annotate(
        OpenApi.Summary,
        `List ${label} of every status (search, status, page) with the queue's four counts, or export them as CSV`
      ),
      HttpApiEndpoint.post("create", path, { payload: ListingInput, success: oneListing, error: [BadRequest, Forbidden] }).annotate(
        OpenApi.Summary,
        `Add one of the ${label} (pending)`
      ),
      HttpApiEndpoint.put("update", `${path}/:id`, {
        params: idParam,
        payload: Schema.Struct({ ...ListingInput.fields, version: Version }),
        success: oneListing,
        error: [BadRequest, Forbidden, Conflict, NotFound]
      }).annotate(OpenApi.Summary, `Edit one of the ${label}, naming the version it was read at`),
      HttpApiEndpoint.delete("remove", `${path}/:id`, {
        params: idParam,
        query: { version: VersionParam },
        success: Ok,
        error: [Forbidden, Conflict, NotFound]
      }).annotate(OpenApi.Summary, `Delete one of the ${label}, naming the version it was read at`),
      HttpApiEndpoint.put("setStatus", `${path}/:id/status`, {
        params: idParam,
        payload: Schema.Struct({ status: ListingStatus, version: Version, notes: Schema.optionalKey(LongText) }),
        success: Moderated,
        error: [BadRequest, Conflict, NotFound]
      }).annotate(OpenApi.Summary, `Move one of the ${label} to a status the moderation rules allow`)
    )
    .middleware(Authorization)

export class CommunitiesApi extends communityCalls("communities", "/api/admin/communities", "communities", "communities")
  .annotate(OpenApi.Title, "Communities")
  .annotate(OpenApi.Description, `The community queue: list with counts, add, edit, delete, status (docs/api.md, "Listings").`) {}

export class InfluencersApi extends communityCalls("influencers", "/api/admin/influencers", "influencers", "influencers")
  .annotate(OpenApi.Title, "Influencers")
  .annotate(OpenApi.Description, "The influencer queue: list with counts, add, edit, delete, status.") {}

/** One bulk change: the same action on up to 500 listings, all or none. */
export const BulkModeration = Schema.Struct({
  ids: boundedArray(RecordId, { min: 1, tooFew: "must name at least one listing", max: MAX_BULK, tooMany: `must name at most ${MAX_BULK} listings` }),
  action: ModerationAction,
  notes: Schema.optionalKey(LongText)
})

export const BulkModerated = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    listings: Schema.Array(Schema.Struct({ _id: Id, status: ListingStatus, version: Version, eventId: ActivityEventId }))
  })
})

/** Moderation across the five types: the queue, one change, undo, bulk. */
export class ListingsAdminApi extends HttpApiGroup.make("listingsAdmin")
  .add(
    HttpApiEndpoint.get("list", "/api/admin/listings", {
      query: { ...queueQuery, type: Schema.optionalKey(ListingType) },
      success: [ListingPage, CsvExport]
    }).annotate(OpenApi.Summary, "List listings by status and type, with the four counts of the type (or of all), or export them as CSV"),
    HttpApiEndpoint.put("moderate", "/api/admin/listings/:id", {
      params: idParam,
      payload: Schema.Struct({ action: ModerationAction, notes: Schema.optionalKey(LongText), version: Version }),
      success: Moderated,
      error: [BadRequest, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Approve, reject or set pending one listing, as the moderation rules allow"),
    HttpApiEndpoint.delete("remove", "/api/admin/listings/:id", {
      params: idParam,
      query: { version: VersionParam },
      success: Ok,
      error: [Forbidden, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Delete a listing, naming the version it was read at"),
    HttpApiEndpoint.post("undo", "/api/admin/listings/:id/undo", {
      params: idParam,
      payload: Schema.Struct({ eventId: ActivityEventId }),
      success: Moderated,
      error: [BadRequest, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Undo one status change, while the listing still has the version it produced"),
    HttpApiEndpoint.post("bulk", "/api/admin/listings/bulk", {
      payload: BulkModeration,
      success: BulkModerated,
      error: [BadRequest, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Apply one action to many listings in one transaction, all or none")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Listing moderation")
  .annotate(OpenApi.Description, "Moderation across listing types: one change, undo, bulk.") {}

/** What the public site sends for a community or influencer. */
export const ListingSubmission = ListingInput

const publicPage = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({ listings: Schema.Array(PublicListing), pagination: Pagination })
})

/** The public site's calls: approved listings, and submissions, which always arrive pending. */
export class ListingsPublicApi extends HttpApiGroup.make("listingsPublic")
  .add(
    HttpApiEndpoint.get("list", "/api/listings/:type", { params: { type: CommunityType }, query: pageQueryFields, success: publicPage, error: BadRequest })
      .middleware(PublicRead)
      .annotate(OpenApi.Summary, "List approved listings of a type, the newest 1,000 (no token; limited per client address)"),
    HttpApiEndpoint.post("submit", "/api/listings/:type", {
      params: { type: CommunityType },
      payload: ListingSubmission,
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ listing: PublicListing }) }),
      error: [BadRequest, TooManyRequests]
    })
      .middleware(PublicForm)
      .annotate(PublicFormLimit, formLimits.listing)
      .annotate(OpenApi.Summary, "Submit a listing for review (no token; limited per client address)")
  )
  .annotate(OpenApi.Title, "Listings (public)")
  .annotate(OpenApi.Description, "The public site’s community and influencer listings and submissions.") {}

/** The spec's edit and delete under the public path, for staff. */
export class ListingsPublicAdminApi extends HttpApiGroup.make("listingsPublicAdmin")
  .add(
    HttpApiEndpoint.put("update", "/api/listings/:type/:id", {
      params: { type: CommunityType, id: RecordId },
      payload: Schema.Struct({ ...ListingInput.fields, version: Version }),
      success: oneListing,
      error: [BadRequest, Forbidden, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Edit a listing (admin token), naming the version it was read at"),
    HttpApiEndpoint.delete("remove", "/api/listings/:type/:id", {
      params: { type: CommunityType, id: RecordId },
      query: { version: VersionParam },
      success: Ok,
      error: [Forbidden, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Delete a listing (admin token), naming the version it was read at")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Listings (public path, staff)")
  .annotate(OpenApi.Description, "Staff edits and deletes under the public path.") {}
