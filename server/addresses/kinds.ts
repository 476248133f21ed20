import { type AddressKind, CexAddress, CoreTeamAddress, GeneratedAddress } from "../../contract/addresses.ts"

/** One row of the `addresses` table, names as the driver gives them (camelCase). */
export interface AddressRow {
  readonly id: string
  readonly kind: AddressKind
  readonly identifier: string
  readonly name: string
  readonly category: string
  readonly description: string
  readonly logo: string
  readonly rank: number
  readonly website: string
  readonly buy: string
  readonly role: string
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly version: number
}

/** The columns a directory writes; the rest keep their defaults. */
export type AddressColumns = Pick<AddressRow, "identifier" | "name"> &
  Partial<Pick<AddressRow, "category" | "description" | "logo" | "rank" | "website" | "buy" | "role">>

const stored = (row: AddressRow) => ({
  _id: row.id,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  version: row.version
})

/** How each directory's fields map onto the shared table, and the columns of its CSV export. */
export const kinds = {
  generated: {
    schema: GeneratedAddress,
    exportFields: ["_id", "identifier", "Name", "Category", "Rank", "Website", "Logo", "Description", "createdAt", "updatedAt"],
    fromRow: (row: AddressRow): GeneratedAddress => ({
      ...stored(row),
      identifier: row.identifier,
      Name: row.name,
      Category: row.category,
      Description: row.description,
      Logo: row.logo,
      Rank: row.rank,
      Website: row.website
    }),
    toColumns: (input: {
      readonly identifier: string
      readonly Name: string
      readonly Category?: string
      readonly Description?: string
      readonly Logo?: string
      readonly Rank?: number
      readonly Website?: string
    }): AddressColumns => ({
      identifier: input.identifier.trim(),
      name: input.Name.trim(),
      category: input.Category?.trim() ?? "",
      description: input.Description ?? "",
      logo: input.Logo?.trim() ?? "",
      rank: input.Rank ?? 0,
      website: input.Website?.trim() ?? ""
    })
  },
  cex: {
    schema: CexAddress,
    exportFields: ["_id", "identifier", "name", "category", "buy", "website", "logo", "description", "createdAt", "updatedAt"],
    fromRow: (row: AddressRow): CexAddress => ({
      ...stored(row),
      identifier: row.identifier,
      name: row.name,
      category: row.category,
      description: row.description,
      logo: row.logo,
      buy: row.buy,
      website: row.website
    }),
    toColumns: (input: {
      readonly identifier: string
      readonly name: string
      readonly category?: string
      readonly description?: string
      readonly logo?: string
      readonly buy?: string
      readonly website?: string
    }): AddressColumns => ({
      identifier: input.identifier.trim(),
      name: input.name.trim(),
      category: input.category?.trim() ?? "",
      description: input.description ?? "",
      logo: input.logo?.trim() ?? "",
      buy: input.buy?.trim() ?? "",
      website: input.website?.trim() ?? ""
    })
  },
  "core-team": {
    schema: CoreTeamAddress,
    exportFields: ["_id", "identifier", "name", "role", "description", "createdAt", "updatedAt"],
    fromRow: (row: AddressRow): CoreTeamAddress => ({
      ...stored(row),
      identifier: row.identifier,
      name: row.name,
      description: row.description,
      role: row.role
    }),
    toColumns: (input: { readonly identifier: string; readonly name: string; readonly description?: string; readonly role?: string }): AddressColumns => ({
      identifier: input.identifier.trim(),
      name: input.name.trim(),
      description: input.description ?? "",
      role: input.role?.trim() ?? ""
    })
  }
} as const
