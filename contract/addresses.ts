import { Schema } from "effect"
import { Id, RequiredText, Timestamp, Url, Version } from "./common.ts"

/** The three curated directories, named as in their paths. */
export const AddressKinds = ["generated", "cex", "core-team"] as const
export const AddressKind = Schema.Literals(AddressKinds)
export type AddressKind = typeof AddressKind.Type

const stored = { _id: Id, createdAt: Timestamp, updatedAt: Timestamp, version: Version }
const optionalText = Schema.optionalKey(Schema.String)

export const GeneratedAddress = Schema.Struct({
  ...stored,
  identifier: RequiredText,
  Name: RequiredText,
  Category: optionalText,
  Description: optionalText,
  Logo: optionalText,
  Rank: Schema.Int,
  Website: Schema.optionalKey(Schema.Union([Url, Schema.Literal("")]))
})
export type GeneratedAddress = typeof GeneratedAddress.Type

export const CexAddress = Schema.Struct({
  ...stored,
  identifier: RequiredText,
  name: RequiredText,
  category: optionalText,
  description: optionalText,
  logo: optionalText,
  buy: optionalText,
  website: Schema.optionalKey(Schema.Union([Url, Schema.Literal("")]))
})
export type CexAddress = typeof CexAddress.Type

export const CoreTeamAddress = Schema.Struct({
  ...stored,
  identifier: RequiredText,
  name: RequiredText,
  description: optionalText,
  role: optionalText
})
export type CoreTeamAddress = typeof CoreTeamAddress.Type
