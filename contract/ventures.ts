import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import {
  BadRequest,
  Conflict,
  Forbidden,
  Id,
  listQueryFields,
  pageQueryFields,
  LongText,
  NotFound,
  Ok,
  Pagination,
  RecordId,
  RequiredLongText,
  RequiredText,
  ShortText,
  TextList,
  Timestamp,
  TooManyRequests,
  Url,
  Version,
  VersionParam
} from "./common.ts"
import { ListingCounts, ListingStatus, Moderated } from "./listings.ts"
import { CsvExport } from "./lists.ts"
import { projectStatuses, startupStages } from "./venture-rules.ts"
import { formLimits, PublicForm, PublicFormLimit } from "./public-forms.ts"
import { PublicRead } from "./public-reads.ts"
import { triageFields } from "./triage-rules.ts"

/**
 * Businesses, startups and projects (docs/product-spec.md §3 and §5): listings like communities,
 * moderated by the same rules, with fields of their own. A project's lifecycle is `projectStatus`
 * here: every listing's `status` is its moderation state (docs/decisions.md).
 */
export const StartupStage = Schema.Literals(startupStages)
export const ProjectStatus = Schema.Literals(projectStatuses)

const optionalUrl = Schema.optionalKey(Schema.Union([Url, Schema.Literal("")]))
const optionalText = Schema.optionalKey(ShortText)
/** "founded (year text)": four digits, or empty. */
const FoundedYear = Schema.Union([
  Schema.String.check(
    Schema.isMaxLength(4, { message: "must be a year such as 2021" }),
    Schema.isPattern(/^(1[89]|20)\d{2}$/u, { message: "must be a year such as 2021" })
  ),
  Schema.Literal("")
])
/** Employees and team sizes: a whole number a person would type. */
const Headcount = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 10_000_000 }, { message: "must be a whole number from 0 to 10000000" }))

export const BusinessInput = Schema.Struct({
  name: RequiredText,
  category: RequiredText,
  industry: RequiredText,
  description: RequiredLongText,
  website: optionalUrl,
  location: optionalText,
  founded: Schema.optionalKey(FoundedYear),
  employees: Schema.optionalKey(Headcount),
  revenue: optionalText,
  isActive: Schema.optionalKey(Schema.Boolean)
})
export type BusinessInput = typeof BusinessInput.Type

export const StartupInput = Schema.Struct({
  name: RequiredText,
  category: RequiredText,
  stage: StartupStage,
  description: RequiredLongText,
  website: optionalUrl,
  location: optionalText,
  founded: Schema.optionalKey(FoundedYear),
  teamSize: Schema.optionalKey(Headcount),
  funding: optionalText,
  isActive: Schema.optionalKey(Schema.Boolean)
})
export type StartupInput = typeof StartupInput.Type

export const ProjectInput = Schema.Struct({
  name: RequiredText,
  category: RequiredText,
  projectStatus: ProjectStatus,
  description: RequiredLongText,
  website: optionalUrl,
  github: optionalUrl,
  team: Schema.optionalKey(TextList),
  technologies: Schema.optionalKey(TextList),
  isActive: Schema.optionalKey(Schema.Boolean)
})
export type ProjectInput = typeof ProjectInput.Type

const stored = {
  _id: Id,
  status: ListingStatus,
  moderationNotes: LongText,
  isActive: Schema.Boolean,
  ...triageFields,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
}

export const Business = Schema.Struct({ ...BusinessInput.fields, ...stored, type: Schema.Literal("business") })
export type Business = typeof Business.Type
export const Startup = Schema.Struct({ ...StartupInput.fields, ...stored, type: Schema.Literal("startup") })
export type Startup = typeof Startup.Type
export const Project = Schema.Struct({ ...ProjectInput.fields, ...stored, type: Schema.Literal("project") })
export type Project = typeof Project.Type

const versioned = <F extends Schema.Struct.Fields>(input: Schema.Struct<F>) => Schema.Struct({ ...input.fields, version: Version })
const idParam = { id: RecordId }

