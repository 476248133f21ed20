import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AdvertisingInquiry } from "./advertising.ts"
import { Authorization } from "./auth.ts"
import { BadRequest, Colleague, Conflict, LongText, NotFound, PageNumber, PageSize, Pagination, RecordId, Timestamp, Version } from "./common.ts"
import { CoreTeamContact } from "./contacts.ts"
import { EventEntry } from "./events.ts"
import { Listing } from "./listings.ts"
import { ScamReport } from "./scam-reports.ts"
import { type TriageArea as Area, triageAreas, triagePriorities } from "./triage-rules.ts"
import { Business, Project, Startup } from "./ventures.ts"

/** A record as its own staff endpoint answers it, with the area it belongs to. */
const inArea = <const A extends Area, const F extends Schema.Struct.Fields>(area: A, fields: F) => Schema.Struct({ area: Schema.Literal(area), ...fields })

/**
 * One item waiting for a decision: the record as its area's staff endpoint answers it (a listing
 * as its type's screen reads it), and `area`, the activity log's and the browser store's name
 * of its kind. The most specific listing shapes first: an answer is written as the first that fits.
 */
export const TriageItem = Schema.Union([
  inArea("listing", EventEntry.fields),
  inArea("listing", Business.fields),
  inArea("listing", Startup.fields),
  inArea("listing", Project.fields),
  inArea("listing", Listing.fields),
  inArea("scam-report", ScamReport.fields),
  inArea("contact", CoreTeamContact.fields),
  inArea("inquiry", AdvertisingInquiry.fields)
])
export type TriageItem = typeof TriageItem.Type

export const TriageArea = Schema.Literals(triageAreas)
export const TriagePriority = Schema.Literals(triagePriorities)

/** Whose items: the caller's (`me`), nobody's (`none`), one admin user's, or anyone's (`all`, the default). */
export const TriageOwner = Schema.Union([Schema.Literals(["all", "me", "none"]), RecordId])

/** What the desk shows: the waiting items (the default), or those snoozed, soonest back first. */
export const TriageView = Schema.Literals(["waiting", "snoozed"])

/** The desk's order: oldest first (the default), or newest first. */
export const TriageOrder = Schema.Literals(["oldest", "newest"])

const Count = Schema.Struct({ _id: Schema.String, count: Schema.Int })

export const TriagePage = Schema.Struct({
  items: Schema.Array(TriageItem),
  pagination: Pagination,
  /** Waiting items (not snoozed) per area, under the owner and priority asked. */
  areaCounts: Schema.Array(Count),
  /** Items snoozed now, under the same filters. */
  snoozed: Schema.Int
})
export type TriagePage = typeof TriagePage.Type

/**
 * One change on the desk that no area's own screen makes: exactly one of who handles it
 * (`owner`, an admin user's id or null), until when it sleeps (`snoozedUntil`, or null to wake
 * it), or the record it duplicates (`duplicateOf`: the item closes as its area's duplicate
 * status), with an optional `reason` kept in its notes; and the version it was read at.
 */
export const TriageChange = Schema.Struct({
  owner: Schema.optionalKey(Schema.NullOr(RecordId)),
  snoozedUntil: Schema.optionalKey(Schema.NullOr(Timestamp)),
  duplicateOf: Schema.optionalKey(RecordId),
  reason: Schema.optionalKey(LongText),
  version: Version
})
export type TriageChange = typeof TriageChange.Type

/**
 * The desk's questions, each the part of a change it answers, checked in the console before the
 * command goes (docs/architecture.md, "Forms"); the server checks the whole change again.
 */
export const DeskAnswers = {
  reason: Schema.Struct({ reason: LongText }),
  snooze: Schema.Struct({ snoozedUntil: Timestamp }),
  owner: Schema.Struct({ owner: RecordId }),
  duplicate: Schema.Struct({ duplicateOf: RecordId })
} as const

/**
 * Someone who may own items: an enabled admin user, as the desk names them, with how many of their
 * items wait (snoozed aside). `email` only to whom may read admin accounts (super admins), and
 * one's own; null otherwise (docs/security.md, "Roles").
 */
export const TriageOwnerEntry = Schema.Struct({ ...Colleague.fields, waiting: Schema.Int })
export type TriageOwnerEntry = typeof TriageOwnerEntry.Type

/** The triage desk (docs/api.md, "The triage desk"): every record waiting for a staff decision, in one list. */
export class TriageApi extends HttpApiGroup.make("triage")
  .add(
    HttpApiEndpoint.get("desk", "/api/admin/triage", {
      query: {
        page: Schema.optionalKey(PageNumber),
        limit: Schema.optionalKey(PageSize),
        area: Schema.optionalKey(Schema.Union([TriageArea, Schema.Literal("all")])),
        priority: Schema.optionalKey(Schema.Union([TriagePriority, Schema.Literal("all")])),
        owner: Schema.optionalKey(TriageOwner),
        view: Schema.optionalKey(TriageView),
        order: Schema.optionalKey(TriageOrder)
      },
      success: Schema.Struct({ success: Schema.Literal(true), data: TriagePage })
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "Items waiting for a decision across areas (area, priority, owner, snoozed, order, page) with their counts"),
    HttpApiEndpoint.get("owners", "/api/admin/triage/owners", {
      success: Schema.Struct({
        success: Schema.Literal(true),
        data: Schema.Struct({ owners: Schema.Array(TriageOwnerEntry), unowned: Schema.Int })
      })
    })
      .middleware(Authorization)
      .annotate(
        OpenApi.Summary,
        "Who may own items: every enabled admin user, by name (e-mails to super admins, and one's own), with the items waiting on each and on nobody"
      ),
    HttpApiEndpoint.patch("change", "/api/admin/triage/:area/:id", {
      params: { area: TriageArea, id: RecordId },
      payload: TriageChange,
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ item: TriageItem }) }),
      error: [BadRequest, Conflict, NotFound]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "Assign, snooze or close as a duplicate one waiting item, naming the version it was read at")
  )
  .annotate(OpenApi.Title, "Triage desk")
  .annotate(OpenApi.Description, "Every record waiting for a staff decision: pending listings, open scam reports, new contacts, open inquiries.") {}
