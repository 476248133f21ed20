import { createActor, fromPromise } from "xstate"
import { saidWith } from "../../../contract/call-failure.ts"
import { type ListPage, type ListQuery, queryKey } from "../../../machines/list.ts"
import { type Refusal, type SendOutcome, syncMachine } from "../../../machines/sync.ts"
import { ANY_KIND, kindKey, type StoreKind } from "./kinds.ts"
import { type BrowserStore, DEFAULT_MAX_RECORDS, type FromAnswer, type OutboxCommand, openBrowserStore, recordKey } from "./browser-store.ts"

/**
 * The console's event-sourced client (docs/architecture.md, "The browser's store"): the
 * server's copies of the records this browser has seen and the commands it has made but the
 * server has not answered. A screen shows a record as the server last said it with the waiting
 * commands' effects on top, in the order they were made, so a decision shows the moment it is
 * made. The copies and the outbox live in IndexedDB (./browser-store.ts), the outbox goes out
 * through the sync machine (machines/sync.ts) one command at a time with its key, and the
 * server's change stream keeps the copies current. Every tab has one; the outbox is the
 * browser's, sent under one Web Lock so two tabs never send the same command at once.
 */

/** A change as the stream delivers it (src/api/change-stream.ts, `Change`), in the store's words. */
export interface StreamedChange {
  readonly id: string
  readonly type: string
  /** The list the record belongs to (a listing's type), as contract/stream.ts says. */
  readonly kind: string
  /** The changed fields' new values. */
  readonly changes: Readonly<Record<string, unknown>>
  /** The record's kind in the store: the stream's area ("listing"). */
  readonly area: string
  readonly entityId: string
  readonly version: number | null
  readonly fields: Readonly<Record<string, unknown>> | null
}

/** What the server said to a command. */
export interface Answered {
  readonly status: number
  readonly body: unknown
  /** The server's words for a refusal. */
  readonly message: string
  /** A busy server's wait (503, 429), in ms. */
  readonly retryAfterMs: number
}

/** How the store reaches the server: provided by the app (src/app/store.ts), the API's layer. */
export interface StoreTransport {
  /** Sends one command with its key; rejects when the network lost it. */
  readonly send: (command: { readonly commandId: string; readonly method: string; readonly path: string; readonly body: unknown }) => Promise<Answered>
  /**
   * Listens to the server's changes after `after`; `ready` once the stream is live, with the
   * event id it is at (resumed from on the next load) and whether its catch-up brought all that
   * followed `after` (false: too much was missed, the lists read again). Returns the way to stop.
   */
  readonly listen: (after: string | undefined, change: (change: StreamedChange) => void, ready: (position?: string, complete?: boolean) => void) => () => void
  /** A 401: the session ended (the commands wait for the same person's next session). */
  readonly sessionEnded: () => void
}

/** What a screen asks the store to do: a command, and its effect on the records it names. */
export interface CommandInput {
  /** Made here unless the screen made it (a machine that names the command: an undo refers to it). */
  readonly commandId?: string
  readonly kind: string
  readonly recordIds: ReadonlyArray<string>
  readonly method: OutboxCommand["method"]
  readonly path: string
  readonly body: unknown
  readonly effect: Readonly<Record<string, unknown>> | null
  readonly label: string
  readonly failed: string
  readonly answer?: string
  /** The tab waiting for the answer (`call`, quiet). */
  readonly tab?: string
}

/**
 * A call a screen waits on (a form's save, a confirmation's delete), sent as a command: after
 * every command made before it, with its key, kept across a reload until answered.
 */
export interface CallInput extends Omit<CommandInput, "commandId" | "tab"> {
  /** The screen says a refusal itself (a form's fields): no alert while this tab lives. */
  readonly quiet: boolean
  /**
   * The version it names is the record's as shown when the person acted (a key, a move), as a
   * command's is: the store names the one the record will be at when it arrives. Without it,
   * the version is the one a form opened at, kept, so a colleague's change since is refused.
   */
  readonly fromShown?: boolean
  /**
   * Called once the command is in IndexedDB while the link is down (then or later, before its
   * answer): the screen may go as after a save, its effect shown on the record; the console's
   * shell says a refusal when the link is back.
   */
  readonly kept?: () => void
}

/** What a call is to the store, besides the request: the records it changes and how, in the screen's words. */
export type CallAs = Omit<CallInput, "method" | "path" | "body">

/** Something the store heard about a record: the screens holding it look again. */
export interface RecordNews {
  readonly kind: string
  readonly id: string
  /** The store now has the record's whole fields (else it must be read again). */
  readonly whole: boolean
  /** The version the news is of, when known; whether the record is gone. */
  readonly version: number | null
  readonly deleted: boolean
}

type Fields = Readonly<Record<string, unknown>>

/** The area whose records are never kept in the browser. */
const PROTECTED_AREA = "protected-data"

