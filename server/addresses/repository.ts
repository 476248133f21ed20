import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { dieOnSqlError } from "../platform/database.ts"
import type { AddressHit, AddressKind, AddressSort } from "../../contract/addresses.ts"
import { EXPORT_BATCH, keysetRows, pageWindow, paginate } from "../platform/lists.ts"
import { containsPattern } from "../platform/search.ts"
import type { AddressRow } from "./kinds.ts"
import type { Scope, VersionedTable } from "../platform/record-writes.ts"
import { addressMessages } from "../../contract/addresses.ts"

export interface ListQuery {
  readonly search?: string
  readonly sort?: AddressSort
  readonly order?: "asc" | "desc"
  readonly page?: number
  readonly limit?: number
}

/** The columns an address is read with (the write path answers with them too). */
export const addressColumns = `id, kind, identifier, name, category, description, logo, rank, website, buy, role, created_at AS "createdAt", updated_at AS "updatedAt", version`

const orderings: Record<AddressSort, string> = {
  createdAt: "created_at",
  identifier: "lower(identifier)",
  name: "lower(name)",
  category: "lower(category)",
  rank: "rank"
}

const directionOf = (query: ListQuery) =>
  (query.order ?? (query.sort === undefined || query.sort === "createdAt" ? "desc" : "asc")) === "asc" ? "ASC" : "DESC"

/** One page of a directory, searched, sorted and counted by the database. */
export const listAddresses = (kind: AddressKind, query: ListQuery) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const { page, limit, offset } = pageWindow(query)
    const search = query.search?.trim() ?? ""
    const direction = directionOf(query)
    const order = sql.unsafe(`${orderings[query.sort ?? "createdAt"]} ${direction}, id ${direction}`)
    if (search === "") {
      // One round trip: the page, each row carrying the directory's kept total. The columns
      // are named as the code wants them, so the rows skip the name transform.
      const rows = yield* sql.withoutTransforms()<AddressRow & { readonly directoryTotal: number }>`
        SELECT ${sql.unsafe(addressColumns)}, (SELECT total::int FROM address_counts WHERE kind = ${kind}) AS "directoryTotal"
        FROM addresses WHERE kind = ${kind} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`
      const total = rows[0]?.directoryTotal ?? (yield* countAll(kind))
      return { rows, pagination: paginate(page, limit, total) }
    }
    const matches = sql`kind = ${kind} AND search_text LIKE ${containsPattern(search)}`
    const rows = yield* sql<AddressRow>`SELECT ${sql.unsafe(addressColumns)} FROM addresses WHERE ${matches}
      ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`
    const counted = yield* sql<{ total: number }>`SELECT count(*)::int AS total FROM addresses WHERE ${matches}`
    return { rows, pagination: paginate(page, limit, counted[0]?.total ?? 0) }
  }).pipe(dieOnSqlError)

/**
 * Every address of a directory matching the list's search, in the list's order, batch by batch:
 * each batch starts after the sort key and id of the last row of the one before.
 */
export const exportAddresses = (kind: AddressKind, query: ListQuery) => {
  // The key travels as text and is cast back, so a timestamp keeps its microseconds.
  type Keyed = AddressRow & { readonly sortKey: string }
  const search = query.search?.trim() ?? ""
  const sort = query.sort ?? "createdAt"
  const sortKey = orderings[sort]
  const keyType = sort === "createdAt" ? "timestamptz" : sort === "rank" ? "integer" : "text"
  const direction = directionOf(query)
  return keysetRows((after: Keyed | undefined) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const key = sql.unsafe(sortKey)
      const matches = search === "" ? sql`true` : sql`search_text LIKE ${containsPattern(search)}`
      const onward =
        after === undefined
          ? sql`true`
          : direction === "ASC"
            ? sql`(${key}, id) > (CAST(${after.sortKey} AS ${sql.unsafe(keyType)}), ${after.id}::uuid)`
            : sql`(${key}, id) < (CAST(${after.sortKey} AS ${sql.unsafe(keyType)}), ${after.id}::uuid)`
      return yield* sql.withoutTransforms()<Keyed>`
        SELECT ${sql.unsafe(addressColumns)}, (${key})::text AS "sortKey" FROM addresses
        WHERE kind = ${kind} AND ${matches} AND ${onward}
        ORDER BY ${sql.unsafe(`${sortKey} ${direction}, id ${direction}`)} LIMIT ${EXPORT_BATCH}`
    })
  )
}

const countAll = (kind: AddressKind) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ total: number }>`SELECT total::int AS total FROM address_counts WHERE kind = ${kind}`
    return rows[0]?.total ?? 0
  })

export const identifierTaken = (kind: AddressKind, identifier: string, exceptId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ id: string }>`
      SELECT id FROM addresses WHERE kind = ${kind} AND lower(identifier) = ${identifier.toLowerCase()} AND id <> ${exceptId}`
    return rows.length > 0
  }).pipe(dieOnSqlError)

/** Up to `limit` matches across the three directories, identifier matches first. */
export const searchAllAddresses = (term: string, limit = 20) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    if (term.trim() === "") return [] as ReadonlyArray<AddressHit>
    const pattern = containsPattern(term)
    const rows = yield* sql<Pick<AddressRow, "id" | "kind" | "identifier" | "name">>`
      SELECT id, kind, identifier, name FROM addresses
      WHERE search_text LIKE ${pattern}
      ORDER BY (lower(identifier) LIKE ${pattern}) DESC, lower(identifier)
      LIMIT ${limit}`
    return rows.map(({ id, ...hit }): AddressHit => ({ _id: id, ...hit }))
  }).pipe(dieOnSqlError)

/** Only this directory's addresses: another kind's record is missing to it (a write path scope). */
export const ofKind =
  (kind: AddressKind): Scope =>
  (sql) =>
    sql`kind = ${kind}`

/** The addresses on the one write path (server/platform/record-writes.ts); each directory is its kind's rows. */
export const addressTable: VersionedTable = {
  table: "addresses",
  columns: addressColumns,
  messages: { notFound: addressMessages.notFound, stale: addressMessages.stale },
  history: { fieldsOf: (row) => addressFields[row["kind"] as AddressKind] ?? Object.keys(row) }
}

/** The columns each directory's address has (contract/addresses.ts); its kind names the directory it goes back to. */
const commonFields = ["kind", "identifier", "name", "description", "createdAt"]
const addressFields: Readonly<Record<AddressKind, ReadonlyArray<string>>> = {
  generated: [...commonFields, "category", "logo", "rank", "website"],
  cex: [...commonFields, "category", "logo", "buy", "website"],
  "core-team": [...commonFields, "role"]
}
