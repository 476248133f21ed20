import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import { historyKinds } from "./history-rules.ts"
import { BadRequest, Conflict, Forbidden, Id, NotFound, PageNumber, PageSize, Pagination, Timestamp, Version, VersionParam } from "./common.ts"

/**
 * Every record's history (docs/api.md, "Record history"): each version with who made it, when,
 * and what it changed; any version as it was; a restore that writes an old version as a new one.
 */

/** The kinds of records that keep a history: the activity log's areas of records. */
export const HistoryKind = Schema.Literals(historyKinds)

/** A record as history names it: its id, or `site` for the one settings document. */
export const HistoryRecordId = Schema.String.check(
  Schema.isMaxLength(36, { message: "must be a record id" }),
  Schema.isPattern(/^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|site)$/u, { message: "must be a record id" })
)

/** A field's value as history keeps it: any JSON. */
export const KeptValue = Schema.Unknown

/** What one change did to one field: the values before and after, unless the field's values are never kept. */
export const FieldChange = Schema.Struct({
  /** The field's column, named as the API names fields (`seoTitle`); a document's key by its path (`author.username`). */
  field: Schema.String,
  before: KeptValue,
  after: KeptValue,
  /** A protected value: that it changed is kept, never what it was. */
  hidden: Schema.Boolean
})
export type FieldChange = typeof FieldChange.Type

/** One version of a record. */
export const HistoryEntry = Schema.Struct({
  /** The activity event that made it; empty for the first version kept when history began. */
  eventId: Schema.String,
  version: Schema.Int,
  at: Timestamp,
  actorEmail: Schema.NullOr(Schema.String),
  actorName: Schema.NullOr(Schema.String),
  /** The activity action (`blog.update`), or `<kind>.baseline` for the version history began with. */
  action: Schema.String,
  /** This version is the record's removal. */
  removed: Schema.Boolean,
  changes: Schema.Array(FieldChange)
})
export type HistoryEntry = typeof HistoryEntry.Type

const recordParams = { kind: HistoryKind, id: HistoryRecordId }

export const HistoryPage = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    entries: Schema.Array(HistoryEntry),
    pagination: Pagination,
    /** The record now: its newest version, and whether that is its removal. */
    current: Schema.Struct({ version: Schema.Int, removed: Schema.Boolean })
  })
})

export const RecordVersion = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    version: Schema.Int,
    at: Timestamp,
    removed: Schema.Boolean,
    /** The record's fields at that version, by their columns (`seoTitle`). */
    content: Schema.Record(Schema.String, KeptValue),
    /** Fields whose values history never keeps. */
    hidden: Schema.Array(Schema.String)
  })
})

export const Restored = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({ version: Version, eventId: Id })
})

/** The caller's newest change of a record: what `z` undoes. */
export const LastChange = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    change: Schema.NullOr(
      Schema.Struct({
        kind: HistoryKind,
        id: Schema.String,
        /** What the record is called (its title, name, e-mail…), for the undo to say. */
        label: Schema.String,
        version: Schema.Int,
        action: Schema.String,
        at: Timestamp
      })
    )
  })
})

/** A record that was removed and not brought back: where its history can restore it from. */
export const RemovedRecord = Schema.Struct({
  id: Schema.String,
  /** What it was called (its title, name, subject…), from its last content. */
  label: Schema.String,
  /** The removal's version, the one a restore names as seen. */
  version: Schema.Int,
  at: Timestamp,
  by: Schema.NullOr(Schema.String)
})
export type RemovedRecord = typeof RemovedRecord.Type

export const RemovedPage = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({ records: Schema.Array(RemovedRecord), pagination: Pagination })
})

export class HistoryApi extends HttpApiGroup.make("history")
  .add(
    HttpApiEndpoint.get("removed", "/api/admin/history/:kind", {
      params: { kind: HistoryKind },
      query: { page: Schema.optionalKey(PageNumber), limit: Schema.optionalKey(PageSize) },
      success: RemovedPage,
      error: [Forbidden]
    }).annotate(OpenApi.Summary, "Records of a kind that were removed and not brought back, newest removal first"),
    HttpApiEndpoint.get("last", "/api/admin/history/last", { success: LastChange }).annotate(
      OpenApi.Summary,
      "The caller's newest change of a record (what undo brings back from)"
    ),
    HttpApiEndpoint.get("list", "/api/admin/history/:kind/:id", {
      params: recordParams,
      query: { page: Schema.optionalKey(PageNumber), limit: Schema.optionalKey(PageSize) },
      success: HistoryPage,
      error: [Forbidden, NotFound]
    }).annotate(OpenApi.Summary, "A record's versions, newest first, each with who, when and the fields it changed"),
    HttpApiEndpoint.get("version", "/api/admin/history/:kind/:id/versions/:version", {
      params: { ...recordParams, version: VersionParam },
      success: RecordVersion,
      error: [Forbidden, NotFound]
    }).annotate(OpenApi.Summary, "A record as it was at one version"),
    HttpApiEndpoint.post("restore", "/api/admin/history/:kind/:id/restore", {
      params: recordParams,
      payload: Schema.Struct({ version: Version, expectedVersion: Version }),
      success: Restored,
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotate(OpenApi.Summary, "Write an old version as the record's newest, at the version the caller saw (a removed record comes back)")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Record history")
  .annotate(OpenApi.Description, 'Every record\'s versions, any version as it was, and restoring one (docs/api.md, "Record history").') {}