/** How many copies past the bound go at once: trimming is a walk over the copies, not done on every keep. */
const TRIM_BATCH = 1_000

/** How long a list waits after a change in its kind before its rows are read again, quietly (changes come in bursts). */
const REREAD_AFTER_MS = 400

/**
 * One list screen's way into the store (src/lib/list/use-list-screen.ts): kept out of the first
 * screen's code with the rest of the store.
 */
export interface StoredList {
  /** The page kept for the query, if every record of it is still held: shown while the server is asked. */
  readonly kept: (query: ListQuery) => Promise<ListPage | undefined>
  /** Keeps a page the server sent (not one the store gave) for the next visit. */
  readonly keep: (query: ListQuery, page: ListPage | null) => void
  /**
   * Calls `reread` once changes in the kind have stopped coming for a moment, if the rows shown
   * then do not have one of them yet (`unseen`; without it, always), and calls `back` (else
   * `reread`) when the link is back after a drop. While the list's own read is in flight
   * (`reading`) the news waits for its rows: a screen's read after its own save brings the record
   * its event names, and a second read would be one too many. Rows read before this tab heard
   * every change (`readSince`, against the stream going live on a first visit or in a tab that
   * follows another) are read again once it does: a change in between reached neither. Returns
   * the way to stop.
   */
  readonly watch: (
    reread: () => void,
    options?: {
      readonly unseen?: (news: RecordNews) => boolean
      readonly back?: () => void
      readonly reading?: () => boolean
      /** When the rows shown began to be read (performance.now()). */
      readonly readSince?: () => number
      /** The list's last read failed: it is read again each time the stream is live again. */
      readonly failed?: () => boolean
    }
  ) => () => void
  /** The rows as shown: the newest copies, this browser's waiting commands on top, those it deletes gone. */
  readonly rows: (rows: ReadonlyArray<unknown>) => ReadonlyArray<unknown>
  readonly waiting: (row: unknown) => boolean
  /** Rows whose `field` differs between the page and what is shown: each moves one count (`countsOf`). */
  readonly moved: (field: string | undefined, page: ReadonlyArray<unknown>, shown: ReadonlyArray<unknown>) => ReadonlyArray<readonly [from: string, to: string]>
}

export interface ConsoleStore {
  readonly owner: string
  /** Bumped whenever what a screen shows may differ (`useSyncExternalStore`'s snapshot). */
  readonly version: () => number
  readonly subscribe: (listener: () => void) => () => void
  /** News of records (a change arrived, a command was answered or refused). */
  readonly onNews: (listener: (news: RecordNews) => void) => () => void
  /** The server refused a command this browser made (its records are already back as the server has them). */
  readonly onRefusal: (listener: (refusal: Refusal) => void) => () => void
  /**
   * The record as the person should see it: `row` (a page's copy) or the store's newer one, with
   * the waiting commands' effects; null when a waiting command deletes it.
   */
  readonly view: <Row extends object>(kind: string, id: string, row: Row) => Row | null
  /** The record as the server last said it, if this browser holds it. */
  readonly held: (kind: string, id: string) => Fields | undefined
  /** Whether a command about the record waits for the server's answer. */
  readonly waiting: (kind: string, id: string) => boolean
  /** The server's version of the record, as this browser knows it, counting the waiting commands that each make one. */
  readonly nextVersion: (kind: string, id: string, seen: number) => number
  /** The version a waiting command names (as the store worked it out: `command`), if it names one. */
  readonly namedVersion: (commandId: string) => number | undefined
  /** Resolves once no command about the record waits (a form's save goes after the keys pressed before it), or none at all without a record. */
  readonly settled: (kind?: string, id?: string) => Promise<void>
  /** Keeps what a page brought: its records, and the page under `key` for the next visit. */
  readonly keepPage: (kind: string, key: string, rows: ReadonlyArray<{ readonly id: string; readonly fields: Fields }>, extra: unknown) => void
  /** The page kept under `key`, every record of it still held; undefined otherwise. */
  readonly keptPage: (key: string) => Promise<{ readonly rows: ReadonlyArray<Fields>; readonly extra: unknown } | undefined>
  /**
   * Applies a command's effect at once, writes it to the outbox and sends it; its id. The version
   * it names is the record's as shown: the store names the one the record will be at.
   */
  readonly command: (input: CommandInput) => string
  /** `command`, resolving with the server's answer once it is answered (a refusal too); waits while the link is down. */
  readonly call: (input: CallInput) => Promise<Answered>
  /** The screen waiting for this tab's calls has gone (a form closed while saving): the shell says their refusals. */
  readonly abandon: () => void
  /** Lets a refusal go: its notice, and a refused change kept for the person (`Refusal.retry`). */
  readonly dismiss: (refusal: Refusal) => void
  /** Sends a refused change again, as it was, at the version the record is at now: the person's words over their colleague's. */
  readonly applyAgain: (refusal: Refusal) => void
  /** The commands waiting, in order. */
  readonly outbox: () => ReadonlyArray<OutboxCommand>
  readonly sync: ReturnType<typeof createActor<typeof syncMachine>>
  /** Applies a streamed change (the store's own stream does; tests and other tabs too). */
  readonly applyChange: (change: StreamedChange) => void
  /** Every change the stream brings (this tab's own stream, or the leading tab's). Returns the way to stop. */
  readonly onChange: (listener: (change: StreamedChange) => void) => () => void
  /** The list screen `title`'s way into the store, for rows of `kind` named by `idOf` (one per screen, made once). */
  readonly lists: (kind: StoreKind, title: string, idOf: (row: unknown) => string) => StoredList
  readonly close: () => void
}

