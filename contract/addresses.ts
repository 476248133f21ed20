import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { addressSorts } from "./address-rules.ts"
import { Authorization } from "./auth.ts"
import {
  BadRequest,
  Conflict,
  Forbidden,
  Id,
  listQueryFields,
  LongText,
  NotFound,
  Ok,
  OptionalPublicUrl,
  RecordId,
  RequiredText,
  SearchText,
  ShortText,
  SortOrder,
  Timestamp,
  Url,
  Version,
  VersionParam
} from "./common.ts"
import { CsvExport, pageOf } from "./lists.ts"

/** The three curated directories, named as in their paths. */
export const AddressKinds = ["generated", "cex", "core-team"] as const
export const AddressKind = Schema.Literals(AddressKinds)
export type AddressKind = typeof AddressKind.Type

const stored = { _id: Id, createdAt: Timestamp, updatedAt: Timestamp, version: Version }
const optionalText = Schema.optionalKey(ShortText)
const optionalLongText = Schema.optionalKey(LongText)
const optionalUrl = Schema.optionalKey(Schema.Union([Url, Schema.Literal("")]))
/** Rank orders a directory: a whole number a person would type. */
const Rank = Schema.Int.check(Schema.isBetween({ minimum: -1_000_000, maximum: 1_000_000 }, { message: "must be between -1000000 and 1000000" }))

/** What staff type for a generated address (docs/product-spec.md §3 keeps its capitalised names). */
export const GeneratedAddressInput = Schema.Struct({
  identifier: RequiredText,
  Name: RequiredText,
  Category: optionalText,
  Description: optionalLongText,
  Logo: OptionalPublicUrl,
  Rank: Schema.optionalKey(Rank),
  Website: optionalUrl
})
export const GeneratedAddress = Schema.Struct({ ...stored, ...GeneratedAddressInput.fields, Rank })
export type GeneratedAddress = typeof GeneratedAddress.Type

export const CexAddressInput = Schema.Struct({
  identifier: RequiredText,
  name: RequiredText,
  category: optionalText,
  description: optionalLongText,
  logo: OptionalPublicUrl,
  buy: OptionalPublicUrl,
  website: optionalUrl
})
export const CexAddress = Schema.Struct({ ...stored, ...CexAddressInput.fields })
export type CexAddress = typeof CexAddress.Type

export const CoreTeamAddressInput = Schema.Struct({
  identifier: RequiredText,
  name: RequiredText,
  description: optionalLongText,
  role: optionalText
})
export const CoreTeamAddress = Schema.Struct({ ...stored, ...CoreTeamAddressInput.fields })
export type CoreTeamAddress = typeof CoreTeamAddress.Type

export type AnyAddress = GeneratedAddress | CexAddress | CoreTeamAddress

/** Columns a list can be sorted by; `name` sorts Generated's `Name` too. */
export const AddressSort = Schema.Literals(addressSorts)
export type AddressSort = typeof AddressSort.Type

export const AddressListQuery = {
  ...listQueryFields,
  sort: Schema.optionalKey(AddressSort),
  order: Schema.optionalKey(SortOrder)
}

export const addressMessages = {
  stale: "This address was changed by someone else since you read it.",
  notFound: "This address no longer exists. Reload the list.",
  duplicate: (identifier: string) => `An address with the identifier "${identifier}" already exists in this directory.`,
  readOnly: "Moderators can view addresses but not change them."
} as const

const oneOf = <A extends Schema.Top>(address: A) => Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ address }) })

const idParam = { id: RecordId }
const versionQuery = { version: VersionParam }

/** The four calls of one directory: list, create, update (with the version seen), delete (likewise). */
const directory = <Name extends string, Path extends `/api/admin/addresses/${AddressKind}`, A extends Schema.Top, F extends Schema.Struct.Fields>(
  name: Name,
  path: Path,
  address: A,
  input: Schema.Struct<F>,
  label: string
) =>
  HttpApiGroup.make(name)
    .add(
      HttpApiEndpoint.get("list", path, { query: AddressListQuery, success: [pageOf("addresses", address), CsvExport] }).annotate(
        OpenApi.Summary,
        `List ${label} (search, sort, page), or export them as CSV`
      ),
      HttpApiEndpoint.post("create", path, {
        payload: input,
        success: oneOf(address),
        error: [BadRequest, Forbidden, Conflict]
      }).annotate(OpenApi.Summary, `Add one of the ${label}`),
      HttpApiEndpoint.put("update", `${path}/:id`, {
        params: idParam,
        payload: Schema.Struct({ ...input.fields, version: Version }),
        success: oneOf(address),
        error: [BadRequest, Forbidden, Conflict, NotFound]
      }).annotate(OpenApi.Summary, `Update one of the ${label}, naming the version it was read at`),
      HttpApiEndpoint.delete("remove", `${path}/:id`, {
        params: idParam,
        query: versionQuery,
        success: Ok,
        error: [Forbidden, Conflict, NotFound]
      }).annotate(OpenApi.Summary, `Delete one of the ${label}, naming the version it was read at`)
    )
    .middleware(Authorization)

export class GeneratedAddressesApi extends directory(
  "generatedAddresses",
  "/api/admin/addresses/generated",
  GeneratedAddress,
  GeneratedAddressInput,
  "generated addresses"
)
  .annotate(OpenApi.Title, "Generated addresses")
  .annotate(OpenApi.Description, "The curated directory of generated Pi addresses (docs/product-spec.md §2).") {}

export class CexAddressesApi extends directory("cexAddresses", "/api/admin/addresses/cex", CexAddress, CexAddressInput, "CEX addresses")
  .annotate(OpenApi.Title, "CEX addresses")
  .annotate(OpenApi.Description, "The curated directory of exchange addresses.") {}

export class CoreTeamAddressesApi extends directory(
  "coreTeamAddresses",
  "/api/admin/addresses/core-team",
  CoreTeamAddress,
  CoreTeamAddressInput,
  "core-team addresses"
)
  .annotate(OpenApi.Title, "Core-team addresses")
  .annotate(OpenApi.Description, "The curated directory of core-team addresses.") {}

/** One hit of the search across all three directories. */
export const AddressHit = Schema.Struct({
  _id: Id,
  kind: AddressKind,
  identifier: Schema.String,
  name: Schema.String
})
export type AddressHit = typeof AddressHit.Type

export class AddressSearchApi extends HttpApiGroup.make("addressSearch")
  .add(
    HttpApiEndpoint.get("find", "/api/admin/addresses/search", {
      query: { q: SearchText },
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ hits: Schema.Array(AddressHit) }) })
    }).annotate(OpenApi.Summary, "Find addresses in all three directories by identifier or name")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Address search")
  .annotate(OpenApi.Description, "Finding an address across the three directories.") {}
