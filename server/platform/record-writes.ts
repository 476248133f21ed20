import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type { Fragment } from "effect/sql/Statement"
import { CurrentSession } from "../../contract/auth.ts"
import { Conflict, NotFound } from "../../contract/common.ts"
import { type ActivityEvent, recordActivities } from "./activity-log.ts"
import { announcing } from "./change-feed.ts"
import { changesOf, HistoryKept, type HistoryMark, type HistoryRules, snapshotIfDue } from "./record-history.ts"

/**
 * The one write path (docs/architecture.md, "One write path"): every change of a record (create,
 * update, status, delete) goes through `createRecord`, `updateRecord` or `removeRecord`, which
 * open the transaction, read and lock the record, answer 404 when it is missing and 409 (naming
 * the version it is at) when the change was made on an older one, write, append the activity
 * events in the same transaction, and announce them on the change stream once it has committed.
 * A refusal anywhere rolls everything back. Areas say only what is theirs: the table, the
 * columns a change sets, and the events it records.
 */

/** A row of a versioned table: what the write path reads to decide. */
export interface VersionedRow {
  readonly id: string
  readonly version: number
}

/** A table of versioned records, as the write path needs it. */
export interface VersionedTable {
  readonly table: string
  /** The columns a change answers with (`RETURNING`), in the SQL client's names. */
  readonly columns: string
  /** The area's own words for a missing record and a change made on an old copy. */
  readonly messages: { readonly notFound: string; readonly stale: string }
  /** What its history keeps (record-history.ts); every column, as it is, when left out. */
  readonly history?: HistoryRules
}

/** An event of a change, without its actor: the signed-in admin's, or `actor` when it is the public's. */
export type ChangeEvent = Omit<ActivityEvent, "actorId" | "actorEmail" | "ip">

/**
 * Who made a change, when it is not the request's signed-in admin: the public (nobody, from an
 * address), or a session the handler found itself (a form staff and the public share).
 */
export type Actor = { readonly ip: string | null } | { readonly session: CurrentSession["Service"] }

/** Who acts from the command line and at start-up: nobody signed in, from no address. */
export const commandLine: Actor = { ip: null }

const withActor = (events: ReadonlyArray<ChangeEvent>, actor: Actor | undefined) =>
  Effect.gen(function* () {
    const found = actor === undefined ? Option.map(yield* Effect.serviceOption(CurrentSession), (session) => ({ session })) : Option.some(actor)
    if (Option.isNone(found)) return yield* Effect.die(new Error("A record change with neither a session nor a public actor"))
    const by = found.value
    if (!("session" in by)) return events.map((event): ActivityEvent => ({ ...event, actorId: null, actorEmail: null, ip: by.ip }))
    const { user, ip } = by.session
    return events.map((event): ActivityEvent => ({ ...event, actorId: user._id, actorEmail: user.email, ip }))
  })

const listOf = (events: ChangeEvent | ReadonlyArray<ChangeEvent>): ReadonlyArray<ChangeEvent> => (isList(events) ? events : [events])
const isList = (events: ChangeEvent | ReadonlyArray<ChangeEvent>): events is ReadonlyArray<ChangeEvent> => Array.isArray(events)

/** Which records of the table a call may change (a directory's kind, a screen's listing types): others are missing to it. */
export type Scope = (sql: SqlClient) => Fragment

/** The record, locked until the change commits; 404 when there is none (in `scope`). */
const lockedRecord = <Row extends VersionedRow>(table: VersionedTable, id: string, scope?: Scope) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const within = scope === undefined ? sql`` : sql`AND ${scope(sql)}`
    const rows = yield* sql<Row>`SELECT ${sql.unsafe(table.columns)} FROM ${sql(table.table)} WHERE id = ${id} ${within} FOR UPDATE`
    const row = rows[0]
    if (row === undefined) return yield* new NotFound({ error: table.messages.notFound })
    return row
  })

/**
 * The record at the version the change was made on: 404 when missing, 409 naming its version when
 * newer. `"current"`: whatever version it is at (the command line, which shows no copy to be stale).
 */
const recordAt = <Row extends VersionedRow>(table: VersionedTable, id: string, expectedVersion: number | "current", scope?: Scope) =>
  Effect.flatMap(lockedRecord<Row>(table, id, scope), (row) =>
    expectedVersion === "current" || row.version === expectedVersion
      ? Effect.succeed(row)
      : Effect.fail(new Conflict({ error: table.messages.stale, currentVersion: row.version }))
  )

