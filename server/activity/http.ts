import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession } from "../../contract/auth.ts"
import { csvResponse, wantsCsv } from "../platform/lists.ts"
import { analyticsOf } from "./analytics.ts"
import { type LogRow, type Reader, entryOf, listEvents, exportEvents } from "./repository.ts"

/**
 * The activity log as a list (docs/api.md, "Activity log"), each reader's within their role's
 * rights, and the dashboard's figures, read from the counts the database keeps as records change
 * ("Analytics").
 */
const exportRecord = (reader: Reader) => (row: LogRow) => {
  const entry = entryOf(row, reader)
  return { ...entry, record: entry.record.label, recordKind: entry.record.kind }
}
const exportFields = [
  "_id",
  "at",
  "actorId",
  "actorEmail",
  "actorName",
  "action",
  "area",
  "entityId",
  "record",
  "recordKind",
  "fromState",
  "toState",
  "ip"
] as const satisfies ReadonlyArray<keyof ReturnType<ReturnType<typeof exportRecord>>>

// ---------------------------------------------------------------------------
// Analytics
// ---------------------------------------------------------------------------
export const ActivityHandlers = HttpApiBuilder.group(AdminApi, "activity", (handlers) =>
  handlers.handle("list", ({ query }) =>
    Effect.gen(function* () {
      const { user } = yield* CurrentSession
      return yield* (yield* wantsCsv(query.format))
        ? csvResponse({ name: "activity-log", fields: exportFields, record: exportRecord(user), rows: exportEvents(query, user) })
        : Effect.map(listEvents(query, user), (data) => HttpServerResponse.jsonUnsafe({ success: true as const, data }))
    })
  )
)

export const AnalyticsHandlers = HttpApiBuilder.group(AdminApi, "analytics", (handlers) =>
  handlers.handle("get", ({ query }) => Effect.map(analyticsOf(query.period ?? "7d"), (data) => ({ success: true as const, data })))
)
