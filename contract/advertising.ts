import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import {
  BadRequest,
  Conflict,
  Email,
  Id,
  ListFormat,
  LongText,
  NotFound,
  PageNumber,
  PageSize,
  Pagination,
  RecordId,
  RequiredText,
  SearchText,
  ShortText,
  Text,
  Timestamp,
  TooManyRequests,
  Url,
  Version
} from "./common.ts"
import { inquiryStatuses } from "./advertising-rules.ts"
import { industries } from "./advertising-industries.ts"
import { CsvExport } from "./lists.ts"
import { formLimits, PublicForm, PublicFormLimit } from "./public-forms.ts"
import { triageFields } from "./triage-rules.ts"

export const InquiryStatus = Schema.Literals(inquiryStatuses)
export const Industry = Schema.Literals(industries)

const optionalUrl = Schema.optionalKey(Schema.Union([Url, Schema.Literal("")]))
const optionalText = Schema.optionalKey(ShortText)

/** What the public site's advertising form sends (docs/product-spec.md §3 AdvertisingInquiry), payment included. */
export const InquirySubmission = Schema.Struct({
  companyName: RequiredText,
  contactName: RequiredText,
  email: Email,
  phone: Schema.optionalKey(Text(40)),
  website: optionalUrl,
  industry: Industry,
  budget: optionalText,
  campaignType: optionalText,
  duration: optionalText,
  selectedPlan: optionalText,
  targetAudience: Schema.optionalKey(LongText),
  campaignGoals: Schema.optionalKey(LongText),
  additionalInfo: Schema.optionalKey(LongText),
  /** The Pi payment, when the site took one: its id, the blockchain transaction and the amount in Pi. */
  paymentId: optionalText,
  txid: optionalText,
  amount: Schema.optionalKey(Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000_000 }, { message: "must be an amount in Pi" })))
})
export type InquirySubmission = typeof InquirySubmission.Type

export const AdvertisingInquiry = Schema.Struct({
  _id: Id,
  companyName: Schema.String,
  contactName: Schema.String,
  email: Schema.String,
  phone: Schema.String,
  website: Schema.String,
  industry: Schema.String,
  budget: Schema.String,
  campaignType: Schema.String,
  duration: Schema.String,
  selectedPlan: Schema.String,
  targetAudience: Schema.String,
  campaignGoals: Schema.String,
  additionalInfo: Schema.String,
  status: InquiryStatus,
  adminNotes: Schema.String,
  paymentId: Schema.String,
  txid: Schema.String,
  amount: Schema.NullOr(Schema.Finite),
  ...triageFields,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type AdvertisingInquiry = typeof AdvertisingInquiry.Type

export const InquiryCounts = Schema.Struct({ total: Schema.Int, pending: Schema.Int, contacted: Schema.Int, converted: Schema.Int })
export type InquiryCounts = typeof InquiryCounts.Type

export const inquiryMessages = {
  received: "Thank you: your inquiry has been received.",
  stale: "This inquiry was changed by someone else since you read it.",
  notFound: "This inquiry no longer exists. Reload the list.",
  illegal: (from: string, to: string) => `This inquiry is ${from}; it cannot be set to ${to}.`
} as const

const listQuery = {
  page: Schema.optionalKey(PageNumber),
  limit: Schema.optionalKey(PageSize),
  search: Schema.optionalKey(SearchText),
  status: Schema.optionalKey(Schema.Union([InquiryStatus, Schema.Literal("all")])),
  industry: Schema.optionalKey(Schema.Union([Industry, Schema.Literal("all")])),
  format: Schema.optionalKey(ListFormat)
}
/** A page of inquiries with the four counts of all of them. */
export const InquiryPage = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({ inquiries: Schema.Array(AdvertisingInquiry), pagination: Pagination, counts: InquiryCounts })
})
export type InquiryPage = typeof InquiryPage.Type
const oneInquiry = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ inquiry: AdvertisingInquiry }) })

/** Advertising inquiries (docs/product-spec.md §2 "Advertising Inquiries", §7). */
/** What the detail modal's form sends with a move: the admin notes (the console checks them with this). */
export const InquiryNotesInput = Schema.Struct({ adminNotes: Schema.optionalKey(LongText) })

export class AdvertisingApi extends HttpApiGroup.make("advertising")
  .add(
    HttpApiEndpoint.post("submit", "/api/advertising-inquiries", {
      payload: InquirySubmission,
      success: Schema.Struct({ success: Schema.Literal(true), message: Schema.String, data: Schema.Struct({ _id: Id }) }),
      error: [BadRequest, TooManyRequests]
    })
      .middleware(PublicForm)
      .annotate(PublicFormLimit, formLimits.inquiry)
      .annotate(OpenApi.Summary, "The public site's advertising form, payment included (no token; limited per client address)"),
    HttpApiEndpoint.get("list", "/api/advertising-inquiries", { query: listQuery, success: [InquiryPage, CsvExport] })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "List inquiries (search over company, contact and e-mail; status; industry) with the four counts"),
    HttpApiEndpoint.get("one", "/api/advertising-inquiries/:id", { params: { id: RecordId }, success: oneInquiry, error: [NotFound] })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "One inquiry"),
    HttpApiEndpoint.put("update", "/api/advertising-inquiries/:id", {
      params: { id: RecordId },
      payload: Schema.Struct({ status: InquiryStatus, ...InquiryNotesInput.fields, version: Version }),
      success: oneInquiry,
      error: [BadRequest, Conflict, NotFound]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "Move an inquiry on (pending, paid, reviewed → contacted → converted | rejected) with the admin notes"),
    HttpApiEndpoint.get("adminList", "/api/listings/admin/advertising", { query: listQuery, success: [InquiryPage, CsvExport] })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "The same list, at the spec's listings address"),
    HttpApiEndpoint.put("adminStatus", "/api/listings/admin/advertising/:id/status", {
      params: { id: RecordId },
      payload: Schema.Struct({ status: InquiryStatus, version: Version }),
      success: oneInquiry,
      error: [BadRequest, Conflict, NotFound]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "Move an inquiry on, at the spec's listings address")
  )
  .annotate(OpenApi.Title, "Advertising inquiries")
  .annotate(OpenApi.Description, "Advertising requests from the public site, paid ones included, handled by staff.") {}
