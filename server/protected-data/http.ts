import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import { protectedMessages } from "../../contract/protected-data.ts"
import { AdminApi } from "../../contract/api.ts"
import { Conflict, NotFound } from "../../contract/common.ts"
import { answeredFromRecord, forgetRecord } from "../platform/kept-outcomes.ts"
import { type ChangeEvent, createRecord, removeRecord, takenBy, updateRecord } from "../platform/record-writes.ts"
import { requireConfirmed, superAdminOnly } from "../auth/roles.ts"
import { findProtected, type ProtectedRow, protectedOf, protectedTable, listProtected } from "./repository.ts"

// Protected data (docs/api.md, "Admin management"): records only super admins read; their values never enter a log.
/** Which record changed, never what it holds: the value stays out of every log. */
const protectedEvent = (
  action: "protected-data.create" | "protected-data.update" | "protected-data.delete",
  row: ProtectedRow,
  valueChanged: boolean
): ChangeEvent => ({ action, entityId: row.id, details: { type: row.type, key: row.key, valueChanged } })

const protectedValues = (payload: { readonly type: string; readonly key: string; readonly value: string; readonly description?: string | undefined }) => ({
  type: payload.type,
  key: payload.key.trim(),
  value: payload.value,
  description: payload.description?.trim() ?? ""
})

/** A create's or an update's answer: the record, its value included (so never kept: contract `KeptAnswer`). */
const answerWith = (row: ProtectedRow) => ({ recordId: row.id, answer: { success: true as const, data: { record: protectedOf(row) } } })

const gone = new NotFound({ error: protectedMessages.notFound })

/** A repeat of a create or an update, answered from the record as it is now (contract `KeptAnswer` "outcome"). */
const readAgain = (id: string) => Effect.flatMap(findProtected(id), (row) => (row === undefined ? Effect.fail(gone) : Effect.succeed(answerWith(row).answer)))

export const ProtectedDataHandlers = HttpApiBuilder.group(AdminApi, "protectedData", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      Effect.gen(function* () {
        yield* superAdminOnly
        const rows = yield* listProtected(query.type)
        return { success: true as const, data: { records: rows.map(protectedOf) } }
      })
    )
    .handle("create", ({ payload }) =>
      Effect.andThen(
        superAdminOnly,
        answeredFromRecord(
          Effect.gen(function* () {
            yield* requireConfirmed
            const { row } = yield* createRecord<ProtectedRow, Conflict>(protectedTable, {
              values: { id: randomUUID(), ...protectedValues(payload) },
              unique: { index: "type, key", taken: () => takenBy("key", protectedMessages.exists) },
              events: (created) => protectedEvent("protected-data.create", created, true)
            })
            return answerWith(row)
          }),
          readAgain
        )
      )
    )
    .handle("update", ({ params, payload }) =>
      Effect.andThen(
        superAdminOnly,
        answeredFromRecord(
          Effect.gen(function* () {
            yield* requireConfirmed
            const { after } = yield* updateRecord<ProtectedRow>(protectedTable, {
              id: params.id,
              expectedVersion: payload.version,
              changes: () => protectedValues(payload),
              events: (before, row) => protectedEvent("protected-data.update", row, before.value !== row.value)
            })
            return answerWith(after)
          }),
          readAgain
        )
      )
    )
    .handle("remove", ({ params, query }) =>
      Effect.gen(function* () {
        yield* superAdminOnly
        yield* requireConfirmed
        yield* removeRecord<ProtectedRow, never, SqlClient>(protectedTable, {
          id: params.id,
          expectedVersion: query.version,
          events: (before) => protectedEvent("protected-data.delete", before, false),
          check: (before) => forgetRecord(before.id, gone)
        })
        return { success: true as const }
      })
    )
)
