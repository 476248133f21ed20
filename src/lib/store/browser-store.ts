import { type DBSchema, deleteDB, type IDBPDatabase, type IDBPTransaction, openDB } from "idb"

/**
 * The console's store in the browser (docs/architecture.md, "The browser's store"; issue 43): the
 * records it has seen, keyed by kind and id with their versions, its working sets (a list page,
 * a queue), the outbox of commands not yet answered, and the last event id it applied. It lives
 * in IndexedDB through `idb` (docs/decisions.md, "The browser's store"), belongs to one person
 * and is emptied when another signs in; protected data never enters it.
 */

/** A record as the store keeps it: what the server last said of it, or what a waiting command made of it. */
export interface StoredRecord {
  readonly kind: string
  readonly id: string
  /** The server's version of `fields`; null for a record whose kind keeps none. */
  readonly version: number | null
  readonly fields: Readonly<Record<string, unknown>>
  /** When a screen last read or the server last changed it: the least recently used go first. */
  readonly seenAt: number
}

/** A list page or a queue as a screen last showed it: its rows' ids in order, and what came with them. */
export interface WorkingSet {
  readonly key: string
  readonly kind: string
  readonly ids: ReadonlyArray<string>
  /** The pagination, the counts: whatever the screen showed beside the rows. */
  readonly extra: unknown
  readonly at: number
}

/** A command made in this browser and not yet answered by the server, in the order it was made. */
export interface OutboxCommand {
  readonly seq?: number
  /** Made in the browser; sent as the `Idempotency-Key` (docs/api.md, "Commands, exactly once"). */
  readonly commandId: string
  readonly kind: string
  readonly recordId: string
  readonly method: "POST" | "PUT" | "PATCH" | "DELETE"
  readonly path: string
  readonly body: unknown
  readonly madeAt: number
  /** What the command does to the record's fields (null: deletes it), shown at once and kept over newer server copies until answered. */
  readonly effect: Readonly<Record<string, unknown>> | null
  /** The record as the server had it before the command: put back if the server refuses. */
  readonly before: StoredRecord | null
}

/** A change as the server's stream delivers it: the record's fields after it, or none when it was deleted. */
export interface AppliedChange {
  readonly kind: string
  readonly id: string
  readonly version: number | null
  /** The whole record after the change; null when the change deleted it. */
  readonly fields: Readonly<Record<string, unknown>> | null
}

/** What applying a change came to: kept, ignored (older than what is held), or the record must be read again. */
export type ApplyOutcome = "applied" | "ignored" | "reread"

interface ConsoleDb extends DBSchema {
  records: { key: [string, string]; value: StoredRecord; indexes: { seenAt: number } }
  sets: { key: string; value: WorkingSet }
  outbox: { key: number; value: OutboxCommand; indexes: { commandId: string; record: [string, string] } }
  meta: { key: string; value: string }
}

export const STORE_NAME = "console-store"
const SCHEMA_VERSION = 1
const OWNER = "owner"
const LAST_EVENT = "lastEventId"

/** Records kept at most; past it the least recently used go (docs/performance.md, the store's bound). */
export const DEFAULT_MAX_RECORDS = 20_000

export interface BrowserStore {
  readonly records: (kind: string, ids: ReadonlyArray<string>) => Promise<ReadonlyArray<StoredRecord | undefined>>
  readonly record: (kind: string, id: string) => Promise<StoredRecord | undefined>
  /** Keeps records the server sent (a page, an opened record), newer versions only. */
  readonly keep: (
    kind: string,
    rows: ReadonlyArray<{ readonly id: string; readonly version: number | null; readonly fields: Readonly<Record<string, unknown>> }>
  ) => Promise<void>
  readonly apply: (change: AppliedChange) => Promise<ApplyOutcome>
  readonly set: (key: string) => Promise<WorkingSet | undefined>
  readonly keepSet: (set: Omit<WorkingSet, "at">) => Promise<void>
  readonly lastEventId: () => Promise<string | undefined>
  readonly keepLastEventId: (id: string) => Promise<void>
  /** Writes the command to the outbox and its effect to the record in one transaction. */
  readonly enqueue: (command: Omit<OutboxCommand, "seq" | "madeAt" | "before">) => Promise<OutboxCommand>
  readonly outbox: () => Promise<ReadonlyArray<OutboxCommand>>
  /** The server answered the command: it leaves the outbox. */
  readonly settle: (commandId: string) => Promise<void>
  /** The server refused the command: it leaves the outbox and its record is put back (or the server's copy kept). */
  readonly putBack: (commandId: string, serverCopy?: StoredRecord) => Promise<void>
  /** Drops the least recently used records past `max`, keeping those a waiting command is about. */
  readonly evict: (max?: number) => Promise<number>
  readonly count: () => Promise<number>
  readonly close: () => void
}

