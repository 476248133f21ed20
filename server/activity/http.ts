import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { csvResponse, wantsCsv } from "../platform/lists.ts"
import { type LogRow, entryOf, listEvents, exportEvents, analyticsOf } from "./repository.ts"

/**
 * The activity log as a list (docs/api.md, "Activity log") and the dashboard's figures, read
 * from the counts the database keeps as records change ("Analytics").
 */
const exportRecord = (row: LogRow) => {
  const entry = entryOf(row)
  return { ...entry, record: entry.record.label, recordKind: entry.record.kind }
}
const exportFields = [
  "_id",
  "at",
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
] as const satisfies ReadonlyArray<keyof ReturnType<typeof exportRecord>>

// ---------------------------------------------------------------------------
// Analytics
// ---------------------------------------------------------------------------
export const ActivityHandlers = HttpApiBuilder.group(AdminApi, "activity", (handlers) =>
  handlers.handle("list", ({ query }) =>
    Effect.flatMap(wantsCsv(query.format), (csv) =>
      csv
        ? csvResponse({ name: "activity-log", fields: exportFields, record: exportRecord, rows: exportEvents(query) })
        : Effect.map(listEvents(query), (data) => HttpServerResponse.jsonUnsafe({ success: true as const, data }))
    ).pipe(Effect.orDie)
  )
)

export const AnalyticsHandlers = HttpApiBuilder.group(AdminApi, "analytics", (handlers) =>
  handlers.handle("get", ({ query }) => Effect.map(analyticsOf(query.period ?? "7d"), (data) => ({ success: true as const, data })).pipe(Effect.orDie))
)
