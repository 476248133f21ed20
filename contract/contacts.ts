import { Schema } from "effect"
import { Email, Id, RequiredText, Timestamp, Url, Version } from "./common.ts"

export const ContactStatus = Schema.Literals(["new", "in_progress", "responded", "resolved", "closed"])
export type ContactStatus = typeof ContactStatus.Type

export const ContactPriority = Schema.Literals(["low", "medium", "high", "urgent"])
export type ContactPriority = typeof ContactPriority.Type

export const contactDefaults = {
  category: "Partnership Proposal",
  priority: "medium",
  status: "new",
  followUpRequired: false,
  expectedResponseTime: 72
} as const

export const CoreTeamContact = Schema.Struct({
  _id: Id,
  contactInfo: Schema.Struct({
    name: RequiredText,
    email: Schema.optionalKey(Schema.Union([Email, Schema.Literal("")])),
    organization: Schema.optionalKey(Schema.String),
    role: RequiredText
  }),
  inquiry: Schema.Struct({
    category: RequiredText,
    priority: ContactPriority,
    subject: RequiredText,
    details: RequiredText
  }),
  projectInfo: Schema.Struct({
    name: Schema.optionalKey(Schema.String),
    stage: Schema.optionalKey(Schema.String),
    piIntegration: Schema.optionalKey(Schema.String),
    website: Schema.optionalKey(Schema.Union([Url, Schema.Literal("")]))
  }),
  status: ContactStatus,
  submittedAt: Timestamp,
  respondedAt: Schema.NullOr(Timestamp),
  resolvedAt: Schema.NullOr(Timestamp),
  assignedTo: Schema.optionalKey(Schema.String),
  response: Schema.optionalKey(Schema.String),
  internalNotes: Schema.optionalKey(Schema.String),
  followUpRequired: Schema.Boolean,
  expectedResponseTime: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type CoreTeamContact = typeof CoreTeamContact.Type