/** What names the record a change is made on, and may refuse it on what it is. */
interface Target<Row, E, R> {
  readonly id: string
  readonly expectedVersion: number | "current"
  readonly scope?: Scope
  /**
   * Rows every change of this kind locks before its record, always in one order (an admin change
   * locks the enabled super admins first): two changes that each need the other's record wait
   * for each other instead of deadlocking.
   */
  readonly lockFirst?: Effect.Effect<unknown, E, R | SqlClient>
  readonly refuse?: (before: Row) => Effect.Effect<unknown, E, R>
}

/** The record a change is made on: locked, at its version, not refused by the area. */
const targetOf = <Row extends VersionedRow, E, R>(table: VersionedTable, target: Target<Row, E, R>) =>
  Effect.andThen(
    target.lockFirst ?? Effect.void,
    Effect.tap(recordAt<Row>(table, target.id, target.expectedVersion, target.scope), (before) => target.refuse?.(before) ?? Effect.void)
  )

/** Appends a change's events, with their actor; answers their ids. Without history, the first goes without its mark. */
const recordChange = (events: ChangeEvent | ReadonlyArray<ChangeEvent>, actor?: Actor) =>
  Effect.flatMap(HistoryKept, (kept) => {
    const [first, ...rest] = listOf(events)
    const recorded = kept || first === undefined ? listOf(events) : [unmarked(first), ...rest]
    return Effect.flatMap(withActor(recorded, actor), recordActivities)
  })

const unmarked = ({ version: _version, changes: _changes, removed: _removed, ...event }: ChangeEvent): ChangeEvent => event

/**
 * A record's change as its history keeps it: its first event carries the version the change
 * produced and the fields it changed (record-history.ts); a version due for a snapshot keeps the
 * whole content too.
 */
const marked = (events: ChangeEvent | ReadonlyArray<ChangeEvent>, mark: HistoryMark): ReadonlyArray<ChangeEvent> => {
  const [first, ...rest] = listOf(events)
  return first === undefined ? [] : [{ ...first, ...mark }, ...rest]
}

const rulesOf = (table: VersionedTable): HistoryRules => table.history ?? {}

/** Keeps a snapshot of `row` when its version is due for one, under the change's first event's record. */
const snapshotOf = (table: VersionedTable, events: ReadonlyArray<ChangeEvent>, row: VersionedRow) =>
  Effect.flatMap(HistoryKept, (kept) => {
    const first = events[0]
    return !kept || first === undefined || first.entityId === null
      ? Effect.void
      : snapshotIfDue(first.action.slice(0, first.action.indexOf(".")), first.entityId, row.version, rulesOf(table), row)
  })

/** Runs a change as the write path runs every change: one transaction, announced after commit, a database failure a defect. */
const asChange = <A, E, R>(change: Effect.Effect<A, E, R>, taken?: Taken<E>) =>
  change.pipe(
    announcing,
    Effect.catchTag("SqlError", (caught) => collision(caught as SqlError, taken)) // an area's unique key is its refusal, else a defect
  )

/** A unique index the change collided with, once the transaction has rolled back: the area's refusal, if it names one. */
const collision = <E>(error: SqlError, taken: Taken<E> | undefined) => {
  const refusal = error.reason._tag === "UniqueViolation" ? taken?.(error.reason.constraint) : undefined
  return refusal === undefined ? Effect.die(error) : Effect.fail(refusal as Exclude<E, SqlError>)
}

/**
 * The refusal for a change that collided with a unique index (by its constraint's name), when
 * the area has words for it; otherwise the collision is a defect (the area checks first).
 */
export type Taken<E> = (constraint: string) => E | undefined

/** The refusal of a value another record holds (409), naming its field so a form says it under it. */
export const takenBy = (field: string, message: string) => new Conflict({ error: message, issues: [{ path: field, message }] })

