import { type DBSchema, deleteDB, type IDBPDatabase, openDB } from "idb"
import type { Refusal } from "../../../machines/sync.ts"

/**
 * The console's store in the browser (docs/architecture.md, "The browser's store"): the
 * records it has seen, keyed by kind and id with their versions, its working sets (a list page,
 * a queue), the outbox of commands not yet answered, and the last event id it applied. It lives
 * in IndexedDB through `idb` (docs/decisions.md, "The browser's store"), belongs to one person
 * and is emptied when another signs in; protected data never enters it.
 */

/** A record as the store keeps it: what the server last said of it. */
export interface StoredRecord {
  readonly kind: string
  readonly id: string
  /** The server's version of `fields`; null for a record whose kind keeps none. */
  readonly version: number | null
  readonly fields: Readonly<Record<string, unknown>>
  /** When a screen last read or the server last changed it: the least recently used go first. */
  readonly seenAt: number
}

/** A record as a screen or the stream hands it over to be kept. */
export type KeptRecord = Pick<StoredRecord, "id" | "version" | "fields">

/** A list page or a queue as a screen last showed it: its rows' ids in order, and what came with them. */
export interface WorkingSet {
  readonly key: string
  readonly kind: string
  readonly ids: ReadonlyArray<string>
  /** The pagination, the counts: whatever the screen showed beside the rows. */
  readonly extra: unknown
  readonly at: number
}

/**
 * A value in a command's body filled in when it is sent: what the answer to an earlier command
 * said (an undo names the event its change made). `path` is dot-separated; a segment `[id]`
 * picks the element of an array whose `_id` is id.
 */
export interface FromAnswer {
  readonly $answerOf: string
  readonly $path: string
}

