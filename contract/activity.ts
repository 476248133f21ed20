import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import { Id, ListFormat, PageNumber, PageSize, SearchText, Text, Timestamp } from "./common.ts"
import type { ListingType } from "./listing-rules.ts"
import { CsvExport, pageOf } from "./lists.ts"
import { activityAreas } from "./activity-rules.ts"

/**
 * The activity log and the dashboard's figures (docs/product-spec.md §2 "Dashboard", §7;
 * docs/api.md, "Activity log").
 */

export { activityAreaLabels, activityAreas } from "./activity-rules.ts"
export const ActivityArea = Schema.Literals(activityAreas)
export type ActivityArea = typeof ActivityArea.Type

/** The record an event is about, as it is now: what it is called and what tells it apart. */
export const ActivityRecord = Schema.Struct({
  /** Its name or title now; null once it is gone (or for records without one). */
  label: Schema.NullOr(Schema.String),
  /** An address's kind or a listing's type. */
  kind: Schema.NullOr(Schema.String),
  /** A blog post's slug now: posts are opened by slug. */
  slug: Schema.NullOr(Schema.String)
})
export type ActivityRecord = typeof ActivityRecord.Type

/** One append-only record of who did what to which record. */
export const ActivityEntry = Schema.Struct({
  _id: Id,
  at: Timestamp,
  /** The staff member who did it (null for the public, the server's own jobs and a refused sign-in). */
  actorId: Schema.NullOr(Id),
  /** Their e-mail, or the one a refused sign-in typed: only to whom may read it (contract/common.ts, `Colleague`). */
  actorEmail: Schema.NullOr(Schema.String),
  actorName: Schema.NullOr(Schema.String),
  action: Schema.String,
  area: Schema.String,
  entityId: Schema.NullOr(Schema.String),
  fromState: Schema.NullOr(Schema.String),
  toState: Schema.NullOr(Schema.String),
  ip: Schema.NullOr(Schema.String),
  record: ActivityRecord
})
export type ActivityEntry = typeof ActivityEntry.Type

/** `?from=` / `?to=`: a day (`2026-11-23`, the whole day in UTC) or an ISO 8601 date-time. */
export const DayOrTime = Schema.String.check(
  Schema.isMaxLength(40, { message: "must be a date (YYYY-MM-DD) or an ISO 8601 date-time" }),
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/u, {
    message: "must be a date (YYYY-MM-DD) or an ISO 8601 date-time"
  })
)

export const ActivityAction = Schema.String.check(
  Schema.isMaxLength(60, { message: "must be an action such as listing.status" }),
  Schema.isPattern(/^[a-z-]+\.[a-z_]+$/u, { message: "must be an action such as listing.status" })
)

export class ActivityLogApi extends HttpApiGroup.make("activity")
  .add(
    HttpApiEndpoint.get("list", "/api/admin/activity-logs", {
      query: {
        page: Schema.optionalKey(PageNumber),
        limit: Schema.optionalKey(PageSize),
        /** The actor's name or e-mail, or part of it. */
        username: Schema.optionalKey(SearchText),
        area: Schema.optionalKey(Schema.Union([ActivityArea, Schema.Literal("all")])),
        action: Schema.optionalKey(ActivityAction),
        /** One record's id: its whole history. */
        record: Schema.optionalKey(Text(64)),
        from: Schema.optionalKey(DayOrTime),
        to: Schema.optionalKey(DayOrTime),
        format: Schema.optionalKey(ListFormat)
      },
      success: [pageOf("logs", ActivityEntry), CsvExport]
    }).annotate(OpenApi.Summary, "The activity log, newest first (actor, area, action, record, date range)")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Activity log")
  .annotate(OpenApi.Description, "Who did what to which record, and when: append-only.") {}

export const DashboardStats = Schema.Struct({
  totalBlogs: Schema.Int,
  totalCommunities: Schema.Int,
  totalInfluencers: Schema.Int,
  totalBusinesses: Schema.Int,
  totalStartups: Schema.Int,
  totalProjects: Schema.Int,
  totalEvents: Schema.Int,
  totalHackathons: Schema.Int,
  pendingReviews: Schema.Int
})
export type DashboardStats = typeof DashboardStats.Type

/** Which statistic counts each listing type. */
export const listingStatistics = {
  community: "totalCommunities",
  influencer: "totalInfluencers",
  business: "totalBusinesses",
  startup: "totalStartups",
  project: "totalProjects",
  event: "totalEvents",
  hackathon: "totalHackathons"
} as const satisfies Record<ListingType, keyof DashboardStats>

export const AnalyticsPeriod = Schema.Literals(["7d", "30d", "all"])
export type AnalyticsPeriod = typeof AnalyticsPeriod.Type

/** What `pendingReviews` adds up. */
export const PendingBreakdown = Schema.Struct({
  /** Pending listings per type (community, influencer, business, startup, project, event, hackathon). */
  listings: Schema.Array(Schema.Struct({ type: Schema.String, count: Schema.Int })),
  scamReports: Schema.Int,
  contacts: Schema.Int,
  /** Advertising inquiries waiting: pending, and paid but not yet reviewed. */
  inquiries: Schema.Int,
  paidInquiries: Schema.Int
})
export type PendingBreakdown = typeof PendingBreakdown.Type

export const Analytics = Schema.Struct({
  period: AnalyticsPeriod,
  statistics: DashboardStats,
  pending: PendingBreakdown,
  /** New records (posts, listings, reports, contacts, inquiries) per UTC day, oldest first; "all" counts per month. */
  created: Schema.Struct({
    bucket: Schema.Literals(["day", "month"]),
    points: Schema.Array(Schema.Struct({ start: Schema.String, total: Schema.Int })),
    total: Schema.Int
  })
})
export type Analytics = typeof Analytics.Type

export class AnalyticsApi extends HttpApiGroup.make("analytics")
  .add(
    HttpApiEndpoint.get("get", "/api/admin/analytics", {
      query: { period: Schema.optionalKey(AnalyticsPeriod) },
      success: Schema.Struct({ success: Schema.Literal(true), data: Analytics })
    }).annotate(OpenApi.Summary, "The dashboard's counts, pending reviews and new records per day")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Analytics")
  .annotate(OpenApi.Description, "Counts kept by the database as records change.") {}
