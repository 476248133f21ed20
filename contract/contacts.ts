import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import {
  BadRequest,
  Conflict,
  Email,
  Forbidden,
  Id,
  ListFormat,
  LongText,
  NotFound,
  Ok,
  PageNumber,
  PageSize,
  Pagination,
  RecordId,
  RequiredLongText,
  RequiredText,
  SearchText,
  ShortText,
  Timestamp,
  TooManyRequests,
  Unauthorized,
  Url,
  Version,
  VersionParam
} from "./common.ts"
import { contactPriorities, contactStatuses } from "./contact-rules.ts"
import { CsvExport } from "./lists.ts"
import { formLimits, PublicForm, PublicFormLimit } from "./public-forms.ts"
import { triageFields } from "./triage-rules.ts"

export const ContactStatus = Schema.Literals(contactStatuses)
export const ContactPriority = Schema.Literals(contactPriorities)

const optionalEmail = Schema.optionalKey(Schema.Union([Email, Schema.Literal("")]))
const optionalUrl = Schema.optionalKey(Schema.Union([Url, Schema.Literal("")]))

/** What the public site's form sends (docs/product-spec.md §3 CoreTeamContact): who, what, which project. */
export const ContactSubmission = Schema.Struct({
  contactInfo: Schema.Struct({
    name: RequiredText,
    email: optionalEmail,
    organization: Schema.optionalKey(ShortText),
    role: RequiredText
  }),
  inquiry: Schema.Struct({
    category: Schema.optionalKey(RequiredText),
    priority: Schema.optionalKey(ContactPriority),
    subject: RequiredText,
    details: RequiredLongText
  }),
  projectInfo: Schema.optionalKey(
    Schema.Struct({
      name: Schema.optionalKey(ShortText),
      stage: Schema.optionalKey(ShortText),
      piIntegration: Schema.optionalKey(ShortText),
      website: optionalUrl
    })
  )
})
export type ContactSubmission = typeof ContactSubmission.Type

/** The handling fields staff set (§3): moderators may change these and the status and priority. */
const handlingFields = {
  status: Schema.optionalKey(ContactStatus),
  submittedAt: Schema.optionalKey(Timestamp),
  assignedTo: Schema.optionalKey(ShortText),
  response: Schema.optionalKey(LongText),
  internalNotes: Schema.optionalKey(LongText),
  followUpRequired: Schema.optionalKey(Schema.Boolean),
  expectedResponseTime: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 8760 }, { message: "must be between 1 and 8760 hours" })))
}

/** A contact as staff create it: the submission's fields and the handling ones. The public's extra fields are ignored. */
export const ContactInput = Schema.Struct({ ...ContactSubmission.fields, ...handlingFields })
export type ContactInput = typeof ContactInput.Type

export const ContactUpdate = Schema.Struct({ ...ContactSubmission.fields, ...handlingFields, version: Version })

export const CoreTeamContact = Schema.Struct({
  _id: Id,
  contactInfo: Schema.Struct({ name: Schema.String, email: Schema.String, organization: Schema.String, role: Schema.String }),
  inquiry: Schema.Struct({ category: Schema.String, priority: ContactPriority, subject: Schema.String, details: Schema.String }),
  projectInfo: Schema.Struct({ name: Schema.String, stage: Schema.String, piIntegration: Schema.String, website: Schema.String }),
  status: ContactStatus,
  submittedAt: Timestamp,
  respondedAt: Schema.NullOr(Timestamp),
  resolvedAt: Schema.NullOr(Timestamp),
  assignedTo: Schema.String,
  response: Schema.String,
  internalNotes: Schema.String,
  followUpRequired: Schema.Boolean,
  expectedResponseTime: Schema.Int,
  ...triageFields,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type CoreTeamContact = typeof CoreTeamContact.Type

export const contactMessages = {
  received: "Thank you: your message has been received.",
  stale: "This contact was changed by someone else since you read it.",
  notFound: "This contact no longer exists. Reload the list.",
  readOnly: "Only admins may add or delete contacts.",
  handlingOnly: "Moderators may change the status, priority, assignee, response and notes only.",
  /** Spec §4: the defaults of a new record. */
  defaultCategory: "Partnership Proposal"
} as const

/** The spec's page size for contacts (§9). */
export const CONTACTS_PAGE_SIZE = 10

/** A page of contacts. */
export const ContactPage = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({ contacts: Schema.Array(CoreTeamContact), pagination: Pagination })
})
export type ContactPage = typeof ContactPage.Type
const oneContact = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ contact: CoreTeamContact }) })

/** Core-team contacts (docs/product-spec.md §2 "Core Team Contacts", §7). */
export class ContactsApi extends HttpApiGroup.make("contacts")
  .add(
    HttpApiEndpoint.get("list", "/api/core-team-contact", {
      query: {
        page: Schema.optionalKey(PageNumber),
        limit: Schema.optionalKey(PageSize),
        search: Schema.optionalKey(SearchText),
        status: Schema.optionalKey(Schema.Union([ContactStatus, Schema.Literal("all")])),
        priority: Schema.optionalKey(Schema.Union([ContactPriority, Schema.Literal("all")])),
        format: Schema.optionalKey(ListFormat)
      },
      success: [ContactPage, CsvExport]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "List contacts (status, priority, search over name, e-mail and subject; 10 a page)"),
    HttpApiEndpoint.post("create", "/api/core-team-contact", {
      payload: ContactInput,
      success: Schema.Struct({ success: Schema.Literal(true), message: Schema.String, data: Schema.Struct({ _id: Id }) }),
      error: [BadRequest, Unauthorized, Forbidden, TooManyRequests]
    })
      .middleware(PublicForm)
      .annotate(PublicFormLimit, formLimits.contact)
      .annotate(
        OpenApi.Summary,
        "Without a token: the public site's submission (limited per client address; contact, inquiry and project fields only). With an admin's token: a contact with every field"
      ),
    HttpApiEndpoint.get("one", "/api/core-team-contact/:id", {
      params: { id: RecordId },
      success: oneContact,
      error: [NotFound]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "One contact"),
    HttpApiEndpoint.put("update", "/api/core-team-contact/:id", {
      params: { id: RecordId },
      payload: ContactUpdate,
      success: oneContact,
      error: [BadRequest, Forbidden, Conflict, NotFound]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "Replace a contact at the version it was read (moderators: handling fields only)"),
    HttpApiEndpoint.delete("remove", "/api/core-team-contact/:id", {
      params: { id: RecordId },
      query: { version: VersionParam },
      success: Ok,
      error: [Forbidden, Conflict, NotFound]
    })
      .middleware(Authorization)
      .annotate(OpenApi.Summary, "Delete a contact (admins) at the version it was read")
  )
  .annotate(OpenApi.Title, "Core-team contacts")
  .annotate(OpenApi.Description, "Messages to the core team from the public site, handled by staff.") {}
