import { Schema } from "effect"
import { Id, RequiredText, Timestamp, Version } from "./common.ts"

/** Events and hackathons share one shape and one path: `/api/ecosystem?type=...`. */
export const EcosystemType = Schema.Literals(["events", "hackathons"])
export type EcosystemType = typeof EcosystemType.Type

export const EcosystemEntry = Schema.Struct({
  _id: Id,
  name: RequiredText,
  description: RequiredText,
  status: Schema.String,
  featured: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type EcosystemEntry = typeof EcosystemEntry.Type
