import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import { BadRequest, Conflict, Forbidden, Id, NotFound, Ok, RecordId, ShortText, Timestamp } from "./common.ts"
import { ipMessages, normalizeIpRange } from "./ip-rules.ts"

// The allowed addresses (docs/product-spec.md §7, docs/api.md): who may reach the admin endpoints. Super admins only.

/**
 * An IPv4 or IPv6 address or CIDR range; the server reads it with `contract/ip-rules.ts` and
 * answers 400 naming the field when it is neither.
 */
export const IpRangeText = Schema.String.check(
  Schema.isMaxLength(64, { message: ipMessages.invalid }),
  Schema.makeFilter((text: string) => normalizeIpRange(text) !== undefined || ipMessages.invalid, {
    // Property tests draw IPv4 addresses and ranges (contract/ip-rules.ts reads both families).
    arbitraryConstraint: {
      patterns: [{ source: "^(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(?:\\/(?:3[0-2]|[12]?\\d))?$", flags: "" }]
    }
  })
)

/** When the allowed-IP list is not empty, admin endpoints answer only these addresses. */
export const AllowedIp = Schema.Struct({
  _id: Id,
  ip: Schema.String,
  description: Schema.String,
  createdBy: Schema.NullOr(Schema.String),
  createdAt: Timestamp
})
export type AllowedIp = typeof AllowedIp.Type

export const AllowedIpInput = Schema.Struct({
  ip: IpRangeText,
  description: Schema.optionalKey(ShortText)
})
export type AllowedIpInput = typeof AllowedIpInput.Type

export const AllowedIpList = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    ips: Schema.Array(AllowedIp),
    /** The address this request came from, as the server sees it: what a lock-out check compares. */
    yourIp: Schema.String
  })
})

export class AllowedIpsApi extends HttpApiGroup.make("allowedIps")
  .add(
    HttpApiEndpoint.get("list", "/api/admin/ip-management", { success: AllowedIpList, error: [Forbidden] }).annotate(
      OpenApi.Summary,
      "The allowed addresses, and the caller's; super admins"
    ),
    HttpApiEndpoint.post("create", "/api/admin/ip-management", {
      payload: AllowedIpInput,
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ ip: AllowedIp }) }),
      error: [BadRequest, Forbidden, Conflict]
    }).annotate(OpenApi.Summary, "Allow an address or range (refused when it would shut out the caller)"),
    HttpApiEndpoint.delete("remove", "/api/admin/ip-management/:id", {
      params: { id: RecordId },
      success: Ok,
      error: [Forbidden, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Remove an allowed address (refused when it would shut out the caller)")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Allowed addresses")
  .annotate(OpenApi.Description, "When the list is not empty, admin endpoints answer only these addresses.") {}
