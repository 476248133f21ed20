import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { Pagination } from "./common.ts"

export const CSV_CONTENT_TYPE = "text/csv"

/** The CSV answer of a list: every row matching its filters, streamed (RFC 4180, docs/api.md). */
export const CsvExport = Schema.String.pipe(HttpApiSchema.asText({ contentType: CSV_CONTENT_TYPE }))

/** A list's CSV export as the console receives it: its text and the file name the server gave it. */
export interface CsvFile {
  readonly text: string
  readonly name: string
}

/** A list's JSON answer: `{ success, data: { [field]: rows, pagination } }`. */
export const pageOf = <Field extends string, Row extends Schema.Top>(field: Field, row: Row) =>
  Schema.Struct({
    success: Schema.Literal(true),
    data: Schema.Struct({ [field]: Schema.Array(row), pagination: Pagination } as { [K in Field]: Schema.$Array<Row> } & { pagination: typeof Pagination })
  })
