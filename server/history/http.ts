import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession } from "../../contract/auth.ts"
import { BadRequest, Conflict, Forbidden, NotFound, roleCovers } from "../../contract/common.ts"
import { changedPaths, type HistoryKind, historyKindLabels, historyMessages, isHistoryKind } from "../../contract/history-rules.ts"
import { mayRead, requireConfirmed } from "../auth/roles.ts"
import { pageWindow, paginate } from "../platform/lists.ts"
import { type Content, contentOf } from "../platform/record-history.ts"
import { type ChangeEvent, createRecord, updateRecord, type VersionedRow } from "../platform/record-writes.ts"
import { kinds, type KindRules } from "./kinds.ts"
import { currentOf, historyPage, labelIn, lastChangeBy, newestAuthor, removedRecords, versionAt } from "./repository.ts"

// Every record's history (docs/api.md, "Record history"): its versions, any version as it was,
// and a restore that writes an old version as the newest, on the one write path.

const label = (kind: HistoryKind) => historyKindLabels[kind]

/** Whoever may read a kind's records may read their history (server/auth/roles.ts). */
const reader = (kind: HistoryKind) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    if (!mayRead(session.user.role, kind)) return yield* new Forbidden({ error: historyMessages.readOnly(label(kind)) })
    return session
  })

/**
 * The fields whose values differ between two contents, a document's keys as `field.key`
 * (contract/history-rules.ts). A field a version does not name was null then: a create keeps
 * only the fields it gave a value.
 */
const changedFields = (target: Content, now: Content): ReadonlyArray<string> =>
  [...new Set([...Object.keys(target), ...Object.keys(now)])].flatMap((field) => changedPaths(field, target[field], now[field]).map((change) => change.field))

/** A version's content as columns to write: jsonb columns as JSON text. */
const columnsOf = (rules: KindRules, content: Content): Record<string, unknown> => {
  const json = new Set(rules.table.history?.json ?? [])
  return Object.fromEntries(Object.entries(content).map(([field, value]) => [field, json.has(field) && value !== null ? JSON.stringify(value) : value]))
}

/** The columns to write to make the record as it is (`now`) what it was in `target`. */
const differing = (rules: KindRules, target: Content, now: Content) => {
  const columns = columnsOf(rules, target)
  const fields = new Set(changedFields(target, now).map((path) => path.split(".")[0] ?? path))
  return Object.fromEntries([...fields].map((field) => [field, columns[field] ?? null]))
}

/** Whether going from `now` to `target` changes only what staff below the kind's `restore` may change. */
const withinHandling = (rules: KindRules, target: Content, now: Content) => changedFields(target, now).every((path) => rules.handling?.includes(path) === true)