const now = () => Date.now()

type Writing = IDBPTransaction<ConsoleDb, Array<"records" | "outbox">, "readwrite">

/**
 * Keeps the server's copy of a record, with the effects of this browser's waiting commands on it
 * in the order they were made: what the person decided stays visible until the server answers.
 */
const keepServerCopy = async (tx: Writing, copy: Omit<StoredRecord, "seenAt">): Promise<void> => {
  const waiting = await tx.objectStore("outbox").index("record").getAll([copy.kind, copy.id])
  if (waiting.length === 0) {
    await tx.objectStore("records").put({ ...copy, seenAt: now() })
    return
  }
  // The server's copy is what a refusal puts back; the effects stay on top of it.
  for (const command of waiting) {
    await tx.objectStore("outbox").put({ ...command, before: { ...copy, seenAt: now() } })
  }
  let fields: Readonly<Record<string, unknown>> | null = copy.fields
  for (const command of waiting) fields = command.effect === null ? null : { ...fields, ...command.effect }
  if (fields === null) await tx.objectStore("records").delete([copy.kind, copy.id])
  else await tx.objectStore("records").put({ ...copy, fields, seenAt: now() })
}

/** Opens this browser's store for `owner` (an admin id): another person's store is emptied first. */
export const openBrowserStore = async (owner: string, name: string = STORE_NAME): Promise<BrowserStore> => {
  const db: IDBPDatabase<ConsoleDb> = await openDB<ConsoleDb>(name, SCHEMA_VERSION, {
    upgrade(database) {
      const records = database.createObjectStore("records", { keyPath: ["kind", "id"] })
      records.createIndex("seenAt", "seenAt")
      database.createObjectStore("sets", { keyPath: "key" })
      const outbox = database.createObjectStore("outbox", { keyPath: "seq", autoIncrement: true })
      outbox.createIndex("commandId", "commandId", { unique: true })
      outbox.createIndex("record", ["kind", "recordId"])
      database.createObjectStore("meta")
    }
  })
  {
    const tx = db.transaction(["records", "sets", "outbox", "meta"], "readwrite")
    const held = await tx.objectStore("meta").get(OWNER)
    if (held !== owner) {
      // Nothing of another person stays: records, sets, their waiting commands, their position.
      await Promise.all([tx.objectStore("records").clear(), tx.objectStore("sets").clear(), tx.objectStore("outbox").clear(), tx.objectStore("meta").clear()])
      await tx.objectStore("meta").put(owner, OWNER)
    }
    await tx.done
  }

  const record = (kind: string, id: string) => db.get("records", [kind, id])

  const store: BrowserStore = {
    record,
    records: (kind, ids) => {
      const tx = db.transaction("records")
      return Promise.all(ids.map((id) => tx.store.get([kind, id])))
    },
    keep: async (kind, rows) => {
      const tx = db.transaction(["records", "outbox"], "readwrite")
      for (const row of rows) {
        const held = await tx.objectStore("records").get([kind, row.id])
        // A copy older than the one held (a page that left the server before a change arrived) is not kept.
        if (held !== undefined && held.version !== null && row.version !== null && row.version < held.version) continue
        await keepServerCopy(tx, { kind, id: row.id, version: row.version, fields: row.fields })
      }
      await tx.done
    },
    apply: async (change) => {
      const tx = db.transaction(["records", "outbox"], "readwrite")
      const records = tx.objectStore("records")
      const held = await records.get([change.kind, change.id])
      let outcome: ApplyOutcome
      if (change.fields === null) {
        if (held !== undefined) await records.delete([change.kind, change.id])
        outcome = held === undefined ? "ignored" : "applied"
      } else if (held !== undefined && held.version !== null && change.version !== null && change.version <= held.version) {
        outcome = "ignored"
      } else if (held === undefined || held.version === null || change.version === null || change.version === held.version + 1) {
        // The change brings the whole record: a new one, or the next version of the one held.
        await keepServerCopy(tx, { kind: change.kind, id: change.id, version: change.version, fields: change.fields })
        outcome = "applied"
      } else {
        // Versions were missed: the record is read again.
        outcome = "reread"
      }
      await tx.done
      return outcome
    },
    set: (key) => db.get("sets", key),
    keepSet: async (set) => {
      await db.put("sets", { ...set, at: now() })
    },
    lastEventId: () => db.get("meta", LAST_EVENT),
    keepLastEventId: async (id) => {
      await db.put("meta", id, LAST_EVENT)
    },
    enqueue: async (command) => {
      const tx = db.transaction(["records", "outbox"], "readwrite")
      const records = tx.objectStore("records")
      const shown = await records.get([command.kind, command.recordId])
      // What a refusal puts back: the server's copy, which an earlier waiting command already kept.
      const earlier = await tx.objectStore("outbox").index("record").get([command.kind, command.recordId])
      const before = earlier === undefined ? (shown ?? null) : earlier.before
      const made: OutboxCommand = { ...command, madeAt: now(), before }
      const seq = await tx.objectStore("outbox").add(made)
      if (command.effect === null) await records.delete([command.kind, command.recordId])
      else
        await records.put({
          kind: command.kind,
          id: command.recordId,
          version: shown?.version ?? null,
          fields: { ...shown?.fields, ...command.effect },
          seenAt: now()
        })
      await tx.done
      return { ...made, seq }
    },
    outbox: () => db.getAll("outbox"),
    settle: async (commandId) => {
      const tx = db.transaction("outbox", "readwrite")
      const seq = await tx.store.index("commandId").getKey(commandId)
      if (seq !== undefined) await tx.store.delete(seq)
      await tx.done
    },
    putBack: async (commandId, serverCopy) => {
      const tx = db.transaction(["records", "outbox"], "readwrite")
      const outbox = tx.objectStore("outbox")
      const seq = await outbox.index("commandId").getKey(commandId)
      const command = seq === undefined ? undefined : await outbox.get(seq)
      if (seq !== undefined) await outbox.delete(seq)
      const records = tx.objectStore("records")
      if (serverCopy !== undefined) await records.put({ ...serverCopy, seenAt: now() })
      else if (command?.before != null) await records.put({ ...command.before, seenAt: now() })
      else if (command !== undefined) await records.delete([command.kind, command.recordId])
      await tx.done
    },
    evict: async (max = DEFAULT_MAX_RECORDS) => {
      const tx = db.transaction(["records", "outbox"], "readwrite")
      const records = tx.objectStore("records")
      const over = (await records.count()) - max
      if (over <= 0) {
        await tx.done
        return 0
      }
      const waiting = new Set((await tx.objectStore("outbox").getAll()).map((command) => `${command.kind}\u0000${command.recordId}`))
      let dropped = 0
      let cursor = await records.index("seenAt").openCursor()
      while (cursor !== null && dropped < over) {
        if (!waiting.has(`${cursor.value.kind}\u0000${cursor.value.id}`)) {
          await cursor.delete()
          dropped++
        }
        cursor = await cursor.continue()
      }
      await tx.done
      return dropped
    },
    count: () => db.count("records"),
    close: () => db.close()
  }
  return store
}

/** Deletes this browser's store: at sign-out (docs/security.md, "What stays in the browser"). */
export const deleteBrowserStore = (name: string = STORE_NAME): Promise<void> => deleteDB(name)
