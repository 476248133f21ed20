import { Schema } from "effect"
import { Id, Timestamp } from "./common.ts"

/** When the allowed-IP list is not empty, admin endpoints answer only these addresses. */
export const AllowedIp = Schema.Struct({
  _id: Id,
  ip: Schema.String,
  description: Schema.String,
  createdAt: Timestamp
})
export type AllowedIp = typeof AllowedIp.Type

/** One append-only record of who did what to which record. */
export const ActivityEntry = Schema.Struct({
  _id: Id,
  at: Timestamp,
  actorEmail: Schema.NullOr(Schema.String),
  action: Schema.String,
  entity: Schema.String,
  entityId: Schema.NullOr(Schema.String),
  fromState: Schema.NullOr(Schema.String),
  toState: Schema.NullOr(Schema.String),
  ip: Schema.NullOr(Schema.String)
})
export type ActivityEntry = typeof ActivityEntry.Type

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
