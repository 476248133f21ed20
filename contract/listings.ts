import { Schema } from "effect"
import { Id, RequiredText, Timestamp, Version } from "./common.ts"

const stored = { _id: Id, createdAt: Timestamp, updatedAt: Timestamp, version: Version }
const optionalText = Schema.optionalKey(Schema.String)

/** Community and influencer listings submitted by users and moderated by staff. */
export const ListingKind = Schema.Literals(["community", "influencer"])
export type ListingKind = typeof ListingKind.Type

export const ListingStatus = Schema.Literals(["pending", "approved", "rejected"])
export type ListingStatus = typeof ListingStatus.Type

export const Listing = Schema.Struct({
  ...stored,
  name: RequiredText,
  description: RequiredText,
  status: ListingStatus
})
export type Listing = typeof Listing.Type

export const Business = Schema.Struct({
  ...stored,
  name: RequiredText,
  description: RequiredText,
  category: RequiredText,
  industry: RequiredText,
  website: optionalText,
  location: optionalText,
  founded: optionalText,
  employees: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  revenue: optionalText,
  isActive: Schema.Boolean
})
export type Business = typeof Business.Type

export const StartupStage = Schema.Literals(["idea", "mvp", "early-traction", "growth", "scale"])

export const Startup = Schema.Struct({
  ...stored,
  name: RequiredText,
  description: RequiredText,
  category: RequiredText,
  stage: StartupStage,
  website: optionalText,
  location: optionalText,
  founded: optionalText,
  teamSize: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  funding: optionalText,
  isActive: Schema.Boolean
})
export type Startup = typeof Startup.Type

export const ProjectStatus = Schema.Literals([
  "planning",
  "in-development",
  "beta",
  "live",
  "maintenance",
  "discontinued"
])

export const Project = Schema.Struct({
  ...stored,
  name: RequiredText,
  description: RequiredText,
  category: RequiredText,
  status: ProjectStatus,
  website: optionalText,
  github: optionalText,
  team: Schema.Array(Schema.String),
  technologies: Schema.Array(Schema.String),
  isActive: Schema.Boolean
})
export type Project = typeof Project.Type
