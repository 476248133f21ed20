import { kindKey } from "./kinds.ts"
import { type BrowserStore, DEFAULT_MAX_RECORDS, openBrowserStore } from "./browser-store.ts"
import { storedList } from "./lists.ts"
import { openOutbox } from "./outbox.ts"
import { recordSet, versionOf } from "./records.ts"
import type { ConsoleStore, Fields, RecordNews, StoredList, StoreTransport } from "./store-types.ts"
import { listenersOf } from "./listeners.ts"
import { openStream } from "./stream.ts"
import { joinTabs } from "./tabs.ts"

export type { Answered, CallAs, CallInput, CommandInput, ConsoleStore, RecordNews, StoredList, StoreTransport, StreamedChange } from "./store-types.ts"

/**
 * The console's event-sourced client (docs/architecture.md, "The browser's store"): the
 * server's copies of the records this browser has seen and the commands it has made but the
 * server has not answered. A screen shows a record as the server last said it with the waiting
 * commands' effects on top, in the order they were made, so a decision shows the moment it is
 * made. Its parts, each in its own module:
 * - ./records.ts: the copies in memory and what a screen sees of them;
 * - ./outbox.ts: the commands, kept in IndexedDB (./browser-store.ts) and sent one at a time
 *   through the sync machine (machines/sync.ts) with their keys;
 * - ./tabs.ts: the tabs of one browser (one sends at a time, one listens to the stream);
 * - ./stream.ts: the server's changes keeping the copies current;
 * - ./lists.ts: a list screen's rows and when to read them again.
 * This module puts them together. Every tab has one store; the outbox is the browser's.
 */

/** Bytes of a record as the store keeps it, for the bench (docs/performance.md). */
export const recordBytes = (fields: Fields) => new Blob([JSON.stringify(fields)]).size

export const openConsoleStore = async (options: {
  readonly owner: string
  readonly transport: StoreTransport
  /** The IndexedDB database's name (tests give their own). */
  readonly name?: string
  /** Copies held in memory at most, as IndexedDB's bound (the least recently kept go; tests give a small one). */
  readonly maxCopies?: number
}): Promise<ConsoleStore> => {
  const db: BrowserStore = await openBrowserStore(options.owner, options.name)
  const { transport } = options
  const tabs = joinTabs(options.owner)

  let version = 0
  const changed = listenersOf<() => void>()
  const news = listenersOf<(news: RecordNews) => void>()
  const bump = () => {
    version++
    changed.each()
  }
  const tell = news.each
  /** IndexedDB writes, in the order they were asked for. */
  let written: Promise<unknown> = Promise.resolve()
  const write = (step: () => Promise<unknown>) => {
    written = written.then(step).catch(() => undefined)
    return written
  }

  const records = recordSet(options.maxCopies ?? DEFAULT_MAX_RECORDS, () => outbox.outbox())
  const stored = await db.outbox()
  const outbox = openOutbox({ db, transport, records, tabs, stored, write, written: () => written, bump, tell })
  outbox.start(await db.conflicts())
  const stream = await openStream({ db, transport, records, tabs, sync: outbox.sync, write, bump, tell })
  tabs.hear((message) => {
    if (message.type === "outbox") void outbox.reread()
    else if (message.type === "answered") outbox.heard(message.commandId, message.answer)
    else stream.heard(message)
  })
  tabs.lead(stream.lead)

  const lists = new Map<string, StoredList>()
  const { sync, call, abandon, dismiss, applyAgain, namedVersion, onRefusal } = outbox
  const store: ConsoleStore = {
    sync,
    call,
    abandon,
    dismiss,
    applyAgain,
    namedVersion,
    onRefusal,
    outbox: outbox.outbox,
    owner: options.owner,
    lists: (kind, title, idOf) => {
      const key = `${kindKey(kind)}\u0000${title}`
      const held = lists.get(key) ?? storedList(store, stream, kind, title, idOf)
      lists.set(key, held)
      return held
    },
    version: () => version,
    subscribe: changed.add,
    onNews: news.add,
    view: records.view,
    held: (kind, id) => records.held(kind, id)?.fields,
    waiting: (kind, id) => outbox.outbox().some((command) => command.kind === kind && command.recordIds.includes(id)),
    nextVersion: records.nextVersion,
    settled: (kind, id) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (kind === undefined || id === undefined ? outbox.outbox().length > 0 : store.waiting(kind, id)) return
          stop()
          resolve()
        }
        const stop = changed.add(check)
        check()
      }),
    keepPage: (kind, key, rows, extra) => {
      const kept = rows
        .filter((row) => records.keep(kind, row.id, row.fields))
        .map((row) => ({ id: row.id, version: versionOf(row.fields), fields: row.fields }))
      void write(async () => {
        await db.keep(kind, kept)
        await db.keepSet({ key, kind, ids: rows.map((row) => row.id), extra })
        await db.evict()
      })
    },
    keptPage: async (key) => {
      const kept = await db.page(key)
      if (kept === undefined) return undefined
      const { set, records: held } = kept
      if (held.some((record) => record === undefined)) return undefined
      return { rows: held.map((record) => record?.fields ?? {}), extra: set.extra }
    },
    command: (input) => outbox.enqueue(input, true),
    applyChange: (change) => stream.applyChange(change),
    close: () => {
      tabs.close()
      stream.close()
      outbox.sync.stop()
      db.close()
    }
  }
  return store
}