const restore = (kind: HistoryKind, id: string, version: number, expectedVersion: number) =>
  Effect.gen(function* () {
    const rules = kinds[kind]
    const session = yield* reader(kind)
    const editor = roleCovers(session.user.role, rules.restore)
    const refused = new Forbidden({ error: historyMessages.restoreRole(label(kind)) })
    if ((rules.table.history?.hidden?.length ?? 0) > 0) return yield* new BadRequest({ error: historyMessages.hiddenValues })
    const current = yield* currentOf(kind, id)
    if (current === undefined) return yield* new NotFound({ error: historyMessages.notFound })
    const target = yield* versionAt(kind, id, version)
    if (target === undefined) return yield* new NotFound({ error: historyMessages.noVersion(version) })
    if (target.removed) return yield* new BadRequest({ error: historyMessages.removedVersion(version) })
    const newest = yield* newestAuthor(kind, id)
    if (expectedVersion !== current.version) return yield* new Conflict({ error: historyMessages.changedBy(newest.who), currentVersion: current.version })
    // Below `restore`, a person undoes their own last change only, of what their role may
    // change (checked on the locked row below): the console's `z` (docs/api.md, "Record history").
    if (!editor && (current.removed || version !== current.version - 1 || newest.id !== session.user._id)) return yield* refused
    // Bringing a deleted record back asks for the passkey again after 10 minutes (docs/security.md, "Confirm what matters").
    if (current.removed) yield* requireConfirmed
    const rowId = rules.rowId?.(id) ?? id
    const actor = { session }
    const restored = (details: Record<string, unknown> = {}): ChangeEvent => ({
      action: `${kind}.restore`,
      entityId: id,
      details: { restoredVersion: version, ...details }
    })
    const taken = (constraint: string) => {
      const field = rules.unique?.[constraint]
      if (field !== undefined) return new Conflict({ error: historyMessages.taken(field) })
      // Someone else brought the removed record back first.
      return constraint.endsWith("_pkey") ? new Conflict({ error: historyMessages.stale, currentVersion: current.version + 1 }) : undefined
    }
    const content = target.content
    if (rules.change !== undefined) {
      const changed = yield* rules.change(rowId, content, expectedVersion, actor)
      if (changed.eventIds.length === 0) return yield* new BadRequest({ error: historyMessages.sameContent(version) })
      return { version: changed.version, eventId: changed.eventIds[0] ?? "" }
    }
    if (!current.removed) {
      if (kind === "ip") return yield* new BadRequest({ error: historyMessages.sameContent(version) })
      const contentNow = (row: VersionedRow) => contentOf(rules.table.history ?? {}, row)
      const { after, eventIds } = yield* updateRecord<VersionedRow, Conflict | Forbidden>(rules.table, {
        id: rowId,
        expectedVersion,
        refuse: (before) => (editor || withinHandling(rules, content, contentNow(before)) ? Effect.void : Effect.fail(refused)),
        changes: (before) => differing(rules, content, contentNow(before)),
        events: (_, after) => restored({ version: after.version }),
        taken,
        actor
      })
      if (eventIds.length === 0) return yield* new BadRequest({ error: historyMessages.sameContent(version) })
      return { version: after.version, eventId: eventIds[0] ?? "" }
    }
    if (rules.bringBack !== undefined) {
      const brought = yield* rules.bringBack(rowId, content, current.version + 1, version, actor)
      return { version: brought.version, eventId: brought.eventIds[0] ?? "" }
    }
    const { row, eventIds } = yield* createRecord<VersionedRow, Conflict>(rules.table, {
      values: { ...columnsOf(rules, content), id: rowId, version: current.version + 1 },
      events: (made) => restored({ version: made.version }),
      taken,
      actor
    })
    return { version: row.version, eventId: eventIds[0] ?? "" }
  })

export const HistoryHandlers = HttpApiBuilder.group(AdminApi, "history", (handlers) =>
  handlers
    .handle("last", () =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        const row = yield* lastChangeBy(session.user._id)
        if (row === undefined || !isHistoryKind(row.entity)) return { success: true as const, data: { change: null } }
        // What the record was called then, so an undo can say which record it put back.
        const made = yield* versionAt(row.entity, row.entityId, row.version)
        const label = labelIn(made?.content ?? {}, row.entityId)
        return {
          success: true as const,
          data: { change: { kind: row.entity, id: row.entityId, label, version: row.version, action: row.action, at: row.at.toISOString() } }
        }
      })
    )
    .handle("removed", ({ params, query }) =>
      Effect.gen(function* () {
        yield* reader(params.kind)
        const { page, limit, offset } = pageWindow(query)
        const { records, total } = yield* removedRecords(params.kind, limit, offset)
        return { success: true as const, data: { records, pagination: paginate(page, limit, total) } }
      })
    )
    .handle("list", ({ params, query }) =>
      Effect.gen(function* () {
        yield* reader(params.kind)
        const { page, limit, offset } = pageWindow(query)
        const history = yield* historyPage(params.kind, params.id, limit, offset)
        if (history === undefined) return yield* new NotFound({ error: historyMessages.notFound })
        return { success: true as const, data: { entries: history.entries, pagination: paginate(page, limit, history.total), current: history.current } }
      })
    )
    .handle("version", ({ params }) =>
      Effect.gen(function* () {
        yield* reader(params.kind)
        const found = yield* versionAt(params.kind, params.id, params.version)
        if (found === undefined) return yield* new NotFound({ error: historyMessages.noVersion(params.version) })
        const hidden = kinds[params.kind].table.history?.hidden ?? []
        return { success: true as const, data: { ...found, hidden } }
      })
    )
    .handle("restore", ({ params, payload }) =>
      Effect.map(restore(params.kind, params.id, payload.version, payload.expectedVersion), (data) => ({ success: true as const, data }))
    )
)
