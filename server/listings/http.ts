import { Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { type ListingType, listingTypes, statusAfter, type ListingStatus } from "../../contract/listing-rules.ts"
import type { ListingInput } from "../../contract/listings.ts"
import { csvResponse, publicListPage, wantsCsv } from "../platform/lists.ts"
import { exportQueue, listApproved, listingExportFields, listingOf, listQueue, publicListingOf, type QueueQuery } from "./repository.ts"
import { bulk, createListing, editListing, moderate, removeListing, submit, undo } from "./writes.ts"

/** A community's or influencer's edit: its name and description. */
const update = (types: ReadonlyArray<ListingType>, id: string, payload: ListingInput & { readonly version: number }) =>
  Effect.map(
    editListing(types, id, payload.version, () => ({ name: payload.name.trim(), description: payload.description.trim() })),
    (row) => ({ success: true as const, data: { listing: listingOf(row) } })
  )

/** A queue's JSON page, or, when the call asks for CSV, every listing its filters match. */
export const pageOrCsv = <A>(
  name: string,
  query: QueueQuery & { readonly format?: "json" | "csv" | undefined },
  page: (query: QueueQuery) => Effect.Effect<A, never, SqlClient>
) =>
  Effect.flatMap(wantsCsv(query.format), (csv) =>
    csv
      ? csvResponse({ name, fields: listingExportFields, record: listingOf, rows: exportQueue(query) })
      : // Written as JSON directly, as the directories' pages are: the rows are typed by `listingOf`.
        Effect.map(page(query), (answer) => HttpServerResponse.jsonUnsafe(answer))
  )

/** The spec's five calls of the community or the influencer screen. */
const communityHandlers = (type: "community" | "influencer") => ({
  combined: (query: Omit<QueueQuery, "types">) =>
    Effect.map(listQueue({ ...query, types: [type] }), ({ rows, pagination, counts }) => ({ listings: rows.map(listingOf), pagination, counts })),
  create: ({ payload }: { readonly payload: ListingInput }) =>
    Effect.map(createListing(type, { name: payload.name.trim(), description: payload.description.trim() }), (row) => ({
      success: true as const,
      data: { listing: listingOf(row) }
    })),
  update: ({ params, payload }: { readonly params: { readonly id: string }; readonly payload: ListingInput & { readonly version: number } }) =>
    update([type], params.id, payload),
  remove: ({ params, query }: { readonly params: { readonly id: string }; readonly query: { readonly version: number } }) =>
    removeListing([type], params.id, query.version),
  setStatus: ({
    params,
    payload
  }: {
    readonly params: { readonly id: string }
    readonly payload: { readonly status: ListingStatus; readonly version: number; readonly notes?: string }
  }) => moderate(params.id, payload.status, payload.version, payload.notes, [type])
})

/** The community and the influencer screens' groups: the same five calls on one listing type each. */
const communityGroup = (group: "communities" | "influencers", type: "community" | "influencer") => {
  const calls = communityHandlers(type)
  return HttpApiBuilder.group(AdminApi, group, (handlers) =>
    handlers
      .handle("combined", ({ query }) =>
        pageOrCsv(group, { ...query, types: [type] }, () =>
          Effect.map(calls.combined(query), ({ listings, pagination, counts }) => ({
            success: true as const,
            data: { [group]: listings, pagination, counts }
          }))
        )
      )
      .handle("create", calls.create)
      .handle("update", calls.update)
      .handle("remove", calls.remove)
      .handle("setStatus", calls.setStatus)
  )
}

export const CommunityHandlers = communityGroup("communities", "community")
export const InfluencerHandlers = communityGroup("influencers", "influencer")

const allTypes: ReadonlyArray<ListingType> = listingTypes

export const ListingsAdminHandlers = HttpApiBuilder.group(AdminApi, "listingsAdmin", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      pageOrCsv("listings", { ...query, types: query.type === undefined ? undefined : [query.type] }, (filtered) =>
        Effect.map(listQueue(filtered), ({ rows, pagination, counts }) => ({
          success: true as const,
          data: { listings: rows.map(listingOf), pagination, counts }
        }))
      )
    )
    .handle("moderate", ({ params, payload }) => moderate(params.id, statusAfter[payload.action], payload.version, payload.notes))
    .handle("remove", ({ params, query }) => removeListing(allTypes, params.id, query.version))
    .handle("undo", ({ params, payload }) => undo(params.id, payload.eventId))
    .handle("bulk", ({ payload }) => bulk(payload.ids, payload.action, payload.notes))
)

export const ListingsPublicHandlers = HttpApiBuilder.group(AdminApi, "listingsPublic", (handlers) =>
  handlers
    .handle("list", ({ params, query }) =>
      publicListPage(query, listApproved(params.type, query)).pipe(
        Effect.map(({ rows, pagination }) => ({ success: true as const, data: { listings: rows.map(publicListingOf), pagination } }))
      )
    )
    .handle("submit", ({ params, payload }) =>
      Effect.map(submit({ type: params.type, name: payload.name.trim(), description: payload.description.trim() }), (row) => ({
        success: true as const,
        data: { listing: publicListingOf(row) }
      }))
    )
)

export const ListingsPublicAdminHandlers = HttpApiBuilder.group(AdminApi, "listingsPublicAdmin", (handlers) =>
  handlers
    .handle("update", ({ params, payload }) => update([params.type], params.id, payload))
    .handle("remove", ({ params, query }) => removeListing([params.type], params.id, query.version))
)
