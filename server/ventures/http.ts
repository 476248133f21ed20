import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { type AnyVenture, Business, Project, PublicVenture, Startup, type VentureType } from "../../contract/ventures.ts"
import { encodableAs } from "../platform/encodable.ts"
import { csvResponse, publicListPage, wantsCsv } from "../platform/lists.ts"
import { exportQueue, listQueue, type ListingRow, type QueueQuery } from "../listings/repository.ts"
import { createListing, editListing, moderate, removeListing, submit } from "../listings/writes.ts"
import { ventureFields, ventureOf } from "../listings/records.ts"
import { plainText } from "../../contract/text.ts"

/** The public site's view: the type's fields a record has (a count it never set is left out). */
const publicVentureOf = (row: ListingRow): PublicVenture => {
  const { _id, type, name, description, createdAt, ...rest } = ventureOf(row) as AnyVenture & Record<string, unknown>
  const details = Object.fromEntries(ventureFields[row.type as VentureType].flatMap((field) => (rest[field] === undefined ? [] : [[field, rest[field]]])))
  return { _id, type, name, description, createdAt, details }
}

const adminAnswerable = { business: encodableAs(Business), startup: encodableAs(Startup), project: encodableAs(Project) } as const
const publicAnswerable = encodableAs(PublicVenture)

/**
 * Run inside every write's transaction: the row encodes as each answer that will show it, the
 * staff's and the public site's (once approved), or the write rolls back (docs/api.md).
 */
const answerable = (row: ListingRow) =>
  Effect.all([adminAnswerable[row.type as VentureType](ventureOf(row)), publicAnswerable(publicVentureOf(row))]).pipe(Effect.as(row))

/** The input split as it is stored: name and description, the type's own fields, the active switch. */
const splitInput = (type: VentureType, payload: object) => {
  const input = payload as Readonly<Record<string, unknown>>
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : value)
  return {
    name: plainText(input.name).trim(),
    description: plainText(input.description).trim(),
    details: Object.fromEntries(ventureFields[type].filter((field) => input[field] !== undefined).map((field) => [field, text(input[field])])),
    ...(typeof input.isActive === "boolean" ? { isActive: input.isActive } : {})
  }
}

interface VentureQuery extends Omit<QueueQuery, "types" | "details" | "isActive"> {
  readonly category?: string | undefined
  readonly isActive?: "true" | "false" | undefined
  readonly stage?: string | undefined
  readonly projectStatus?: string | undefined
  readonly format?: "json" | "csv" | undefined
}

const queueOf = (type: VentureType, query: VentureQuery): QueueQuery => ({
  types: [type],
  status: query.status,
  search: query.search,
  page: query.page,
  limit: query.limit,
  isActive: query.isActive === undefined ? undefined : query.isActive === "true",
  details: Object.fromEntries(
    (
      [
        ["category", query.category],
        ["stage", query.stage],
        ["projectStatus", query.projectStatus]
      ] as ReadonlyArray<readonly [string, string | undefined]>
    ).flatMap(([field, value]) => (value === undefined || value === "" ? [] : [[field, value] as const]))
  )
})

const exportFields = (type: VentureType) => [
  "_id",
  "name",
  "description",
  ...ventureFields[type],
  "status",
  "isActive",
  "moderationNotes",
  "createdAt",
  "updatedAt",
  "version"
]

const listNames: Readonly<Record<VentureType, string>> = { business: "businesses", startup: "startups", project: "projects" }

/** `/api/admin/{types}` and the spec's `/api/listings/admin/{type}`: a page under `field`, or CSV. */
const pageOrCsv = (type: VentureType, field: string, query: VentureQuery) => {
  const filtered = queueOf(type, query)
  return Effect.flatMap(wantsCsv(query.format), (csv) =>
    csv
      ? csvResponse({
          name: listNames[type],
          fields: exportFields(type),
          record: (row: ListingRow) => ventureOf(row) as unknown as Record<string, unknown>,
          rows: exportQueue(filtered)
        })
      : Effect.map(listQueue(filtered), ({ rows, pagination, counts }) =>
          HttpServerResponse.jsonUnsafe({ success: true, data: { [field]: rows.map(ventureOf), pagination, counts } })
        )
  )
}

