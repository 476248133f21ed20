import { type Schema, SchemaIssue } from "effect"
import type { FieldIssue } from "../../contract/common.ts"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const segment = (part: PropertyKey | { readonly key: PropertyKey }): string =>
  String(typeof part === "object" ? part.key : part)

/** Flattens a schema failure into one `{ path, message }` per offending value. */
export const fieldIssues = (error: Schema.SchemaError): ReadonlyArray<FieldIssue> =>
  formatter(error.issue).issues.map((issue) => ({
    path: (issue.path ?? []).map(segment).join("."),
    message: issue.message
  }))

/** One readable sentence naming each field: "email: must be a valid e-mail address". */
export const describeIssues = (issues: ReadonlyArray<FieldIssue>): string =>
  issues.map((issue) => (issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`)).join("; ")
