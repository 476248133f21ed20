import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { dieOnSqlError } from "../platform/database.ts"
import { type FieldChange, type HistoryEntry } from "../../contract/history.ts"
import { changedPaths, type HistoryKind, historyKinds } from "../../contract/history-rules.ts"
import type { Changes, Content, Kept } from "../platform/record-history.ts"

/**
 * A record's history in the database (docs/architecture.md, "Record history"): its events that
 * carry a version (newest first), the snapshot it began with, and any version rebuilt from the
 * latest snapshot at or before it and the changes since.
 */

interface EntryRow {
  readonly eventId: string
  readonly version: number
  readonly at: Date
  readonly actorEmail: string | null
  readonly actorName: string | null
  readonly action: string
  readonly removed: boolean
  readonly changes: Changes | string | null
}

const changesOf = (stored: Changes | string | null): Changes => (stored === null ? {} : typeof stored === "string" ? (JSON.parse(stored) as Changes) : stored)

/** A version's changes as the API gives them: a document's keys each as a field (`author.username`), a protected value as hidden. */
const fieldChanges = (changes: Changes): ReadonlyArray<FieldChange> =>
  Object.entries(changes).flatMap(([field, pair]): ReadonlyArray<FieldChange> =>
    pair === null ? [{ field, before: null, after: null, hidden: true }] : changedPaths(field, pair[0], pair[1]).map((change) => ({ ...change, hidden: false }))
  )

const entryOf = (row: EntryRow): HistoryEntry => ({
  eventId: row.eventId,
  version: row.version,
  at: row.at.toISOString(),
  actorEmail: row.actorEmail,
  actorName: row.actorName,
  action: row.action,
  removed: row.removed,
  changes: fieldChanges(changesOf(row.changes))
})

interface Facts {
  /** Events that made a version. */
  readonly events: number
  readonly oldest: number | null
  readonly newest: number | null
  readonly newestRemoved: boolean | null
  readonly lastSnapshot: number | null
  readonly firstSnapshot: number | null
  readonly firstSnapshotAt: Date | null
}

/**
 * What a record's history is, in one round trip, each part on an index
 * (`activity_log_history_idx`, the snapshots' key): how many versions events made, the oldest
 * and newest of them, and the first and last snapshot.
 */
const factsOf = (kind: HistoryKind, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const record = sql`entity = ${kind} AND entity_id = ${id} AND version IS NOT NULL`
    const snapshots = sql`entity = ${kind} AND entity_id = ${id}`
    const [facts] = yield* sql<Facts>`
      SELECT counted.events, counted.oldest, newest.version AS newest, newest.removed AS newest_removed,
        (SELECT max(version) FROM record_snapshots WHERE ${snapshots}) AS last_snapshot,
        first.version AS first_snapshot, first.at AS first_snapshot_at
      FROM (SELECT count(*)::int AS events, min(version) AS oldest FROM activity_log WHERE ${record}) counted
      LEFT JOIN LATERAL (SELECT version, removed FROM activity_log WHERE ${record} ORDER BY version DESC, id DESC LIMIT 1) newest ON true
      LEFT JOIN LATERAL (SELECT version, at FROM record_snapshots WHERE ${snapshots} ORDER BY version LIMIT 1) first ON true`
    return facts!
  })

/** The record now, as history knows it: its newest version and whether that is its removal; undefined without history. */
const currentIn = (facts: Facts) => {
  if (facts.newest === null && facts.lastSnapshot === null) return undefined
  if (facts.newest === null || (facts.lastSnapshot !== null && facts.lastSnapshot > facts.newest)) return { version: facts.lastSnapshot!, removed: false }
  return { version: facts.newest, removed: facts.newestRemoved === true }
}

export const currentOf = (kind: HistoryKind, id: string) => Effect.map(factsOf(kind, id), currentIn).pipe(dieOnSqlError)

/**
 * The versions of a record, newest first, and the record now: its events, and the snapshot
 * history began with (a snapshot no event made: the record as it was when its history started),
 * last. Each version has one event, so where a page starts is found on the index alone (its
 * newest version, by the offset) and only the page's rows are read. Two round trips: the facts
 * (factsOf), then the page. Undefined when the record has no history.
 */
export const historyPage = (kind: HistoryKind, id: string, limit: number, offset: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const facts = yield* factsOf(kind, id)
    const current = currentIn(facts)
    if (current === undefined) return undefined
    const rows =
      offset < facts.events
        ? yield* sql<EntryRow>`
      SELECT l.id::text AS event_id, l.version, l.at, l.actor_email, (SELECT name FROM admins WHERE id = l.actor_id) AS actor_name,
        l.action, l.removed, l.changes
      FROM activity_log l WHERE l.entity = ${kind} AND l.entity_id = ${id} AND l.version IS NOT NULL
        AND l.version <= (SELECT version FROM activity_log WHERE entity = ${kind} AND entity_id = ${id} AND version IS NOT NULL
          ORDER BY version DESC OFFSET ${offset} LIMIT 1)
      ORDER BY l.version DESC LIMIT ${limit}`
        : []
    // The first kept version, when no event made it (the snapshot history began with comes
    // before any event; later snapshots are of versions events made): one more entry, last.
    const baseline =
      facts.firstSnapshot !== null && (facts.oldest === null || facts.firstSnapshot < facts.oldest)
        ? { version: facts.firstSnapshot, at: facts.firstSnapshotAt! }
        : undefined
    const baselineEntry: ReadonlyArray<HistoryEntry> =
      baseline !== undefined && offset + limit > facts.events && offset <= facts.events
        ? [
            {
              eventId: "",
              version: baseline.version,
              at: baseline.at.toISOString(),
              actorEmail: null,
              actorName: null,
              action: `${kind}.baseline`,
              removed: false,
              changes: []
            }
          ]
        : []
    return { entries: [...rows.map(entryOf), ...baselineEntry].slice(0, limit), total: facts.events + (baseline === undefined ? 0 : 1), current }
  }).pipe(dieOnSqlError)