/** The filters of a venture list beyond search, status and paging. */
const ventureQuery = <F extends Schema.Struct.Fields>(extra: F) => ({
  ...listQueryFields,
  status: Schema.optionalKey(ListingStatus),
  category: Schema.optionalKey(ShortText),
  isActive: Schema.optionalKey(Schema.Literals(["true", "false"])),
  ...extra
})

/** A venture list's page with its four counts, its rows under `field`. */
export const venturePage = <Field extends string, Row extends Schema.Top>(field: Field, row: Row) =>
  Schema.Struct({
    success: Schema.Literal(true),
    data: Schema.Struct({ [field]: Schema.Array(row), pagination: Pagination, counts: ListingCounts } as { [K in Field]: Schema.$Array<Row> } & {
      pagination: typeof Pagination
      counts: typeof ListingCounts
    })
  })

/** The spec's calls of one venture screen, plus the active switch moderators may use. */
const ventureCalls = <
  Name extends string,
  Path extends `/api/admin/${string}`,
  Field extends string,
  Row extends Schema.Top,
  F extends Schema.Struct.Fields,
  Q extends Schema.Struct.Fields
>(
  name: Name,
  path: Path,
  field: Field,
  row: Row,
  input: Schema.Struct<F>,
  extraQuery: Q,
  label: string
) => {
  const one = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ listing: row }) })
  return HttpApiGroup.make(name)
    .add(
      HttpApiEndpoint.get("list", path, { query: ventureQuery(extraQuery), success: [venturePage(field, row), CsvExport] }).annotate(
        OpenApi.Summary,
        `List ${label} (search, status, category, active, page) with the four counts, or export them as CSV`
      ),
      HttpApiEndpoint.post("create", path, { payload: input, success: one, error: [BadRequest, Forbidden] }).annotate(
        OpenApi.Summary,
        `Add one of the ${label} (pending)`
      ),
      HttpApiEndpoint.put("update", `${path}/:id`, {
        params: idParam,
        payload: versioned(input),
        success: one,
        error: [BadRequest, Forbidden, Conflict, NotFound]
      }).annotate(OpenApi.Summary, `Edit one of the ${label}, naming the version it was read at`),
      HttpApiEndpoint.put("setActive", `${path}/:id/active`, {
        params: idParam,
        payload: Schema.Struct({ isActive: Schema.Boolean, version: Version }),
        success: one,
        error: [BadRequest, Conflict, NotFound]
      }).annotate(OpenApi.Summary, `Show or hide one of the ${label} on the public site`),
      HttpApiEndpoint.delete("remove", `${path}/:id`, {
        params: idParam,
        query: { version: VersionParam },
        success: Ok,
        error: [Forbidden, Conflict, NotFound]
      }).annotate(OpenApi.Summary, `Delete one of the ${label}, naming the version it was read at`)
    )
    .middleware(Authorization)
}

export class BusinessesApi extends ventureCalls("businesses", "/api/admin/businesses", "businesses", Business, BusinessInput, {}, "businesses")
  .annotate(OpenApi.Title, "Businesses")
  .annotate(OpenApi.Description, "Business listings: fields, filters, moderation, visibility.") {}
export class StartupsApi extends ventureCalls(
  "startups",
  "/api/admin/startups",
  "startups",
  Startup,
  StartupInput,
  { stage: Schema.optionalKey(StartupStage) },
  "startups"
)
  .annotate(OpenApi.Title, "Startups")
  .annotate(OpenApi.Description, "Startup listings: fields, filters, moderation, visibility.") {}
export class ProjectsApi extends ventureCalls(
  "projects",
  "/api/admin/projects",
  "projects",
  Project,
  ProjectInput,
  { projectStatus: Schema.optionalKey(ProjectStatus) },
  "projects"
)
  .annotate(OpenApi.Title, "Projects")
  .annotate(OpenApi.Description, "Project listings: fields, filters, moderation, visibility.") {}

export const VentureType = Schema.Literals(["business", "startup", "project"])
export type VentureType = typeof VentureType.Type

export const AnyVenture = Schema.Union([Business, Startup, Project])
export type AnyVenture = typeof AnyVenture.Type

