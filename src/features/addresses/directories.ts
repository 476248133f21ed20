import { directoryPaths } from "../../lib/paths.ts"
import { shortDate } from "../../lib/dates.ts"
import { addressSorts } from "../../../contract/address-rules.ts"
import type { AddressKind, AddressSort, AnyAddress } from "../../../contract/addresses.ts"
import type { Draft } from "../../../machines/address-modal.ts"
import { plainText } from "../../../contract/text.ts"

export interface FieldSpec {
  readonly name: string
  readonly label: string
  readonly type: "text" | "textarea" | "integer" | "url"
  readonly required?: boolean
}

export interface DirectorySpec {
  readonly kind: AddressKind
  readonly path: string
  readonly title: string
  /** docs/product-spec.md §2, "Address screens": the columns before Actions. */
  readonly columns: ReadonlyArray<{ readonly label: string; readonly field: string; readonly sort?: AddressSort }>
  readonly fields: ReadonlyArray<FieldSpec>
}

const identifier: FieldSpec = { name: "identifier", label: "Identifier", type: "text", required: true }

export const directories: Record<AddressKind, DirectorySpec> = {
  generated: {
    kind: "generated",
    path: directoryPaths.generated,
    title: "Generated Addresses",
    columns: [
      { label: "Identifier", field: "identifier", sort: "identifier" },
      { label: "Name", field: "Name", sort: "name" },
      { label: "Category", field: "Category", sort: "category" },
      { label: "Rank", field: "Rank", sort: "rank" },
      { label: "Created", field: "createdAt", sort: "createdAt" }
    ],
    fields: [
      identifier,
      { name: "Name", label: "Name", type: "text", required: true },
      { name: "Category", label: "Category", type: "text" },
      { name: "Rank", label: "Rank", type: "integer" },
      { name: "Website", label: "Website", type: "url" },
      { name: "Logo", label: "Logo", type: "text" },
      { name: "Description", label: "Description", type: "textarea" }
    ]
  },
  cex: {
    kind: "cex",
    path: directoryPaths.cex,
    title: "CEX Addresses",
    columns: [
      { label: "Identifier", field: "identifier", sort: "identifier" },
      { label: "Name", field: "name", sort: "name" },
      { label: "Category", field: "category", sort: "category" },
      { label: "Buy", field: "buy" },
      { label: "Created", field: "createdAt", sort: "createdAt" }
    ],
    fields: [
      identifier,
      { name: "name", label: "Name", type: "text", required: true },
      { name: "category", label: "Category", type: "text" },
      { name: "buy", label: "Buy", type: "text" },
      { name: "website", label: "Website", type: "url" },
      { name: "logo", label: "Logo", type: "text" },
      { name: "description", label: "Description", type: "textarea" }
    ]
  },
  "core-team": {
    kind: "core-team",
    path: directoryPaths["core-team"],
    title: "Core Team Addresses",
    columns: [
      { label: "Identifier", field: "identifier", sort: "identifier" },
      { label: "Name", field: "name", sort: "name" },
      { label: "Role", field: "role" },
      { label: "Created", field: "createdAt", sort: "createdAt" }
    ],
    fields: [
      identifier,
      { name: "name", label: "Name", type: "text", required: true },
      { name: "role", label: "Role", type: "text" },
      { name: "description", label: "Description", type: "textarea" }
    ]
  }
}

export const requiredFields = (spec: DirectorySpec) => spec.fields.filter((field) => field.required === true).map((f) => f.name)

const valueOf = (address: AnyAddress, field: string): unknown => (address as unknown as Record<string, unknown>)[field]

/** An address as the form's text values. */
export const toDraft = (spec: DirectorySpec, address: AnyAddress): Draft =>
  Object.fromEntries(spec.fields.map((field) => [field.name, plainText(valueOf(address, field.name))]))

/** The form's text values as the directory's input: trimmed, Rank an integer defaulting to 0. */
export const toInput = (spec: DirectorySpec, draft: Draft): Record<string, string | number> =>
  Object.fromEntries(
    spec.fields.map((field) => {
      const text = (draft[field.name] ?? "").trim()
      // An empty rank is 0; a number is sent as one; anything else is sent as typed, so the contract
      // says "must be a whole number" for 12.5 and "12abc" alike, rather than the form reading 12.
      if (field.type === "integer") return [field.name, text === "" ? 0 : /^-?\d+(?:\.\d+)?$/u.test(text) ? Number(text) : text]
      return [field.name, text]
    })
  )

export const cellText = (address: AnyAddress, field: string): string => {
  const value = valueOf(address, field)
  if (field === "createdAt" && typeof value === "string") return shortDate(value)
  return plainText(value)
}

export const directoryOfPath = (path: string): DirectorySpec | undefined => Object.values(directories).find((spec) => spec.path === path)

/** What a directory's URL may hold: its sortable columns; newest first by default. */
export const addressQuerySpec = {
  sorts: addressSorts,
  defaultSort: { sort: "createdAt", order: "desc" }
} as const