/** Adds a record with `values` (its id among them) and records `event`; answers the new row. */
export const createRecord = <Row extends VersionedRow, E = never, R = never>(
  table: VersionedTable,
  options: {
    readonly values: Readonly<Record<string, unknown>> & { readonly id: string }
    readonly events: (row: Row) => ChangeEvent | ReadonlyArray<ChangeEvent>
    /** Checks made inside the transaction, after the insert (a rule that reads other rows). */
    readonly check?: (row: Row) => Effect.Effect<unknown, E, R>
    readonly actor?: Actor
    /** A unique index the new record may collide with (`kind, lower(identifier)`), and the refusal when it does. */
    readonly unique?: { readonly index: string; readonly taken: () => E }
    /** What every change of this kind locks first (see `Target`). */
    readonly lockFirst?: Effect.Effect<unknown, E, R | SqlClient>
    readonly taken?: Taken<E>
  }
) =>
  asChange(
    Effect.gen(function* () {
      const sql = yield* SqlClient
      if (options.lockFirst !== undefined) yield* options.lockFirst
      const unique = options.unique
      const onConflict = unique === undefined ? sql`` : sql`ON CONFLICT (${sql.unsafe(unique.index)}) DO NOTHING`
      const rows = yield* sql<Row>`INSERT INTO ${sql(table.table)} ${sql.insert(options.values)} ${onConflict} RETURNING ${sql.unsafe(table.columns)}`
      const row = rows[0]
      if (row === undefined && unique !== undefined) return yield* Effect.fail(unique.taken())
      if (row === undefined) return yield* Effect.die(new Error(`INSERT INTO ${table.table} answered no row`))
      if (options.check !== undefined) yield* options.check(row)
      const events = marked(options.events(row), { version: row.version, changes: changesOf(rulesOf(table), undefined, row) })
      const eventIds = yield* recordChange(events, options.actor)
      yield* snapshotOf(table, events, row)
      return { row, eventIds }
    }),
    options.taken
  )

/**
 * Changes a record made on `expectedVersion`: `refuse` may refuse it on what it was (a move the
 * rules forbid, a field the role may not change), `changes` gives the columns to set; the
 * version goes up by one and `updated_at` is now. A change that sets no column writes nothing and
 * records nothing (no new version).
 */
export const updateRecord = <Row extends VersionedRow, E = never, R = never>(
  table: VersionedTable,
  options: Target<Row, E, R> & {
    readonly changes: (before: Row) => Readonly<Record<string, unknown>>
    /**
     * What else the change does inside the transaction, once the row is written: checks on the
     * changed row (its answers still encode), rows that follow it (a disabled admin's sessions).
     */
    readonly check?: (after: Row, before: Row) => Effect.Effect<unknown, E, R>
    readonly events: (before: Row, after: Row) => ChangeEvent | ReadonlyArray<ChangeEvent>
    readonly actor?: Actor
    readonly taken?: Taken<E>
  }
) =>
  asChange(
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const before = yield* targetOf(table, options)
      const changes = options.changes(before)
      if (Object.keys(changes).length === 0) return { before, after: before, eventIds: [] as ReadonlyArray<string> }
      const rows = yield* sql<Row>`UPDATE ${sql(table.table)} SET ${sql.update({ ...changes, updatedAt: new Date() })}, version = version + 1
        WHERE id = ${options.id} RETURNING ${sql.unsafe(table.columns)}`
      const after = rows[0]
      if (after === undefined) return yield* Effect.die(new Error(`UPDATE ${table.table} lost a locked row`))
      if (options.check !== undefined) yield* options.check(after, before)
      const events = marked(options.events(before, after), { version: after.version, changes: changesOf(rulesOf(table), before, after) })
      const eventIds = yield* recordChange(events, options.actor)
      yield* snapshotOf(table, events, after)
      return { before, after, eventIds }
    }),
    options.taken
  )

/** Deletes a record made on `expectedVersion` and records `events` (the last content is the caller's to name). */
export const removeRecord = <Row extends VersionedRow, E = never, R = never>(
  table: VersionedTable,
  options: Target<Row, E, R> & {
    readonly events: (before: Row) => ChangeEvent | ReadonlyArray<ChangeEvent>
    /** Checks made inside the transaction once the row is gone (a rule on what is left). */
    readonly check?: (before: Row) => Effect.Effect<unknown, E, R>
    readonly actor?: Actor
  }
) =>
  asChange(
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const before = yield* targetOf(table, options)
      yield* sql`DELETE FROM ${sql(table.table)} WHERE id = ${options.id}`
      if (options.check !== undefined) yield* options.check(before)
      // A removal is a version of its own: the record as it was stays the version before it.
      yield* recordChange(
        marked(options.events(before), { version: before.version + 1, changes: changesOf(rulesOf(table), before, undefined), removed: true }),
        options.actor
      )
      return before
    })
  )

