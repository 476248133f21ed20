import { Context, Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { sameKept } from "../../contract/history-rules.ts"

/**
 * What a record's history keeps of a change (docs/architecture.md, "Record history"): the write
 * path (record-writes.ts) hands each change's rows here, and the change's first event carries
 * the version it produced and the fields it changed, before and after. Every 100 versions the
 * whole content is kept as a snapshot, so a version is rebuilt from at most 100 changes.
 */

/** How a table's rows are kept in history. Every field is kept, but for these. */
export interface HistoryRules {
  /** jsonb columns (the rows' names): compared and kept as values, written back as JSON text. */
  readonly json?: ReadonlyArray<string>
  /** Columns that are not the record's content (a view counter): neither compared nor kept. */
  readonly leaveOut?: ReadonlyArray<string>
  /** Columns whose values never enter the history: that they changed is kept, not what to. */
  readonly hidden?: ReadonlyArray<string>
  /**
   * A table that holds several kinds of record (the three address directories): the columns a
   * row of its kind has. The others hold their defaults and are no field of it, so neither its
   * creation nor its deletion names them.
   */
  readonly fieldsOf?: (row: Readonly<Record<string, unknown>>) => ReadonlyArray<string>
}

/** A field's value as history keeps it: JSON. */
export type Kept = string | number | boolean | null | ReadonlyArray<unknown> | { readonly [key: string]: unknown }

/**
 * A record's content in history: its columns by the names the SQL client gives them
 * (`internalNotes`; the client names a stored document's keys the same way when it reads them), values as JSON.
 */
export type Content = Readonly<Record<string, Kept>>

/** What a change did to each field it changed: before and after, or null when the values are not kept. */
export type Changes = Readonly<Record<string, readonly [Kept, Kept] | null>>

/**
 * Whether changes keep their history: always. Only `npm run bench -- history` gives the servers
 * it starts itself false (the events stay, without versions and changes), to measure what keeping
 * it costs a change; no configuration sets it.
 */
export const HistoryKept = Context.Reference<boolean>("platform/HistoryKept", { defaultValue: () => true })

/** Every `SNAPSHOT_EVERY` versions the whole content is kept. */
export const SNAPSHOT_EVERY = 100

/** Never content: the id names the record, the version and the time of the last change are the event's. */
const notContent = new Set(["id", "version", "updatedAt"])

const keptOf = (value: unknown, json: boolean): Kept => {
  if (value === undefined || value === null) return null
  if (value instanceof Date) return value.toISOString()
  if (json && typeof value === "string") return JSON.parse(value) as Kept
  return value as Kept
}

/** A row's content as history keeps it (hidden fields left out). */
export const contentOf = (rules: HistoryRules, row: object): Content => {
  const content: Record<string, Kept> = {}
  const own = rules.fieldsOf?.(row as Readonly<Record<string, unknown>>)
  for (const [name, value] of Object.entries(row)) {
    if (notContent.has(name) || rules.leaveOut?.includes(name) || rules.hidden?.includes(name) || (own !== undefined && !own.includes(name))) continue
    content[name] = keptOf(value, rules.json?.includes(name) ?? false)
  }
  return content
}

/** The same value, whatever the order of a document's keys: a save that sends a field back as it was changes nothing. */
const same = sameKept

/** The fields that differ between two rows (either may be missing: a create, a removal). */
export const changesOf = (rules: HistoryRules, before: object | undefined, after: object | undefined): Changes => {
  const from = before === undefined ? {} : contentOf(rules, before)
  const to = after === undefined ? {} : contentOf(rules, after)
  const changes: Record<string, readonly [Kept, Kept] | null> = {}
  for (const name of new Set([...Object.keys(from), ...Object.keys(to)])) {
    const a = from[name] ?? null
    const b = to[name] ?? null
    if (!same(a, b)) changes[name] = [a, b]
  }
  for (const name of rules.hidden ?? []) {
    const a = (before as Record<string, unknown> | undefined)?.[name]
    const b = (after as Record<string, unknown> | undefined)?.[name]
    if (!same(a ?? null, b ?? null)) changes[name] = null
  }
  return changes
}

/** What the first event of a record's change carries into history. */
export interface HistoryMark {
  readonly version: number
  readonly changes: Changes
  readonly removed?: boolean
}

/** Keeps the whole content of a version that is a multiple of `SNAPSHOT_EVERY`. */
export const snapshotIfDue = (entity: string, entityId: string, version: number, rules: HistoryRules, row: object) =>
  Effect.gen(function* () {
    if (version % SNAPSHOT_EVERY !== 0) return
    const sql = yield* SqlClient
    yield* sql`INSERT INTO record_snapshots ${sql.insert({ entity, entityId, version, content: JSON.stringify(contentOf(rules, row)) })}
      ON CONFLICT DO NOTHING`
  })
