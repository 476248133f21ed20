import { Effect, Option, Stream } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { dieOnSqlError } from "./database.ts"
import { containsPattern } from "./search.ts"
import { BadRequest, DEFAULT_PAGE_SIZE, type Pagination } from "../../contract/common.ts"
import { PUBLIC_LIST_DEPTH, publicReadMessages, Reader } from "../../contract/public-reads.ts"
import { plainText } from "../../contract/text.ts"
import { CSV_CONTENT_TYPE } from "../../contract/lists.ts"

/** The rows of page `page` of `limit`: what a list query needs for LIMIT and OFFSET. */
export const pageWindow = (query: { readonly page?: number | undefined; readonly limit?: number | undefined }) => {
  const page = query.page ?? 1
  const limit = query.limit ?? DEFAULT_PAGE_SIZE
  return { page, limit, offset: (page - 1) * limit }
}

/**
 * A page the public may ask for (docs/api.md, "Public reads"): within a list's newest
 * `PUBLIC_LIST_DEPTH` rows, so no anonymous read makes the database skip further (an OFFSET
 * costs what it skips); deeper is a 400 naming `page`.
 */
const withinPublicDepth = (query: { readonly page?: number | undefined; readonly limit?: number | undefined }) => {
  const { page, limit } = pageWindow(query)
  if (page * limit <= PUBLIC_LIST_DEPTH) return Effect.void
  const message = publicReadMessages.tooDeep(limit)
  return Effect.fail(new BadRequest({ error: `page: ${message}`, issues: [{ path: "page", message }] }))
}

/** The public's `pagination`: `total` counts every row, `pages` only those it may open. */
const publicPagination = (pagination: Pagination): Pagination => ({
  ...pagination,
  pages: Math.max(1, Math.min(pagination.pages, Math.floor(PUBLIC_LIST_DEPTH / pagination.limit)))
})

/**
 * A page of a list open to the public (behind `PublicRead`): the public's within the depth, with
 * `pages` counting what it may open; a staff reader's anywhere.
 */
export const publicListPage = <A extends { readonly pagination: Pagination }, E, R>(
  query: { readonly page?: number | undefined; readonly limit?: number | undefined },
  read: Effect.Effect<A, E, R>
) =>
  Effect.gen(function* () {
    const { session } = yield* Reader
    if (session !== undefined) return yield* read
    yield* withinPublicDepth(query)
    const answer = yield* read
    return { ...answer, pagination: publicPagination(answer.pagination) }
  })

/**
 * A list's WHERE conditions: `column = value` for each filter given ("all", as the spec's screens
 * send it, or no value is none), and a search over the table's `search_text` when there is one.
 */
export const listFilters = (
  sql: SqlClient,
  filters: ReadonlyArray<readonly [column: string, value: string | undefined]>,
  search: string | undefined = undefined
) => [
  sql`true`,
  ...filters.filter(([, value]) => value !== undefined && value !== "all").map(([column, value]) => sql`${sql(column)} = ${value!}`),
  ...((search?.trim() ?? "") === "" ? [] : [sql`search_text LIKE ${containsPattern(search!)}`])
]

/** Every list's `pagination`: an empty list still has one page, so "Page 1 of 1" reads right. */
export const paginate = (page: number, limit: number, total: number): Pagination => ({
  page,
  limit,
  total,
  pages: Math.max(1, Math.ceil(total / limit))
})

/**
 * Whether a list call asks for CSV: `?format=csv`, or an `Accept` header that names
 * `text/csv` (and no `?format=json` overriding it).
 */
export const wantsCsv = (format: "json" | "csv" | undefined) =>
  Effect.map(
    HttpServerRequest.HttpServerRequest,
    (request) => format === "csv" || (format === undefined && (request.headers.accept ?? "").toLowerCase().includes(CSV_CONTENT_TYPE))
  )

/**
 * Cells that a spreadsheet would run as a formula start with one of these (their full-width
 * forms too), after any spaces it strips first: Unicode spaces, the no-break space, a byte-order
 * mark and the zero-width characters.
 */
const formulaStart = /^[\s\u200b-\u200d\u2060]*[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/u

/** Values we write ourselves and that no spreadsheet runs: numbers, booleans and times. */
const isOurs = (value: unknown): boolean => typeof value === "number" || typeof value === "boolean" || value instanceof Date

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break, quotes doubled.
 * Any other cell (a text, a list joined with "; ") that a spreadsheet would read as a formula
 * gets a leading `'`, so it shows as text, whatever its source.
 */
export const csvCell = (value: unknown): string => {
  if (value === null || value === undefined) return ""
  const raw =
    value instanceof Date ? value.toISOString() : Array.isArray(value) ? value.join("; ") : typeof value === "object" ? JSON.stringify(value) : plainText(value)
  const text = !isOurs(value) && formulaStart.test(raw) ? `'${raw}` : raw
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export const csvLine = (cells: ReadonlyArray<unknown>): string => `${cells.map(csvCell).join(",")}\r\n`

/** How many rows one export query reads: memory stays flat however many rows match. */
export const EXPORT_BATCH = 1000

/**
 * Every row matching a list's filters, read batch after batch by keyset (`after` is the last
 * row of the previous batch): each batch is its own short query, so an export of a million rows
 * holds neither the memory nor the one PGlite connection for longer than a batch. A repository's
 * export reads through it, so a database failure ends the export as a defect, as any read.
 */
export const keysetRows = <Row, E>(
  batch: (after: Row | undefined) => Effect.Effect<ReadonlyArray<Row>, E, SqlClient>
): Stream.Stream<ReadonlyArray<Row>, Exclude<E, SqlError>, SqlClient> =>
  Stream.paginate(undefined as Row | undefined, (after) =>
    Effect.map(dieOnSqlError(batch(after)), (rows) => {
      const last = rows.at(-1)
      const next = rows.length < EXPORT_BATCH || last === undefined ? Option.none<Row | undefined>() : Option.some(last)
      return [rows.length === 0 ? [] : [rows], next] as const
    })
  )

/** A file name safe in a header: the list's name and today's date. */
const fileName = (name: string) => `${name.replace(/[^a-z0-9-]+/gi, "-")}-${new Date().toISOString().slice(0, 10)}.csv`

/**
 * The CSV answer of a list: a header line, then the rows as the database hands them over,
 * streamed to the client as they come (docs/api.md, "CSV export").
 */
export const csvResponse = <Row, Record, E>(options: {
  readonly name: string
  /** The columns: fields of the record, named as the API names them. */
  readonly fields: ReadonlyArray<keyof Record & string>
  /** A row as the API shows it. */
  readonly record: (row: Row) => Record
  readonly rows: Stream.Stream<ReadonlyArray<Row>, E, SqlClient>
}) =>
  Effect.map(Effect.context<SqlClient>(), (context) => {
    const header = csvLine(options.fields)
    const line = (row: Row) => {
      const record = options.record(row)
      return csvLine(options.fields.map((field) => record[field]))
    }
    const body = options.rows.pipe(
      Stream.map((rows) => rows.map(line).join("")),
      (lines) => Stream.concat(Stream.make(header), lines),
      Stream.encodeText,
      Stream.provideContext(context)
    )
    return HttpServerResponse.stream(body, {
      contentType: `${CSV_CONTENT_TYPE}; charset=utf-8`,
      headers: { "content-disposition": `attachment; filename="${fileName(options.name)}"` }
    })
  })
