import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import { Conflict, Forbidden, Id, NotFound, Ok, RecordId, RequiredText, ShortText, Text, Timestamp, Version, VersionParam } from "./common.ts"
import { KeptAnswer } from "./idempotency.ts"

// Protected data (docs/product-spec.md §7, docs/api.md): typed key/value records only super admins read.

/** A kind of protected record: lower-case words joined by hyphens (`api-key`, `wallet`). */
export const ProtectedDataType = Schema.String.check(
  Schema.isMaxLength(40, { message: "must be at most 40 characters" }),
  Schema.isPattern(/^[a-z0-9]+(-[a-z0-9]+)*$/u, { message: "must be lower-case words joined by hyphens, such as api-key" })
)

export const ProtectedRecord = Schema.Struct({
  _id: Id,
  type: Schema.String,
  key: Schema.String,
  value: Schema.String,
  description: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type ProtectedRecord = typeof ProtectedRecord.Type

export const ProtectedRecordInput = Schema.Struct({
  type: ProtectedDataType,
  key: RequiredText,
  value: Text(10_000),
  description: Schema.optionalKey(ShortText)
})
export const ProtectedRecordUpdate = Schema.Struct({ ...ProtectedRecordInput.fields, version: Version })

export const protectedMessages = {
  exists: "A record of this type with this key exists already.",
  notFound: "This record no longer exists. Reload the list.",
  stale: "This record was changed by someone else since you read it."
} as const

const oneProtected = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ record: ProtectedRecord }) })

export class ProtectedDataApi extends HttpApiGroup.make("protectedData")
  .add(
    HttpApiEndpoint.get("list", "/api/admin/protected-data", {
      query: { type: Schema.optionalKey(ProtectedDataType) },
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ records: Schema.Array(ProtectedRecord) }) }),
      error: [Forbidden]
    }).annotate(OpenApi.Summary, "Protected records, of one type or all; super admins"),
    HttpApiEndpoint.post("create", "/api/admin/protected-data", {
      payload: ProtectedRecordInput,
      success: oneProtected,
      // NotFound: a repeat of a create whose record was deleted since.
      error: [Forbidden, Conflict, NotFound]
    })
      .annotate(KeptAnswer, "outcome")
      .annotate(OpenApi.Summary, "Add a protected record (its value is never logged, nor kept for a repeat: a repeat reads the record again)"),
    HttpApiEndpoint.put("update", "/api/admin/protected-data/:id", {
      params: { id: RecordId },
      payload: ProtectedRecordUpdate,
      success: oneProtected,
      error: [Forbidden, Conflict, NotFound]
    })
      .annotate(KeptAnswer, "outcome")
      .annotate(OpenApi.Summary, "Replace a protected record at the version read (a repeat reads the record again)"),
    HttpApiEndpoint.delete("remove", "/api/admin/protected-data/:id", {
      params: { id: RecordId },
      query: { version: VersionParam },
      success: Ok,
      error: [Forbidden, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Delete a protected record at the version read")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Protected data")
  .annotate(OpenApi.Description, "Typed key/value records only super admins read; their values never reach a log.") {}