/** The calls of one venture screen. */
const ventureHandlers = <V extends AnyVenture>(type: V["type"], field: string) => {
  const of = (row: ListingRow) => ventureOf(row) as V
  return {
    list: ({ query }: { readonly query: VentureQuery }) => pageOrCsv(type, field, query),
    create: ({ payload }: { readonly payload: object }) =>
      Effect.map(createListing(type, splitInput(type, payload), answerable), (row) => ({ success: true as const, data: { listing: of(row) } })),
    // Fields the form left out are cleared: an edit sends the whole record.
    update: ({ params, payload }: { readonly params: { readonly id: string }; readonly payload: { readonly version: number } }) =>
      Effect.map(
        editListing([type], params.id, payload.version, () => splitInput(type, payload), { answerable }),
        (row) => ({
          success: true as const,
          data: { listing: of(row) }
        })
      ),
    /** Moderators may switch a listing's public visibility (the `t` key), as they may its status. */
    setActive: ({
      params,
      payload
    }: {
      readonly params: { readonly id: string }
      readonly payload: { readonly isActive: boolean; readonly version: number }
    }) =>
      Effect.map(
        editListing([type], params.id, payload.version, () => ({ isActive: payload.isActive }), {
          answerable,
          moderators: true,
          event: (before, row) => ({
            action: "listing.active",
            entityId: row.id,
            fromState: String(before.isActive),
            toState: String(row.isActive),
            details: { type, name: row.name, version: row.version }
          })
        }),
        (row) => ({ success: true as const, data: { listing: of(row) } })
      ),
    remove: ({ params, query }: { readonly params: { readonly id: string }; readonly query: { readonly version: number } }) =>
      removeListing([type], params.id, query.version)
  }
}

const businesses = ventureHandlers<Business>("business", "businesses")
const startups = ventureHandlers<Startup>("startup", "startups")
const projects = ventureHandlers<Project>("project", "projects")

export const BusinessHandlers = HttpApiBuilder.group(AdminApi, "businesses", (handlers) =>
  handlers
    .handle("list", businesses.list)
    .handle("create", businesses.create)
    .handle("update", businesses.update)
    .handle("setActive", businesses.setActive)
    .handle("remove", businesses.remove)
)

export const StartupHandlers = HttpApiBuilder.group(AdminApi, "startups", (handlers) =>
  handlers
    .handle("list", startups.list)
    .handle("create", startups.create)
    .handle("update", startups.update)
    .handle("setActive", startups.setActive)
    .handle("remove", startups.remove)
)

export const ProjectHandlers = HttpApiBuilder.group(AdminApi, "projects", (handlers) =>
  handlers
    .handle("list", projects.list)
    .handle("create", projects.create)
    .handle("update", projects.update)
    .handle("setActive", projects.setActive)
    .handle("remove", projects.remove)
)

export const VentureModerationHandlers = HttpApiBuilder.group(AdminApi, "ventureModeration", (handlers) =>
  handlers
    .handle("list", ({ params, query }) => pageOrCsv(params.type, "listings", query))
    .handle("setStatus", ({ params, payload }) => moderate(params.id, payload.status, payload.version, payload.notes, [params.type]))
)

const approvedActive = (type: VentureType, query: Pick<QueueQuery, "search" | "page" | "limit">) =>
  publicListPage(query, listQueue({ ...query, types: [type], status: "approved", isActive: true })).pipe(
    Effect.map(({ rows, pagination }) => ({ success: true as const, data: { listings: rows.map(publicVentureOf), pagination } }))
  )

const submitted = (type: VentureType, payload: object) =>
  Effect.map(submit({ type, ...splitInput(type, payload) }, answerable), (row) => ({ success: true as const, data: { listing: publicVentureOf(row) } }))

export const VenturesPublicHandlers = HttpApiBuilder.group(AdminApi, "venturesPublic", (handlers) =>
  handlers
    .handle("businesses", ({ query }) => approvedActive("business", query))
    .handle("startups", ({ query }) => approvedActive("startup", query))
    .handle("projects", ({ query }) => approvedActive("project", query))
    .handle("submitBusiness", ({ payload }) => submitted("business", payload))
    .handle("submitStartup", ({ payload }) => submitted("startup", payload))
    .handle("submitProject", ({ payload }) => submitted("project", payload))
)
