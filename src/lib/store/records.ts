import { type KeptRecord, type OutboxCommand, recordKey } from "./browser-store.ts"
import type { Fields } from "./store-types.ts"

/**
 * The records of the console's store (./console-store.ts): the server's copies this browser
 * holds in memory, each with its version, and the records it deleted or heard deleted. A screen
 * sees a copy with the waiting commands' effects on top, in the order they were made. Nothing
 * here reaches IndexedDB or the server: the outbox (./outbox.ts) and the stream (./stream.ts)
 * keep what they change.
 */

/** How many copies past the bound go at once: trimming is a walk over the copies, not done on every keep. */
const TRIM_BATCH = 1_000

export const versionOf = (fields: Fields): number | null => (typeof fields.version === "number" ? fields.version : null)

/** What `path` picks in an answer: dot-separated, `[id]` the element whose `_id` is id. */
export const pick = (answer: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((at, segment) => {
    if (at === null || typeof at !== "object") return undefined
    const id = /^\[(.+)\]$/u.exec(segment)?.[1]
    if (id !== undefined) return Array.isArray(at) ? at.find((one: unknown) => (one as { _id?: unknown })._id === id) : undefined
    return (at as Record<string, unknown>)[segment]
  }, answer)

/** A command's path and body naming `version` where they named the version they were read at (a body's `version`, a `?version=`). */
export const atVersion = (path: string, body: unknown, version: number) => ({
  path: path.replace(/([?&]version=)\d+/u, `$1${version}`),
  body: body !== null && typeof body === "object" && !Array.isArray(body) && "version" in body ? { ...body, version } : body
})

/** The version a command names (its body's `version`, else its path's `?version=`), if it names one. */
export const versionNamed = (path: string, body: unknown): number | undefined => {
  const inBody = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as { readonly version?: unknown }).version : undefined
  if (typeof inBody === "number") return inBody
  const inPath = /[?&]version=(\d+)/u.exec(path)?.[1]
  return inPath === undefined ? undefined : Number(inPath)
}

/** The record with the one id a command names, in its answer's `data` or one level below it. */
const ownRecord = (answer: unknown, recordIds: ReadonlyArray<string>): unknown => {
  if (recordIds.length !== 1) return undefined
  const data = pick(answer, "data")
  const isOwn = (value: unknown) => typeof value === "object" && value !== null && (value as { readonly _id?: unknown })._id === recordIds[0]
  if (isOwn(data)) return data
  return data !== null && typeof data === "object" && !Array.isArray(data) ? Object.values(data).find(isOwn) : undefined
}

export interface Records {
  /** The copy held, if any (the server's last word on it). */
  readonly held: (kind: string, id: string) => { readonly version: number | null; readonly fields: Fields } | undefined
  /**
   * Keeps a copy unless a newer one is held, or the record is gone (a page read before the
   * deletion); `later`: a streamed change, made after anything this browser heard (a restore
   * brings a deleted record back). Whether it was kept.
   */
  readonly keep: (kind: string, id: string, fields: Fields, later?: boolean) => boolean
  /** The record was deleted: not shown even while a page read before still holds it. */
  readonly forget: (kind: string, id: string) => void
  /** The record as the person should see it: `row` or the newer copy held, with the waiting commands' effects; null when deleted. */
  readonly view: <Row extends object>(kind: string, id: string, row: Row) => Row | null
  /** The server's version of the record once the waiting commands about it are in (each makes one). */
  readonly nextVersion: (kind: string, id: string, seen: number) => number
  /**
   * Keeps the records a command's answer carries (whole, or a bulk answer's changed fields over
   * the held copy): at the command's `answer` path, or for a command that names none (a form's
   * save) the record of its own id in the answer's `data`, so the next command on it names the
   * version just made. What was kept, for IndexedDB.
   */
  readonly keepAnswered: (command: OutboxCommand, answer: unknown) => ReadonlyArray<KeptRecord>
}

/** `waiting`: the outbox, in order; `maxCopies`: the copies held at most (the least recently kept go, never one a waiting command is about). */
export const recordSet = (maxCopies: number, waiting: () => ReadonlyArray<OutboxCommand>): Records => {
  const copies = new Map<string, { readonly version: number | null; readonly fields: Fields }>()
  /** Records this browser deleted or heard deleted, each with the version it had then (null when not known). */
  const gone = new Map<string, number | null>()

  const trim = () => {
    if (copies.size <= maxCopies + TRIM_BATCH) return
    const waitingOn = new Set(waiting().flatMap((command) => command.records))
    for (const key of copies.keys()) {
      if (copies.size <= maxCopies) break
      if (!waitingOn.has(key)) copies.delete(key)
    }
  }

  const keep = (kind: string, id: string, fields: Fields, later = false) => {
    const key = recordKey(kind, id)
    const held = copies.get(key)
    const next = versionOf(fields)
    if (held !== undefined && held.version !== null && next !== null && next < held.version) return false
    if (gone.has(key)) {
      const at = gone.get(key) ?? null
      // A page read before the deletion does not bring the record back.
      if (!later && (at === null || next === null || next <= at)) return false
      gone.delete(key)
    }
    // Kept again: the most recent (a Map keeps the order keys were set in).
    copies.delete(key)
    copies.set(key, { version: next, fields })
    trim()
    return true
  }

  return {
    held: (kind, id) => copies.get(recordKey(kind, id)),
    keep,
    forget: (kind, id) => {
      const key = recordKey(kind, id)
      gone.set(key, copies.get(key)?.version ?? null)
      copies.delete(key)
    },
    view: <Row extends object>(kind: string, id: string, row: Row): Row | null => {
      if (gone.has(recordKey(kind, id))) return null
      const held = copies.get(recordKey(kind, id))
      const rowVersion = versionOf(row as Fields)
      let fields: Fields | null =
        held !== undefined && (rowVersion === null || (held.version !== null && held.version > rowVersion)) ? held.fields : (row as Fields)
      for (const command of waiting())
        if (command.kind === kind && command.recordIds.includes(id)) fields = command.effect === null ? null : { ...fields, ...command.effect }
      return fields as Row | null
    },
    nextVersion: (kind, id, seen) => {
      const held = copies.get(recordKey(kind, id))
      const known = held?.version != null && held.version > seen ? held.version : seen
      // A waiting command that names its version makes the next one; the stream may have brought
      // that write before its answer, so it is not counted again. One that names none adds one.
      return waiting()
        .filter((command) => command.kind === kind && command.recordIds.includes(id) && command.effect !== null)
        .reduce((next, command) => {
          const sent = versionNamed(command.path, command.body)
          return sent === undefined ? next + 1 : Math.max(next, sent + 1)
        }, known)
    },
    keepAnswered: (command, answer) => {
      const carried = command.answer === undefined ? ownRecord(answer, command.recordIds) : pick(answer, command.answer)
      if (carried === undefined) return []
      const records = (Array.isArray(carried) ? carried : [carried]).filter(
        (one): one is Fields & { readonly _id: string } => typeof one === "object" && one !== null && typeof (one as Fields)._id === "string"
      )
      const kept: Array<KeptRecord> = []
      for (const record of records) {
        const fields = { ...copies.get(recordKey(command.kind, record._id))?.fields, ...record }
        if (keep(command.kind, record._id, fields)) kept.push({ id: record._id, version: versionOf(fields), fields })
      }
      return kept
    }
  }
}