/** Which records a change of many takes: the rest of a `WHERE` (its order and limit included). */
export type Selection = (sql: SqlClient) => Fragment

/**
 * One change of many records, all or none (a bulk moderation, the scheduler's due posts): the
 * records `where` selects are locked in its order (`skipLocked`: those another change holds are
 * left for later), `refuse` may refuse the whole change on what they are, `set` is written to all
 * of them in one statement (each goes up one version), and each gets its events, in one insert.
 * Answers the records before and after, in the order they were locked.
 */
export const updateRecords = <Row extends VersionedRow, E = never, R = never>(
  table: VersionedTable,
  options: {
    readonly where: Selection
    readonly skipLocked?: boolean
    readonly lockFirst?: Effect.Effect<unknown, E, R | SqlClient>
    readonly refuse?: (before: ReadonlyArray<Row>) => Effect.Effect<unknown, E, R>
    /** The columns to set, the same for every record (`sql.update(...)`, or expressions of a row's own columns). */
    readonly set: (sql: SqlClient) => Fragment
    readonly events: (before: Row, after: Row) => ChangeEvent | ReadonlyArray<ChangeEvent>
    readonly actor?: Actor
  }
) =>
  asChange(
    Effect.gen(function* () {
      const sql = yield* SqlClient
      if (options.lockFirst !== undefined) yield* options.lockFirst
      const locking = options.skipLocked === true ? sql`FOR UPDATE SKIP LOCKED` : sql`FOR UPDATE`
      const before = yield* sql<Row>`SELECT ${sql.unsafe(table.columns)} FROM ${sql(table.table)} WHERE ${options.where(sql)} ${locking}`
      if (options.refuse !== undefined) yield* options.refuse(before)
      if (before.length === 0) return { changed: [] as ReadonlyArray<{ before: Row; after: Row; eventId: string }> }
      const written = yield* sql<Row>`UPDATE ${sql(table.table)} SET ${options.set(sql)}, updated_at = now(), version = version + 1
        WHERE id IN ${sql.in(before.map((row) => row.id))} RETURNING ${sql.unsafe(table.columns)}`
      const byId = new Map(written.map((row) => [row.id, row]))
      const pairs = before.map((row) => {
        const after = byId.get(row.id)
        if (after === undefined) throw new Error(`UPDATE ${table.table} lost a locked row`)
        return { before: row, after }
      })
      const perRecord = pairs.map(({ before, after }) =>
        marked(options.events(before, after), { version: after.version, changes: changesOf(rulesOf(table), before, after) })
      )
      // One insert for all the events: a change of 500 records is one more statement, not 500.
      const eventIds = yield* recordChange(perRecord.flat(), options.actor)
      for (const [index, { after }] of pairs.entries()) yield* snapshotOf(table, perRecord[index]!, after)
      let next = 0
      const changed = pairs.map((pair, index) => {
        const eventId = eventIds[next] ?? ""
        next += perRecord[index]!.length
        return { ...pair, eventId }
      })
      return { changed }
    })
  )

/**
 * Removes every record `where` selects, all or none (the command line's "clear"), with their
 * events; `check` may refuse on what is left. Answers the records removed.
 */
export const removeRecords = <Row extends VersionedRow, E = never, R = never>(
  table: VersionedTable,
  options: {
    readonly where: Selection
    readonly lockFirst?: Effect.Effect<unknown, E, R | SqlClient>
    readonly events: (before: Row) => ChangeEvent | ReadonlyArray<ChangeEvent>
    readonly check?: (removed: ReadonlyArray<Row>) => Effect.Effect<unknown, E, R>
    readonly actor?: Actor
  }
) =>
  asChange(
    Effect.gen(function* () {
      const sql = yield* SqlClient
      if (options.lockFirst !== undefined) yield* options.lockFirst
      const removed = yield* sql<Row>`DELETE FROM ${sql(table.table)} WHERE ${options.where(sql)} RETURNING ${sql.unsafe(table.columns)}`
      if (options.check !== undefined) yield* options.check(removed)
      yield* recordChange(
        removed.flatMap((row) => marked(options.events(row), { version: row.version + 1, changes: changesOf(rulesOf(table), row, undefined), removed: true })),
        options.actor
      )
      return removed
    })
  )
