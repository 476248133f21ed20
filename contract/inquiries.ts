import { Schema } from "effect"
import { Email, Id, RequiredText, Timestamp, Version } from "./common.ts"

export const InquiryStatuses = ["pending", "paid", "reviewed", "contacted", "converted", "rejected"] as const
export const InquiryStatus = Schema.Literals(InquiryStatuses)
export type InquiryStatus = typeof InquiryStatus.Type

export const AdvertisingIndustries = [
  "Cryptocurrency Exchange",
  "Wallet Services",
  "DeFi Platforms",
  "NFT Marketplaces",
  "Blockchain Development",
  "Mining Equipment",
  "Educational Content",
  "Trading Tools",
  "Financial Services",
  "Gaming",
  "E-commerce",
  "Other"
] as const

export const AdvertisingInquiry = Schema.Struct({
  _id: Id,
  companyName: RequiredText,
  contactName: RequiredText,
  email: Email,
  phone: Schema.optionalKey(Schema.String),
  website: Schema.optionalKey(Schema.String),
  industry: Schema.String,
  budget: Schema.optionalKey(Schema.String),
  campaignType: Schema.optionalKey(Schema.String),
  duration: Schema.optionalKey(Schema.String),
  selectedPlan: Schema.optionalKey(Schema.String),
  targetAudience: Schema.optionalKey(Schema.String),
  campaignGoals: Schema.optionalKey(Schema.String),
  additionalInfo: Schema.optionalKey(Schema.String),
  status: InquiryStatus,
  adminNotes: Schema.optionalKey(Schema.String),
  paymentId: Schema.optionalKey(Schema.String),
  txid: Schema.optionalKey(Schema.String),
  /** In Pi. */
  amount: Schema.optionalKey(Schema.Finite),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type AdvertisingInquiry = typeof AdvertisingInquiry.Type