/** A command made in this browser and not yet answered by the server, in the order it was made. */
export interface OutboxCommand {
  readonly seq?: number
  /** Made in the browser; sent as the `Idempotency-Key` (docs/api.md, "Commands, exactly once"). */
  readonly commandId: string
  readonly kind: string
  /** The records it changes (one, or a selection's). */
  readonly recordIds: ReadonlyArray<string>
  /** `kind` and each id, for the index that finds a record's waiting commands. */
  readonly records: ReadonlyArray<string>
  readonly method: "POST" | "PUT" | "PATCH" | "DELETE"
  readonly path: string
  readonly body: unknown
  readonly madeAt: number
  /** What the command does to each record's fields (null: deletes it), shown over the server's copy until answered. */
  readonly effect: Readonly<Record<string, unknown>> | null
  /** The screen's words for it ("Approve \"Pi Club\""), and for its refusal ("Failed to update status"). */
  readonly label: string
  readonly failed: string
  /** Where the answer carries the records after it ("data.listing", "data.listings"): kept as the server's copies. */
  readonly answer?: string
  /** The tab whose screen waits for the answer and says a refusal itself (a form's save): no alert while it lives. */
  readonly tab?: string
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

/** A record's key in a command's `records`. */
export const recordKey = (kind: string, id: string) => `${kind}\u0000${id}`

interface ConsoleDb extends DBSchema {
  records: { key: [string, string]; value: StoredRecord; indexes: { seenAt: number } }
  sets: { key: string; value: WorkingSet }
  outbox: { key: number; value: OutboxCommand; indexes: { commandId: string; record: string } }
  /** The answers of commands an undo may still name, by command id. */
  answers: { key: string; value: { readonly commandId: string; readonly answer: unknown; readonly at: number } }
  meta: { key: string; value: string }
}

export const STORE_NAME = "console-store"
const SCHEMA_VERSION = 2
const OWNER = "owner"
const LAST_EVENT = "lastEventId"
/** A refused change kept for the person, under its command's id (JSON of its `Refusal`). */
const CONFLICT = "conflict:"

/** Records kept at most; past it the least recently used go (docs/performance.md, the store's bound). */
export const DEFAULT_MAX_RECORDS = 20_000

export interface BrowserStore {
  readonly records: (kind: string, ids: ReadonlyArray<string>) => Promise<ReadonlyArray<StoredRecord | undefined>>
  readonly record: (kind: string, id: string) => Promise<StoredRecord | undefined>
  /** Keeps records the server sent (a page, an opened record, an answer), newer versions only. */
  readonly keep: (kind: string, rows: ReadonlyArray<KeptRecord>) => Promise<void>
  readonly apply: (change: AppliedChange) => Promise<ApplyOutcome>
  readonly keepSet: (set: Omit<WorkingSet, "at">) => Promise<void>
  /** A working set with its records as kept (undefined where one is not), in one read. */
  readonly page: (key: string) => Promise<{ readonly set: WorkingSet; readonly records: ReadonlyArray<StoredRecord | undefined> } | undefined>
  readonly lastEventId: () => Promise<string | undefined>
  readonly keepLastEventId: (id: string) => Promise<void>
  /** Writes the command to the outbox, after every command made before it. */
  readonly enqueue: (command: Omit<OutboxCommand, "seq" | "madeAt" | "records">) => Promise<OutboxCommand>
  readonly outbox: () => Promise<ReadonlyArray<OutboxCommand>>
  /** The command was answered or refused: it leaves the outbox; an answer an undo may name is kept. */
  readonly settle: (commandId: string, answer?: unknown) => Promise<void>
  readonly answerOf: (commandId: string) => Promise<unknown>
  /** A refused change the person may apply again (a conflict, with what was sent): kept until they apply it or let it go. */
  readonly keepConflict: (refusal: Refusal) => Promise<void>
  readonly conflicts: () => Promise<ReadonlyArray<Refusal>>
  readonly dropConflict: (commandId: string) => Promise<void>
  /** Drops the least recently used records past `max`, keeping those a waiting command is about. */
  readonly evict: (max?: number) => Promise<number>
  readonly count: () => Promise<number>
  readonly close: () => void
}

const now = () => Date.now()

/** Answers kept for undo, longer than any undo window (machines/listing-moderation.ts: 10 s). */
const ANSWERS_KEPT_MS = 10 * 60_000

/**
 * Opens this browser's store for `owner` (an admin id): another person's store is emptied first.
 * It holds the server's copies only; what waiting commands make of them is worked out in memory
 * (./console-store.ts), so a refusal has nothing to undo here.
 */
const open = (name: string) =>
  openDB<ConsoleDb>(name, SCHEMA_VERSION, {
    upgrade(database) {
      // Version 1 kept waiting effects in the records: nothing of it is worth keeping.
      for (const old of [...database.objectStoreNames]) database.deleteObjectStore(old)
      const records = database.createObjectStore("records", { keyPath: ["kind", "id"] })
      records.createIndex("seenAt", "seenAt")
      database.createObjectStore("sets", { keyPath: "key" })
      const outbox = database.createObjectStore("outbox", { keyPath: "seq", autoIncrement: true })
      outbox.createIndex("commandId", "commandId", { unique: true })
      outbox.createIndex("record", "records", { multiEntry: true })
      database.createObjectStore("answers", { keyPath: "commandId" })
      database.createObjectStore("meta")
    }
  })

export const openBrowserStore = async (owner: string, name: string = STORE_NAME): Promise<BrowserStore> => {
  const db: IDBPDatabase<ConsoleDb> = await open(name)
  // Read first, without a lock on every store: a reload of the same person's console writes nothing here.
  if ((await db.get("meta", OWNER)) !== owner) {
    const tx = db.transaction(["records", "sets", "outbox", "answers", "meta"], "readwrite")
    const held = await tx.objectStore("meta").get(OWNER)
    if (held !== owner) {
      // Nothing of another person stays: records, sets, their waiting commands, their position.
      await Promise.all(["records", "sets", "outbox", "answers", "meta"].map((one) => tx.objectStore(one as "meta").clear()))
      await tx.objectStore("meta").put(owner, OWNER)
    }
    await tx.done
  }

  const store: BrowserStore = {
    record: (kind, id) => db.get("records", [kind, id]),
    records: (kind, ids) => {
      const tx = db.transaction("records")
      return Promise.all(ids.map((id) => tx.store.get([kind, id])))
    },
    keep: async (kind, rows) => {
      const tx = db.transaction("records", "readwrite")
      // Every request of the batch at once (one round of the transaction, not one per record).
      const held = await Promise.all(rows.map((row) => tx.store.get([kind, row.id])))
      const at = now()
      const puts = rows.flatMap((row, index) => {
        const old = held[index]
        // A copy older than the one held (a page that left the server before a change arrived) is not kept.
        if (old !== undefined && old.version !== null && row.version !== null && row.version < old.version) return []
        return [tx.store.put({ kind, id: row.id, version: row.version, fields: row.fields, seenAt: at })]
      })
      await Promise.all([...puts, tx.done])
    },
    apply: async (change) => {
      const tx = db.transaction("records", "readwrite")
      const held = await tx.store.get([change.kind, change.id])
      let outcome: ApplyOutcome
      if (change.fields === null) {
        if (held !== undefined) await tx.store.delete([change.kind, change.id])
        outcome = held === undefined ? "ignored" : "applied"
      } else if (held !== undefined && held.version !== null && change.version !== null && change.version <= held.version) {
        outcome = "ignored"
      } else if (held === undefined || held.version === null || change.version === null || change.version === held.version + 1) {
        // The change brings the whole record: a new one, or the next version of the one held.
        await tx.store.put({ kind: change.kind, id: change.id, version: change.version, fields: change.fields, seenAt: now() })
        outcome = "applied"
      } else {
        // Versions were missed: the record is read again.
        outcome = "reread"
      }
      await tx.done
      return outcome
    },
    page: async (key) => {
      // One transaction for the set and its records: a screen seen before reads its rows in one round.
      const tx = db.transaction(["sets", "records"])
      const set = await tx.objectStore("sets").get(key)
      if (set === undefined) return undefined
      const records = tx.objectStore("records")
      return { set, records: await Promise.all(set.ids.map((id) => records.get([set.kind, id]))) }
    },
    keepSet: (set) => db.put("sets", { ...set, at: now() }).then(() => undefined),
    lastEventId: () => db.get("meta", LAST_EVENT),
    keepLastEventId: (id) => db.put("meta", id, LAST_EVENT).then(() => undefined),
    enqueue: async (command) => {
      const made = { ...command, records: command.recordIds.map((id) => recordKey(command.kind, id)), madeAt: now() }
      const seq = await db.add("outbox", made)
      return { ...made, seq }
    },
    outbox: () => db.getAll("outbox"),
    settle: async (commandId, answer) => {
      const tx = db.transaction(["outbox", "answers"], "readwrite")
      const seq = await tx.objectStore("outbox").index("commandId").getKey(commandId)
      if (seq !== undefined) await tx.objectStore("outbox").delete(seq)
      const answers = tx.objectStore("answers")
      if (answer !== undefined) await answers.put({ commandId, answer, at: now() })
      // Answers no undo can name any more go.
      for (let cursor = await answers.openCursor(); cursor !== null; cursor = await cursor.continue())
        if (cursor.value.at < now() - ANSWERS_KEPT_MS) await cursor.delete()
      await tx.done
    },
    answerOf: async (commandId) => (await db.get("answers", commandId))?.answer,
    keepConflict: async (refusal) => {
      await db.put("meta", JSON.stringify(refusal), `${CONFLICT}${refusal.commandId}`)
    },
    conflicts: async () => (await db.getAll("meta", IDBKeyRange.bound(CONFLICT, `${CONFLICT}\uffff`))).map((kept) => JSON.parse(kept) as Refusal),
    dropConflict: (commandId) => db.delete("meta", `${CONFLICT}${commandId}`),
    evict: async (max = DEFAULT_MAX_RECORDS) => {
      const tx = db.transaction(["records", "outbox"], "readwrite")
      const records = tx.objectStore("records")
      const over = (await records.count()) - max
      if (over <= 0) {
        await tx.done
        return 0
      }
      const waiting = new Set((await tx.objectStore("outbox").getAll()).flatMap((command) => command.records))
      // The least recently used keys, enough to drop `over` past those a waiting command is about, deleted in one batch.
      const oldest = await records.index("seenAt").getAllKeys(null, over + waiting.size)
      const dropping = oldest.filter(([kind, id]) => !waiting.has(recordKey(kind, id))).slice(0, over)
      await Promise.all([...dropping.map((key) => records.delete(key)), tx.done])
      return dropping.length
    },
    count: () => db.count("records"),
    close: () => db.close()
  }
  return store
}

/** Deletes this browser's store: at sign-out (docs/security.md, "What stays in the browser"). */
export const deleteBrowserStore = (name: string = STORE_NAME): Promise<void> => deleteDB(name)

/**
 * The server ended the session (docs/security.md, "What stays in the browser"): every record, page
 * and kept answer goes, and the stream's position; the commands the person made and the server has
 * not answered stay, for their own next sign-in in this browser (another person's empties them,
 * `openBrowserStore`). Resolves with how many wait. Call it once every store open here is closed,
 * so no write of theirs lands after it.
 */
export const forgetRecords = async (name: string = STORE_NAME): Promise<number> => {
  if ((await indexedDB.databases?.())?.some((one) => one.name === name) === false) return 0
  const db = await open(name)
  try {
    const tx = db.transaction(["records", "sets", "answers", "outbox", "meta"], "readwrite")
    const waiting = await tx.objectStore("outbox").count()
    const meta = tx.objectStore("meta")
    await Promise.all([
      tx.objectStore("records").clear(),
      tx.objectStore("sets").clear(),
      tx.objectStore("answers").clear(),
      meta.delete(LAST_EVENT),
      // Nothing waits: the store belongs to nobody any more.
      waiting === 0 ? meta.delete(OWNER) : undefined,
      tx.done
    ])
    return waiting
  } finally {
    db.close()
  }
}
