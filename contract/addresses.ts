import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { addressSorts } from "./address-rules.ts"
import { Authorization } from "./auth.ts"
import { BadRequest, Conflict, Forbidden, Id, listQueryFields, NotFound, Ok, RequiredText, SearchText, SortOrder, Timestamp, Url, Version } from "./common.ts"
import { CsvExport, pageOf } from "./lists.ts"

/** The three curated directories, named as in their paths. */
export const AddressKinds = ["generated", "cex", "core-team"] as const
export const AddressKind = Schema.Literals(AddressKinds)
export type AddressKind = typeof AddressKind.Type

const stored = { _id: Id, createdAt: Timestamp, updatedAt: Timestamp, version: Version }
const optionalText = Schema.optionalKey(Schema.String)
const optionalUrl = Schema.optionalKey(Schema.Union([Url, Schema.Literal("")]))

/** What staff type for a generated address (docs/product-spec.md §3 keeps its capitalised names). */
export const GeneratedAddressInput = Schema.Struct({
  identifier: RequiredText,
  Name: RequiredText,
  Category: optionalText,
  Description: optionalText,
  Logo: optionalText,
  Rank: Schema.optionalKey(Schema.Int),
  Website: optionalUrl
})
export const GeneratedAddress = Schema.Struct({ ...stored, ...GeneratedAddressInput.fields, Rank: Schema.Int })
export type GeneratedAddress = typeof GeneratedAddress.Type

export const CexAddressInput = Schema.Struct({
  identifier: RequiredText,
  name: RequiredText,
  category: optionalText,
  description: optionalText,
  logo: optionalText,
  buy: optionalText,
  website: optionalUrl
})
export const CexAddress = Schema.Struct({ ...stored, ...CexAddressInput.fields })
export type CexAddress = typeof CexAddress.Type

export const CoreTeamAddressInput = Schema.Struct({
  identifier: RequiredText,
  name: RequiredText,
  description: optionalText,
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
  stale: "This address was changed by someone else. Reload and try again.",
  notFound: "This address no longer exists. Reload the list.",
  duplicate: (identifier: string) => `An address with the identifier "${identifier}" already exists in this directory.`,
  readOnly: "Moderators can view addresses but not change them."
} as const


const oneOf = <A extends Schema.Top>(address: A) =>
  Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ address }) })

const idParam = { id: Id }
const versionQuery = { version: Schema.NumberFromString.check(Schema.isInt({ message: "must be a whole number" })) }

/** The four calls of one directory: list, create, update (with the version seen), delete (likewise). */
const directory = <Name extends string, Path extends `/api/admin/addresses/${AddressKind}`, A extends Schema.Top, F extends Schema.Struct.Fields>(
  name: Name,
  path: Path,
  address: A,
  input: Schema.Struct<F>
) =>
  HttpApiGroup.make(name)
    .add(
      HttpApiEndpoint.get("list", path, { query: AddressListQuery, success: [pageOf("addresses", address), CsvExport] }),
      HttpApiEndpoint.post("create", path, {
        payload: input,
        success: oneOf(address),
        error: [BadRequest, Forbidden, Conflict]
      }),
      HttpApiEndpoint.put("update", `${path}/:id`, {
        params: idParam,
        payload: Schema.Struct({ ...input.fields, version: Version }),
        success: oneOf(address),
        error: [BadRequest, Forbidden, Conflict, NotFound]
      }),
      HttpApiEndpoint.delete("remove", `${path}/:id`, {
        params: idParam,
        query: versionQuery,
        success: Ok,
        error: [Forbidden, Conflict, NotFound]
      })
    )
    .middleware(Authorization)

export class GeneratedAddressesApi extends directory(
  "generatedAddresses",
  "/api/admin/addresses/generated",
  GeneratedAddress,
  GeneratedAddressInput
).annotate(OpenApi.Title, "Generated addresses") {}

export class CexAddressesApi extends directory("cexAddresses", "/api/admin/addresses/cex", CexAddress, CexAddressInput)
  .annotate(OpenApi.Title, "CEX addresses")
{}

export class CoreTeamAddressesApi extends directory(
  "coreTeamAddresses",
  "/api/admin/addresses/core-team",
  CoreTeamAddress,
  CoreTeamAddressInput
).annotate(OpenApi.Title, "Core-team addresses") {}

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
    })
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Address search")
{}