/** A version as it was: its content, when it was made, whether it is the removal. Undefined when there is no such version. */
export const versionAt = (kind: HistoryKind, id: string, version: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const [snapshot] = yield* sql<{ version: number; content: Content | string; at: Date }>`
      SELECT version, content, at FROM record_snapshots WHERE entity = ${kind} AND entity_id = ${id} AND version <= ${version}
      ORDER BY version DESC LIMIT 1`
    const since = snapshot?.version ?? 0
    const events = yield* sql<{ version: number; changes: Changes | string | null; removed: boolean; at: Date }>`
      SELECT version, changes, removed, at FROM activity_log
      WHERE entity = ${kind} AND entity_id = ${id} AND version IS NOT NULL AND version > ${since} AND version <= ${version}
      ORDER BY version, id`
    const last = events.at(-1)
    const reached = last?.version ?? snapshot?.version
    if (reached !== version) return undefined
    const content: Record<string, Kept> =
      snapshot === undefined ? {} : { ...(typeof snapshot.content === "string" ? (JSON.parse(snapshot.content) as Content) : snapshot.content) }
    for (const event of events) {
      for (const [field, pair] of Object.entries(changesOf(event.changes))) if (pair !== null) content[field] = pair[1]
    }
    return { version, at: (last?.at ?? snapshot!.at).toISOString(), removed: last?.removed ?? false, content: content }
  }).pipe(dieOnSqlError)

/** The newest change `adminId` made to a record of a kind with history, or undefined. */
export const lastChangeBy = (adminId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const [row] = yield* sql<{ entity: string; entityId: string; version: number; action: string; at: Date }>`
      SELECT entity, entity_id, version, action, at FROM activity_log
      WHERE actor_id = ${adminId} AND version IS NOT NULL AND entity IN ${sql.in(historyKinds)}
      ORDER BY id DESC LIMIT 1`
    return row
  }).pipe(dieOnSqlError)

/** Who made a record's newest version: their id, and their name or e-mail ("the site" when no one signed in). */
export const newestAuthor = (kind: HistoryKind, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const [row] = yield* sql<{ actorId: string | null; who: string | null }>`
      SELECT l.actor_id::text AS actor_id, coalesce((SELECT name FROM admins WHERE id = l.actor_id), l.actor_email) AS who FROM activity_log l
      WHERE l.entity = ${kind} AND l.entity_id = ${id} AND l.version IS NOT NULL ORDER BY l.version DESC LIMIT 1`
    return { id: row?.actorId ?? null, who: row?.who ?? "the site" }
  }).pipe(dieOnSqlError)

/** What a record was called: the first of its naming fields `content` holds, else its id. */
const labelFields = ["title", "name", "Name", "subject", "companyName", "identifier", "ip", "email", "key", "walletAddress", "scamType"]
export const labelIn = (content: Readonly<Record<string, unknown>>, id: string): string => {
  const named = labelFields.map((field) => content[field]).find((value) => typeof value === "string" && value !== "")
  return typeof named === "string" ? named : id
}

/** Records of a kind removed and not brought back since, newest removal first, and how many. */
export const removedRecords = (kind: HistoryKind, limit: number, offset: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const still = sql`l.entity = ${kind} AND l.removed AND l.version IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM activity_log n WHERE n.entity = l.entity AND n.entity_id = l.entity_id AND n.version IS NOT NULL AND n.version > l.version)`
    const rows = yield* sql<{ entityId: string; version: number; at: Date; by: string | null; changes: Changes | string | null }>`
      SELECT l.entity_id, l.version, l.at, coalesce((SELECT name FROM admins WHERE id = l.actor_id), l.actor_email) AS by, l.changes
      FROM activity_log l WHERE ${still} ORDER BY l.id DESC LIMIT ${limit} OFFSET ${offset}`
    const [counted] = yield* sql<{ total: number }>`SELECT count(*)::int AS total FROM activity_log l WHERE ${still}`
    const records = rows.map((row) => {
      const before = Object.fromEntries(Object.entries(changesOf(row.changes)).map(([field, pair]) => [field, pair?.[0]]))
      return { id: row.entityId, label: labelIn(before, row.entityId), version: row.version, at: row.at.toISOString(), by: row.by }
    })
    return { records, total: counted?.total ?? 0 }
  }).pipe(dieOnSqlError)
