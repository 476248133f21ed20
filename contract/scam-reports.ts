import { Schema } from "effect"
import { Id, Pagination, RequiredText, Timestamp, Version } from "./common.ts"

export const ScamReportStatus = Schema.Literals(["new", "under_review", "resolved", "dismissed"])
export type ScamReportStatus = typeof ScamReportStatus.Type

export const ScamReportPriority = Schema.Literals(["low", "normal", "high", "urgent"])
export type ScamReportPriority = typeof ScamReportPriority.Type

export const scamTypeLabels = {
  fake_project: "Fake Pi Network Project",
  phishing: "Phishing Attempt",
  suspicious_wallet: "Suspicious Wallet",
  fake_giveaway: "Fake Giveaway",
  impersonation: "Impersonation",
  other: "Other Fraud"
} as const
export const ScamType = Schema.Literals([
  "fake_project",
  "phishing",
  "suspicious_wallet",
  "fake_giveaway",
  "impersonation",
  "other"
])
export type ScamType = typeof ScamType.Type

export const ScamReport = Schema.Struct({
  _id: Id,
  scamType: ScamType,
  description: RequiredText,
  evidence: Schema.optionalKey(Schema.String),
  walletAddress: Schema.optionalKey(Schema.String),
  reporterContact: Schema.optionalKey(Schema.String),
  ipAddress: Schema.optionalKey(Schema.String),
  status: ScamReportStatus,
  priority: ScamReportPriority,
  adminNotes: Schema.optionalKey(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type ScamReport = typeof ScamReport.Type

const Count = Schema.Struct({ _id: Schema.String, count: Schema.Int })

export const ScamReportList = Schema.Struct({
  reports: Schema.Array(ScamReport),
  pagination: Pagination,
  statusCounts: Schema.Array(Count),
  scamTypeCounts: Schema.Array(Count)
})