/** The spec's moderation calls under /api/listings/admin. */
export class VentureModerationApi extends HttpApiGroup.make("ventureModeration")
  .add(
    HttpApiEndpoint.get("list", "/api/listings/admin/:type", {
      params: { type: VentureType },
      query: { ...listQueryFields, status: Schema.optionalKey(ListingStatus) },
      success: [
        Schema.Struct({
          success: Schema.Literal(true),
          data: Schema.Struct({ listings: Schema.Array(AnyVenture), pagination: Pagination, counts: ListingCounts })
        }),
        CsvExport
      ]
    }).annotate(OpenApi.Summary, "List businesses, startups or projects for moderation, with the four counts, or export them as CSV"),
    HttpApiEndpoint.put("setStatus", "/api/listings/admin/:type/:id/status", {
      params: { type: VentureType, id: RecordId },
      payload: Schema.Struct({ status: ListingStatus, version: Version, notes: Schema.optionalKey(LongText) }),
      success: Moderated,
      error: [BadRequest, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Move a business, startup or project to a status the moderation rules allow")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Business, startup and project moderation")
  .annotate(OpenApi.Description, "The spec’s moderation calls for the three venture types.") {}

/** What the public site sends: the form's fields, never a status or the active switch. */
const submission = <F extends Schema.Struct.Fields>(input: Schema.Struct<F>) => input.mapFields(({ isActive: _isActive, ...fields }) => fields)

export const PublicVenture = Schema.Struct({
  _id: Id,
  type: VentureType,
  name: RequiredText,
  description: RequiredLongText,
  createdAt: Timestamp,
  details: Schema.Record(Schema.String, Schema.Unknown)
})
export type PublicVenture = typeof PublicVenture.Type

const publicPage = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ listings: Schema.Array(PublicVenture), pagination: Pagination }) })
const submitted = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ listing: PublicVenture }) })

/** The public site's calls for the three types: approved and active ones, and submissions (pending). */
export class VenturesPublicApi extends HttpApiGroup.make("venturesPublic")
  .add(
    HttpApiEndpoint.get("businesses", "/api/listings/business", { query: pageQueryFields, success: publicPage, error: BadRequest })
      .middleware(PublicRead)
      .annotate(OpenApi.Summary, "List approved, active businesses, the newest 1,000 (no token; limited per client address)"),
    HttpApiEndpoint.get("startups", "/api/listings/startup", { query: pageQueryFields, success: publicPage, error: BadRequest })
      .middleware(PublicRead)
      .annotate(OpenApi.Summary, "List approved, active startups, the newest 1,000 (no token; limited per client address)"),
    HttpApiEndpoint.get("projects", "/api/listings/project", { query: pageQueryFields, success: publicPage, error: BadRequest })
      .middleware(PublicRead)
      .annotate(OpenApi.Summary, "List approved, active projects, the newest 1,000 (no token; limited per client address)"),
    HttpApiEndpoint.post("submitBusiness", "/api/listings/business", {
      payload: submission(BusinessInput),
      success: submitted,
      error: [BadRequest, TooManyRequests]
    })
      .middleware(PublicForm)
      .annotate(PublicFormLimit, formLimits.listing)
      .annotate(OpenApi.Summary, "Submit a business for review (no token; limited per client address)"),
    HttpApiEndpoint.post("submitStartup", "/api/listings/startup", {
      payload: submission(StartupInput),
      success: submitted,
      error: [BadRequest, TooManyRequests]
    })
      .middleware(PublicForm)
      .annotate(PublicFormLimit, formLimits.listing)
      .annotate(OpenApi.Summary, "Submit a startup for review (no token; limited per client address)"),
    HttpApiEndpoint.post("submitProject", "/api/listings/project", {
      payload: submission(ProjectInput),
      success: submitted,
      error: [BadRequest, TooManyRequests]
    })
      .middleware(PublicForm)
      .annotate(PublicFormLimit, formLimits.listing)
      .annotate(OpenApi.Summary, "Submit a project for review (no token; limited per client address)")
  )
  .annotate(OpenApi.Title, "Businesses, startups and projects (public)")
  .annotate(OpenApi.Description, "The public site’s approved, active ventures and their submissions.") {}
