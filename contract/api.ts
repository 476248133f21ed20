import { HttpApi, HttpApiMiddleware, OpenApi } from "effect/http-api"
import packageJson from "../package.json" with { type: "json" }
import { AddressSearchApi, CexAddressesApi, CoreTeamAddressesApi, GeneratedAddressesApi } from "./addresses.ts"
import { AuthApi } from "./auth.ts"
import { BlogAdminApi, BlogPublicApi } from "./blog-api.ts"
import { BadRequest, ServerFailure } from "./common.ts"
import { CommunitiesApi, InfluencersApi, ListingsAdminApi, ListingsPublicAdminApi, ListingsPublicApi } from "./listings.ts"
import { SystemApi } from "./system.ts"
import { EventsApi } from "./events.ts"
import { ScamReportsApi } from "./scam-reports.ts"
import { StreamApi } from "./stream.ts"
import { ContactsApi } from "./contacts.ts"
import { AdvertisingApi } from "./advertising.ts"
import { ActivityLogApi, AnalyticsApi } from "./activity.ts"
import { AdminUsersApi } from "./admin-users.ts"
import { AllowedIpsApi } from "./allowed-ips.ts"
import { ProtectedDataApi } from "./protected-data.ts"
import { SessionsApi } from "./sessions.ts"
import { PasskeySignInApi, PasskeysApi } from "./passkeys.ts"
import { ConfirmApi } from "./confirm.ts"
import { SiteSettingsApi } from "./site-settings.ts"
import { BusinessesApi, ProjectsApi, StartupsApi, VentureModerationApi, VenturesPublicApi } from "./ventures.ts"
import { UploadsApi } from "./uploads.ts"
import { HistoryApi } from "./history.ts"
import { TriageApi } from "./triage.ts"
import { Idempotency, idempotencyKeyParameter } from "./idempotency.ts"

/**
 * Turns a request that fails its schema into the spec's `{ success: false, error }` answer
 * with status 400 and a message naming the field. Every endpoint can also answer 500, which is
 * always a defect of ours (docs/api.md, "Answers and errors"); it is declared here so each documents it.
 */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("admin/RequestValidation", {
  error: [BadRequest, ServerFailure]
}) {}

/**
 * An array whose items a check describes (`boundedArray` in common.ts, whose length is checked
 * before its items) has them beside its type, as linters and client generators expect.
 */
const withItemsBeside = (object: Record<string, unknown>): Record<string, unknown> => {
  if (object.type !== "array" || object.items !== undefined || !Array.isArray(object.allOf)) return object
  const parts = object.allOf as ReadonlyArray<Record<string, unknown>>
  const described = parts.find((part) => Object.keys(part).length === 1 && part.items !== undefined)
  if (described === undefined) return object
  const { allOf: _allOf, ...rest } = object
  const others = parts.filter((part) => part !== described)
  return { ...rest, items: described.items, ...(others.length > 0 ? { allOf: others } : {}) }
}

/**
 * The document as linters ask: integers carry the format their bounds fit (int32 or int64), and
 * arrays name their items beside their type.
 */
const lintable = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(lintable)
  if (typeof node !== "object" || node === null) return node
  const entries = Object.entries(node).map(([key, value]) => [key, lintable(value)] as const)
  const object: Record<string, unknown> = Object.fromEntries(entries)
  if (object.type === "integer" && object.format === undefined) {
    const fits32 =
      typeof object.minimum === "number" && typeof object.maximum === "number" && object.minimum >= -2_147_483_648 && object.maximum <= 2_147_483_647
    object.format = fits32 ? "int32" : "int64"
  }
  return withItemsBeside(object)
}

const writes = new Set(["post", "put", "patch", "delete"])

/** Every write operation names the `Idempotency-Key` header it takes (contract/idempotency.ts). */
const withIdempotencyKeys = (spec: Record<string, unknown>): Record<string, unknown> => {
  const paths = (spec.paths ?? {}) as Record<string, Record<string, { parameters?: ReadonlyArray<unknown> }>>
  for (const operations of Object.values(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (writes.has(method)) operation.parameters = [...(operation.parameters ?? []), idempotencyKeyParameter]
    }
  }
  return spec
}

export class AdminApi extends HttpApi.make("admin-console")
  .add(SystemApi)
  .add(AuthApi)
  .add(GeneratedAddressesApi)
  .add(CexAddressesApi)
  .add(CoreTeamAddressesApi)
  .add(AddressSearchApi)
  .add(BlogPublicApi)
  .add(BlogAdminApi)
  .add(UploadsApi)
  .add(CommunitiesApi)
  .add(InfluencersApi)
  .add(ListingsAdminApi)
  .add(ListingsPublicApi)
  .add(ListingsPublicAdminApi)
  .add(BusinessesApi)
  .add(StartupsApi)
  .add(ProjectsApi)
  .add(VentureModerationApi)
  .add(VenturesPublicApi)
  .add(EventsApi)
  .add(ScamReportsApi)
  .add(StreamApi)
  .add(ContactsApi)
  .add(AdvertisingApi)
  .add(AnalyticsApi)
  .add(ActivityLogApi)
  .add(AdminUsersApi)
  .add(AllowedIpsApi)
  .add(SessionsApi)
  .add(PasskeysApi)
  .add(PasskeySignInApi)
  .add(ConfirmApi)
  .add(ProtectedDataApi)
  .add(SiteSettingsApi)
  .add(HistoryApi)
  .add(TriageApi)
  .middleware(RequestValidation)
  .middleware(Idempotency)
  .annotate(OpenApi.Title, "Admin console API")
  .annotate(OpenApi.Version, packageJson.version)
  .annotate(OpenApi.Description, "The back office of a Pi Network directory, news and community site. Conventions: docs/api.md.")
  .annotate(OpenApi.License, { name: "Proprietary" })
  .annotate(OpenApi.Servers, [
    {
      url: "/",
      description: "The server this document came from: production, or local under npm start",
      "x-internal": false
    } as { url: string; description: string }
  ])
  .annotate(OpenApi.Transform, (spec) => withIdempotencyKeys(lintable(spec) as Record<string, unknown>))
  .annotate(HttpApi.ParseOptions, { errors: "all", onExcessProperty: "ignore" }) {}