/** Bytes of a record as the store keeps it, for the bench (docs/performance.md). */
export const recordBytes = (fields: Fields) => new Blob([JSON.stringify(fields)]).size

const versionOf = (fields: Fields): number | null => (typeof fields.version === "number" ? fields.version : null)

/** What `path` picks in an answer: dot-separated, `[id]` the element whose `_id` is id. */
const pick = (answer: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((at, segment) => {
    if (at === null || typeof at !== "object") return undefined
    const id = /^\[(.+)\]$/u.exec(segment)?.[1]
    if (id !== undefined) return Array.isArray(at) ? at.find((one: unknown) => (one as { _id?: unknown })._id === id) : undefined
    return (at as Record<string, unknown>)[segment]
  }, answer)

/** A command's path and body naming `version` where they named the version they were read at (a body's `version`, a `?version=`). */
const atVersion = (path: string, body: unknown, version: number) => ({
  path: path.replace(/([?&]version=)\d+/u, `$1${version}`),
  body: body !== null && typeof body === "object" && !Array.isArray(body) && "version" in body ? { ...body, version } : body
})

/** The version a command names (its body's `version`, else its path's `?version=`), if it names one. */
const versionNamed = (path: string, body: unknown): number | undefined => {
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

const isFromAnswer = (value: unknown): value is FromAnswer => typeof value === "object" && value !== null && "$answerOf" in value && "$path" in value

/** A refusal the console itself makes: a command naming an answer the server never gave. */
class Unanswerable extends Error {}

export const openConsoleStore = async (options: {
  readonly owner: string
  readonly transport: StoreTransport
  /** The IndexedDB database's name (tests give their own). */
  readonly name?: string
  /** Copies held in memory at most, as IndexedDB's bound (the least recently kept go; tests give a small one). */
  readonly maxCopies?: number
}): Promise<ConsoleStore> => {
  const maxCopies = options.maxCopies ?? DEFAULT_MAX_RECORDS
  const db: BrowserStore = await openBrowserStore(options.owner, options.name)
  const { transport } = options
  const copies = new Map<string, { readonly version: number | null; readonly fields: Fields }>()
  let outbox: Array<OutboxCommand> = [...(await db.outbox())]
  const answers = new Map<string, unknown>()
  let version = 0
  const listeners = new Set<() => void>()
  const newsListeners = new Set<(news: RecordNews) => void>()
  const reconnected = new Set<() => void>()
  const refusalListeners = new Set<(refusal: Refusal) => void>()
  /** This tab while it lives (a Web Lock held until it closes): another tab that sends a command it waits on tells it the answer. */
  const tab = crypto.randomUUID()
  /** Screens of this tab waiting for a command's answer. */
  const waiters = new Map<string, (answer: Answered) => void>()
  /** Calls whose screen has gone before their answer. */
  const abandoned = new Set<string>()
  /** Records this browser deleted or heard deleted: not shown even while a page read before still holds them. */
  /** Each with the version it had when deleted (null when not known). */
  const gone = new Map<string, number | null>()
  const bump = () => {
    version++
    for (const listener of listeners) listener()
  }
  const tell = (news: RecordNews) => {
    for (const listener of newsListeners) listener(news)
  }
  const channel = typeof BroadcastChannel === "undefined" ? undefined : new BroadcastChannel(`console-store:${options.owner}`)
  /** Commands answered whose settling write may not be in IndexedDB yet: a read of the outbox leaves them out. */
  const answered = new Set<string>()
  /** Commands made here and not yet in IndexedDB: a read of the outbox keeps them. */
  const unwritten = new Map<string, OutboxCommand>()
  /** Another tab changed the outbox, or this one is about to send: read it again. */
  const rereadOutbox = async () => {
    const stored = await db.outbox()
    const ids = new Set(stored.map((command) => command.commandId))
    // Answered, and still in IndexedDB until the settling write is in: not waiting any more.
    for (const id of answered) if (!ids.has(id)) answered.delete(id)
    outbox = [...stored, ...[...unwritten.values()].filter((command) => !ids.has(command.commandId))].filter((command) => !answered.has(command.commandId))
    // Another tab's commands are this tab's to send too, also once that tab has gone.
    sync.send({ type: "OUTBOX_READ", pending: outbox.length })
    bump()
  }
  /** What the tabs of one browser tell each other (one of them leads the stream). */
  type TabMessage =
    | { readonly type: "outbox" }
    | { readonly type: "change"; readonly change: StreamedChange }
    | { readonly type: "ready"; readonly position?: string; readonly complete?: boolean }
    | { readonly type: "hello" }
    | { readonly type: "answered"; readonly commandId: string; readonly answer: Answered }
  const tellTabs = (message: TabMessage) => channel?.postMessage(message)
  /** IndexedDB writes, in the order they were asked for. */
  let written: Promise<unknown> = Promise.resolve()
  const write = (step: () => Promise<unknown>) => {
    written = written.then(step).catch(() => undefined)
    return written
  }

  /** Past the bound (and a batch more), the copies kept longest ago go, but none a waiting command is about. */
  const trimCopies = () => {
    if (copies.size <= maxCopies + TRIM_BATCH) return
    const waitingOn = new Set(outbox.flatMap((command) => command.records))
    for (const key of copies.keys()) {
      if (copies.size <= maxCopies) break
      if (!waitingOn.has(key)) copies.delete(key)
    }
  }

  /** `later`: the stream's change, made after anything this browser heard (a restore brings a deleted record back). */
  const keepCopy = (kind: string, id: string, fields: Fields, later = false) => {
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
    trimCopies()
    return true
  }

  /**
   * Calls `kept` once the call's command is written (the IndexedDB writes go in order) while the
   * link is down, unless its answer came first; its screen has gone then, so the shell says a refusal.
   */
  const keptOffline = (commandId: string, kept: () => void) =>
    void written.then(() => {
      const check = (snapshot: ReturnType<typeof sync.getSnapshot>) => {
        if (!waiters.has(commandId)) return true
        if (!snapshot.matches({ link: "offline" })) return false
        abandoned.add(commandId)
        kept()
        return true
      }
      if (check(sync.getSnapshot())) return
      const subscription = sync.subscribe((snapshot) => check(snapshot) && subscription.unsubscribe())
    })

  const view = <Row extends object>(kind: string, id: string, row: Row): Row | null => {
    if (gone.has(recordKey(kind, id))) return null
    const held = copies.get(recordKey(kind, id))
    const rowVersion = versionOf(row as Fields)
    let fields: Fields | null =
      held !== undefined && (rowVersion === null || (held.version !== null && held.version > rowVersion)) ? held.fields : (row as Fields)
    for (const command of outbox)
      if (command.kind === kind && command.recordIds.includes(id)) fields = command.effect === null ? null : { ...fields, ...command.effect }
    return fields as Row | null
  }

  const settled = (commandId: string) => {
    answered.add(commandId)
    outbox = outbox.filter((command) => command.commandId !== commandId)
  }

  /** The body as sent: values an earlier answer gives filled in. */
  const resolved = async (body: unknown): Promise<unknown> => {
    if (isFromAnswer(body)) {
      const answer = answers.get(body.$answerOf) ?? (await db.answerOf(body.$answerOf))
      const value = pick(answer, body.$path)
      if (value === undefined) throw new Unanswerable("The change it undoes was not made.")
      return value
    }
    if (Array.isArray(body)) return Promise.all(body.map(resolved))
    if (body !== null && typeof body === "object")
      return Object.fromEntries(await Promise.all(Object.entries(body).map(async ([key, value]) => [key, await resolved(value)] as const)))
    return body
  }

  /**
   * Keeps the records an answer carries (whole, or a bulk answer's changed fields over the held
   * copy). A command that names no place in its answer (a form's save) keeps the record of its
   * own id the answer's `data` holds, so the next command on it names the version just made.
   */
  const keepAnswered = (command: OutboxCommand, answer: unknown) => {
    const carried = command.answer === undefined ? ownRecord(answer, command.recordIds) : pick(answer, command.answer)
    if (carried === undefined) return
    const records = (Array.isArray(carried) ? carried : [carried]).filter(
      (one): one is Fields & { readonly _id: string } => typeof one === "object" && one !== null && typeof (one as Fields)._id === "string"
    )
    const kept: Array<{ readonly id: string; readonly version: number | null; readonly fields: Fields }> = []
    for (const record of records) {
      const held = copies.get(recordKey(command.kind, record._id))
      const fields = { ...held?.fields, ...record }
      if (keepCopy(command.kind, record._id, fields)) kept.push({ id: record._id, version: versionOf(fields), fields })
    }
    void write(() => db.keep(command.kind, kept))
  }

  /** The server took the command (any other answer that reaches here refused it). */
  const isDone = (answer: Answered) => answer.status >= 200 && answer.status < 300

  /**
   * A refusal in the words of the command that was refused. A conflict (409 naming the record's
   * version now) keeps what was sent (`body`, resolved), so the person may send it again at that
   * version; it is kept in the browser until they do or let it go.
   */
  const refusalOf = (command: OutboxCommand, answer: Answered, body: unknown): Refusal => {
    const refusal: Refusal = {
      commandId: command.commandId,
      kind: command.kind,
      recordId: command.recordIds[0] ?? "",
      label: command.label,
      status: answer.status,
      message: saidWith(command.failed, answer)
    }
    const now = (answer.body as { readonly currentVersion?: unknown } | null | undefined)?.currentVersion
    if (answer.status !== 409 || typeof now !== "number" || command.recordIds.length !== 1) return refusal
    const retry = { method: command.method, path: command.path, body, version: now, failed: command.failed, answer: command.answer }
    void write(() => db.keepConflict({ ...refusal, retry }))
    return { ...refusal, retry }
  }

  const sendFirst = async (): Promise<SendOutcome> => {
    await written
    // Every tab's commands are the browser's outbox: read it under the lock, send its first.
    await rereadOutbox()
    const command = outbox[0]
    if (command === undefined) return { outcome: "sent", commandId: "" }
    let answer: Answered
    let body: unknown
    try {
      body = await resolved(command.body)
      answer = await transport.send({ commandId: command.commandId, method: command.method, path: command.path, body })
    } catch (error) {
      if (!(error instanceof Unanswerable)) throw error
      answer = { status: 409, body: undefined, message: error.message, retryAfterMs: 0 }
    }
    if (answer.status === 401) {
      transport.sessionEnded()
      return { outcome: "busy", retryAfterMs: 30_000 }
    }
    if (answer.status === 429 || answer.status >= 502) return { outcome: "busy", retryAfterMs: Math.max(500, answer.retryAfterMs) }
    const done = isDone(answer)
    if (done) {
      // Kept for an undo that names it: only a command whose answer carries its records has one.
      if (command.answer !== undefined) answers.set(command.commandId, answer.body)
      keepAnswered(command, answer.body)
      if (command.effect === null)
        for (const id of command.recordIds) {
          const key = recordKey(command.kind, id)
          gone.set(key, copies.get(key)?.version ?? null)
          copies.delete(key)
          void write(() => db.apply({ kind: command.kind, id, version: null, fields: null }))
        }
    }
    const waiter = waiters.get(command.commandId)
    waiters.delete(command.commandId)
    // The store shows the answer before the screen waiting for it hears it: a refused record is
    // back as the server has it when the screen moves on (a retry starts from it).
    settled(command.commandId)
    bump()
    waiter?.(answer)
    // The tab that made it may be waiting (a call this tab did not make).
    if (waiter === undefined) tellTabs({ type: "answered", commandId: command.commandId, answer })
    // A screen that waits for the answer says a refusal itself, while its tab lives.
    const saidByScreen =
      !abandoned.delete(command.commandId) && command.tab !== undefined && (command.tab === tab ? waiter !== undefined : await tabLives(command.tab))
    await write(() => db.settle(command.commandId, done && command.answer !== undefined ? answer.body : undefined))
    tellTabs({ type: "outbox" })
    bump()
    // A refused record is read again by the screens that hold it: the server's copy is the truth.
    for (const id of command.recordIds)
      tell({ kind: command.kind, id, whole: done, version: done ? (copies.get(recordKey(command.kind, id))?.version ?? null) : null, deleted: false })
    if (done || saidByScreen) return { outcome: "sent", commandId: command.commandId }
    const refusal = refusalOf(command, answer, body)
    for (const listener of refusalListeners) listener(refusal)
    return { outcome: "refused", refusal }
  }

  const locks = globalThis.navigator?.locks
  let leaveTab = () => {}
  void locks?.request(`console-tab:${tab}`, () => new Promise<void>((resolve) => (leaveTab = resolve)))
  const tabLives = async (id: string) => (await locks?.query())?.held?.some((lock) => lock.name === `console-tab:${id}`) === true
  const sync = createActor(
    syncMachine.provide({
      actors: {
        sendNext: fromPromise(
          // The lock's promise settles with the callback's outcome (DOM typings nest the promise).
          (): Promise<SendOutcome> =>
            locks === undefined ? sendFirst() : (locks.request(`console-outbox:${options.owner}`, sendFirst) as unknown as Promise<SendOutcome>)
        )
      }
    }),
    { input: { pending: outbox.length } }
  )
  sync.start()
  // Changes refused before this load that the person has neither applied again nor let go.
  for (const refusal of await db.conflicts()) sync.send({ type: "HEARD_REFUSAL", refusal })
  // The link back (the browser online again, a retry that got through): lists read their rows again.
  let wasOffline = false
  sync.subscribe((snapshot) => {
    const offline = snapshot.matches({ link: "offline" })
    if (wasOffline && !offline) for (const listener of reconnected) listener()
    wasOffline = offline
  })
  const linkDown = () => sync.send({ type: "LINK_DOWN" })
  const linkUp = () => sync.send({ type: "LINK_UP" })
  globalThis.addEventListener?.("offline", linkDown)
  globalThis.addEventListener?.("online", linkUp)
  if (globalThis.navigator?.onLine === false) linkDown()

  const changeListeners = new Set<(change: StreamedChange) => void>()
  let lastEventId = await db.lastEventId()
  /** `persist`: the leading tab writes what the stream brought; the others only hear it. */
  const applyChange = (change: StreamedChange, persist = true) => {
    lastEventId = change.id
    for (const listener of changeListeners) listener(change)
    // Protected data never enters the browser's store, not even without its values (docs/security.md).
    if (change.area === PROTECTED_AREA) return
    const key = recordKey(change.area, change.entityId)
    let whole = false
    if (change.type.endsWith(".deleted")) {
      gone.set(key, copies.get(key)?.version ?? null)
      copies.delete(key)
      whole = true
      if (persist) void write(() => db.apply({ kind: change.area, id: change.entityId, version: null, fields: null }))
    } else if (change.fields !== null) {
      whole = true
      if (keepCopy(change.area, change.entityId, change.fields, true) && persist)
        void write(() => db.keep(change.area, [{ id: change.entityId, version: change.version, fields: change.fields ?? {} }]))
    }
    if (persist) void write(() => db.keepLastEventId(change.id))
    bump()
    tell({ kind: change.area, id: change.entityId, whole, version: change.version, deleted: change.type.endsWith(".deleted") })
  }
  let connections = 0
  let live = false
  /**
   * From when this tab hears every change (performance.now()): 0 when its stream resumed from the
   * store's last event (the catch-up brings what any read here could lack), else the moment it
   * went live; undefined before.
   */
  let hearsSince: number | undefined
  let resumes = false
  const wentLive = new Set<() => void>()
  /** `complete`: the stream's catch-up brought everything after the position it resumed from. */
  const ready = (complete = true) => {
    live = true
    linkUp()
    sync.send({ type: "CAUGHT_UP" })
    if (hearsSince === undefined) hearsSince = resumes && complete ? 0 : performance.now()
    for (const listener of wentLive) listener()
    // Back after a drop: the lists read their rows again (what a failed read missed, and any
    // change past the stream's catch-up).
    if (++connections > 1) for (const listener of reconnected) listener()
  }
  // One stream per browser (docs/architecture.md, "The browser's store"): the tab holding the lock listens and tells the
  // others; when it closes, the next tab takes the lock and resumes from the store's last event.
  let stopListening = () => {}
  let leading = false
  let closed = false
  let resign = () => {}
  const lead = () => {
    leading = true
    resumes = lastEventId !== undefined
    stopListening = transport.listen(
      lastEventId,
      (change) => {
        applyChange(change)
        tellTabs({ type: "change", change })
      },
      (position, complete = true) => {
        // Where the stream is, though no change came yet: the next load resumes there, and its
        // catch-up brings what a read before its stream went live could lack.
        if (position !== undefined && position !== lastEventId) {
          lastEventId = position
          void write(() => db.keepLastEventId(position))
        }
        ready(complete)
        tellTabs({ type: "ready", position, complete })
      }
    )
  }
  if (channel !== undefined)
    channel.onmessage = ({ data }: MessageEvent<TabMessage>) => {
      if (data.type === "outbox") void rereadOutbox()
      else if (data.type === "change" && !leading) applyChange(data.change, false)
      else if (data.type === "ready" && !leading) {
        // The leader's position: this tab resumes from it if it comes to lead.
        if (data.position !== undefined) lastEventId = data.position
        ready(data.complete)
      } else if (data.type === "hello" && leading && live) tellTabs({ type: "ready", position: lastEventId })
      else if (data.type === "answered") {
        const made = outbox.find((command) => command.commandId === data.commandId)
        // As in the tab that sent it: the answer shows before the screen waiting for it hears it.
        settled(data.commandId)
        bump()
        waiters.get(data.commandId)?.(data.answer)
        waiters.delete(data.commandId)
        // Made here for a screen that has gone (a form left while saving), sent by another tab,
        // which left the words to this tab: this tab says the refusal, where the person made it.
        if (abandoned.delete(data.commandId) && made !== undefined && !isDone(data.answer)) {
          const refusal = refusalOf(made, data.answer, made.body)
          for (const listener of refusalListeners) listener(refusal)
          sync.send({ type: "HEARD_REFUSAL", refusal })
        }
      }
    }
  if (locks === undefined || channel === undefined) lead()
  else {
    void locks.request(
      `console-stream:${options.owner}`,
      () =>
        new Promise<void>((resolve) => {
          resign = resolve
          if (closed) resolve()
          else lead()
        })
    )
    // A tab that opens while another leads hears from it that the stream is live.
    tellTabs({ type: "hello" })
  }

  const made = new Map<string, StoredList>()
  /** Pages that came from the store, not the server: not kept again. */
  const fromStore = new WeakSet<object>()
  const listOf = (of: StoreKind, title: string, idOf: (row: unknown) => string): StoredList => {
    const pageKey = (query: ListQuery) => `${title}\u0000${queryKey(query)}`
    const fieldOf = (row: unknown, field: string) => (row as Fields)[field]
    const mixed = typeof of === "string" ? undefined : of
    const kind = typeof of === "string" ? of : ""
    const any = kind === ANY_KIND
    /** A row's kind: the list's, or the one a mixed list's row names. */
    const kindOf = (row: unknown) => (mixed === undefined ? kind : String(fieldOf(row, mixed.field)))
    const hears = (news: RecordNews) => any || (mixed === undefined ? news.kind === kind : mixed.kinds.includes(news.kind))
    // Pages are kept by kind: a list of any kind, or of several, keeps none.
    const keeps = !any && mixed === undefined
    return {
      kept: async (query) => {
        if (!keeps) return undefined
        const kept = await store.keptPage(pageKey(query))
        if (kept === undefined) return undefined
        const page = { ...(kept.extra as object), rows: kept.rows } as ListPage
        fromStore.add(page)
        return page
      },
      keep: (query, page) => {
        if (!keeps || page === null || fromStore.has(page)) return
        const { rows, ...extra } = page
        store.keepPage(
          kind,
          pageKey(query),
          rows.map((row) => ({ id: idOf(row), fields: row as Fields })),
          extra
        )
      },
      watch: (reread, { unseen, back, reading, readSince, failed } = {}) => {
        let timer: ReturnType<typeof setTimeout> | undefined
        let heard: Array<RecordNews> = []
        let readAgain = false
        const judge = () => {
          // A read in flight: judged against the rows it brings (a slow answer, a busy machine).
          if (reading?.() === true) {
            timer = setTimeout(judge, REREAD_AFTER_MS / 4)
            return
          }
          // Judged when the moment has passed: a screen's own read after its change has the news already.
          const news = heard
          const always = readAgain
          heard = []
          readAgain = false
          if (always || unseen === undefined || news.some(unseen)) reread()
        }
        const later = (always: boolean) => {
          clearTimeout(timer)
          readAgain ||= always
          timer = setTimeout(judge, REREAD_AFTER_MS)
        }
        // Rows read before this tab heard every change: read again now (after a read in flight). A
        // list that announces arrivals itself takes none unannounced: it only recovers a failed read.
        const heardLate = () => {
          // A read that failed (the link was down): the stream live again says the server answers now.
          if (live && failed?.() === true) return later(true)
          if (readSince === undefined || hearsSince === undefined || readSince() >= hearsSince) return
          if (back !== undefined) return back()
          clearTimeout(timer)
          readAgain = true
          judge()
        }
        const stop = store.onNews((news) => {
          if (!hears(news)) return
          heard.push(news)
          later(false)
        })
        // A failed read goes through the same moment as the stream's going live: one read, not two.
        const onLinkBack = () => (back !== undefined && failed?.() !== true ? back() : later(true))
        reconnected.add(onLinkBack)
        wentLive.add(heardLate)
        heardLate()
        return () => {
          stop()
          reconnected.delete(onLinkBack)
          wentLive.delete(heardLate)
          clearTimeout(timer)
        }
      },
      rows: (rows) =>
        rows.flatMap((row) => {
          const shown = view(kindOf(row), idOf(row), row as object)
          // A mixed list's row keeps the field naming its kind, which the record itself has not.
          return shown === null ? [] : [mixed === undefined ? shown : { ...shown, [mixed.field]: kindOf(row) }]
        }),
      waiting: (row) => store.waiting(kindOf(row), idOf(row)),
      moved: (field, page, shown) => {
        if (field === undefined || page === shown) return []
        const now = new Map(shown.map((row) => [idOf(row), fieldOf(row, field)]))
        return page.flatMap((row) => {
          const from = fieldOf(row, field)
          const to = now.get(idOf(row))
          return typeof from === "string" && typeof to === "string" && from !== to ? [[from, to] as const] : []
        })
      }
    }
  }

  /**
   * Applies a command's effect at once, writes it to the outbox and sends it. `fromShown`: it names
   * the record as shown; it reaches the server after this browser's waiting commands about it,
   * each making a version, so it names the version they lead to (features never work it out).
   */
  const enqueue = (input: CommandInput, fromShown: boolean): string => {
    const { commandId = crypto.randomUUID(), ...asked } = input
    const seen = fromShown && asked.recordIds.length === 1 ? versionNamed(asked.path, asked.body) : undefined
    const rest = seen === undefined ? asked : { ...asked, ...atVersion(asked.path, asked.body, store.nextVersion(asked.kind, asked.recordIds[0] ?? "", seen)) }
    const made: OutboxCommand = {
      ...rest,
      commandId,
      records: input.recordIds.map((id) => recordKey(input.kind, id)),
      madeAt: Date.now()
    }
    outbox.push(made)
    unwritten.set(commandId, made)
    bump()
    void write(async () => {
      await db.enqueue({ ...rest, commandId })
      unwritten.delete(commandId)
      tellTabs({ type: "outbox" })
      sync.send({ type: "QUEUED" })
    })
    return commandId
  }

  const store: ConsoleStore = {
    lists: (kind, title, idOf) => {
      const key = `${kindKey(kind)}\u0000${title}`
      const held = made.get(key) ?? listOf(kind, title, idOf)
      made.set(key, held)
      return held
    },
    owner: options.owner,
    version: () => version,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onNews: (listener) => {
      newsListeners.add(listener)
      return () => newsListeners.delete(listener)
    },
    onRefusal: (listener) => {
      refusalListeners.add(listener)
      return () => refusalListeners.delete(listener)
    },
    view,
    held: (kind, id) => copies.get(recordKey(kind, id))?.fields,
    settled: (kind, id) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (kind === undefined || id === undefined ? outbox.length > 0 : store.waiting(kind, id)) return
          listeners.delete(check)
          resolve()
        }
        listeners.add(check)
        check()
      }),
    namedVersion: (commandId) => {
      const made = outbox.find((command) => command.commandId === commandId)
      return made === undefined ? undefined : versionNamed(made.path, made.body)
    },
    waiting: (kind, id) => outbox.some((command) => command.kind === kind && command.recordIds.includes(id)),
    nextVersion: (kind, id, seen) => {
      const held = copies.get(recordKey(kind, id))
      const known = held?.version != null && held.version > seen ? held.version : seen
      // A waiting command that names its version makes the next one; the stream may have brought
      // that write before its answer, so it is not counted again. One that names none adds one.
      return outbox
        .filter((command) => command.kind === kind && command.recordIds.includes(id) && command.effect !== null)
        .reduce((next, command) => {
          const sent = versionNamed(command.path, command.body)
          return sent === undefined ? next + 1 : Math.max(next, sent + 1)
        }, known)
    },
    keepPage: (kind, key, rows, extra) => {
      const kept = rows.filter((row) => keepCopy(kind, row.id, row.fields)).map((row) => ({ id: row.id, version: versionOf(row.fields), fields: row.fields }))
      void write(async () => {
        await db.keep(kind, kept)
        await db.keepSet({ key, kind, ids: rows.map((row) => row.id), extra })
        await db.evict()
      })
    },
    keptPage: async (key) => {
      const kept = await db.page(key)
      if (kept === undefined) return undefined
      const { set, records } = kept
      if (records.some((record) => record === undefined)) return undefined
      return { rows: records.map((record) => record?.fields ?? {}), extra: set.extra }
    },
    command: (input) => enqueue(input, true),
    call: ({ quiet, kept, fromShown = false, ...input }) =>
      new Promise<Answered>((resolve) => {
        const commandId = crypto.randomUUID()
        waiters.set(commandId, resolve)
        enqueue({ ...input, commandId, ...(quiet ? { tab } : {}) }, fromShown)
        if (kept !== undefined) keptOffline(commandId, kept)
      }),
    abandon: () => {
      for (const commandId of waiters.keys()) abandoned.add(commandId)
    },
    dismiss: (refusal) => {
      sync.send({ type: "DISMISS", commandId: refusal.commandId })
      if (refusal.retry !== undefined) void write(() => db.dropConflict(refusal.commandId))
    },
    applyAgain: (refusal) => {
      const { retry } = refusal
      if (retry === undefined) return
      store.dismiss(refusal)
      // At the version the server named, exactly: a change since is refused again, not overwritten.
      enqueue(
        {
          kind: refusal.kind,
          recordIds: [refusal.recordId],
          method: retry.method,
          ...atVersion(retry.path, retry.body, retry.version),
          effect: {},
          label: refusal.label,
          failed: retry.failed,
          ...(retry.answer === undefined ? {} : { answer: retry.answer })
        },
        false
      )
    },
    outbox: () => outbox,
    sync,
    applyChange,
    onChange: (listener) => {
      changeListeners.add(listener)
      return () => changeListeners.delete(listener)
    },
    close: () => {
      closed = true
      leaveTab()
      stopListening()
      resign()
      sync.stop()
      channel?.close()
      globalThis.removeEventListener?.("offline", linkDown)
      globalThis.removeEventListener?.("online", linkUp)
      db.close()
    }
  }
  return store
}
