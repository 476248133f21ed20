import { createActor, fromPromise } from "xstate"
import { saidWith } from "../../../contract/call-failure.ts"
import { type Refusal, type SendOutcome, syncMachine } from "../../../machines/sync.ts"
import { type BrowserStore, type FromAnswer, type OutboxCommand, recordKey } from "./browser-store.ts"
import { listenersOf } from "./listeners.ts"
import { atVersion, pick, type Records, versionNamed } from "./records.ts"
import type { Answered, CallInput, CommandInput, ConsoleStore, RecordNews, StoreTransport } from "./store-types.ts"
import type { Tabs } from "./tabs.ts"

/**
 * The outbox of the console's store (./console-store.ts; docs/architecture.md, "The browser's
 * store"): the commands this browser made and the server has not answered, in the order made,
 * kept in IndexedDB across reloads. They go out through the sync machine (machines/sync.ts) one
 * at a time with their keys, from whichever tab holds the outbox's lock; an answer's records are
 * kept, a refusal is said in the command's own words and a conflict is kept for the person.
 */

const isFromAnswer = (value: unknown): value is FromAnswer => typeof value === "object" && value !== null && "$answerOf" in value && "$path" in value

/** A refusal the console itself makes: a command naming an answer the server never gave. */
class Unanswerable extends Error {}

/** The server took the command (any other answer that reaches here refused it). */
const isDone = (answer: Answered) => answer.status >= 200 && answer.status < 300

/** What the outbox needs of the rest of the store. */
export interface OutboxParts {
  readonly db: BrowserStore
  readonly transport: StoreTransport
  readonly records: Records
  readonly tabs: Tabs
  /** The commands IndexedDB held when the store opened. */
  readonly stored: ReadonlyArray<OutboxCommand>
  /** Queues an IndexedDB write after those asked for before it; `written()` settles once all are in. */
  readonly write: (step: () => Promise<unknown>) => Promise<unknown>
  readonly written: () => Promise<unknown>
  /** What a screen shows may differ now. */
  readonly bump: () => void
  readonly tell: (news: RecordNews) => void
}

export type Outbox = Pick<ConsoleStore, "sync" | "call" | "abandon" | "dismiss" | "applyAgain" | "namedVersion" | "onRefusal" | "outbox"> & {
  /** Applies a command's effect at once, writes it and sends it; `fromShown`: it names the record's version as shown. */
  readonly enqueue: (input: CommandInput, fromShown: boolean) => string
  /** Starts sending, with the conflicts kept before this load that the person has neither applied again nor let go. */
  readonly start: (conflicts: ReadonlyArray<Refusal>) => void
  /** Another tab changed the outbox, or this one is about to send: read it again. */
  readonly reread: () => Promise<void>
  /** Another tab sent a command and heard its answer. */
  readonly heard: (commandId: string, answer: Answered) => void
}

export const openOutbox = ({ db, transport, records, tabs, stored, write, written, bump, tell }: OutboxParts): Outbox => {
  let outbox: Array<OutboxCommand> = [...stored]
  /** Answers kept for an undo that names them. */
  const answers = new Map<string, unknown>()
  /** Screens of this tab waiting for a command's answer. */
  const waiters = new Map<string, (answer: Answered) => void>()
  /** Calls whose screen has gone before their answer. */
  const abandoned = new Set<string>()
  /** Commands answered whose settling write may not be in IndexedDB yet: a read of the outbox leaves them out. */
  const answered = new Set<string>()
  /** Commands made here and not yet in IndexedDB: a read of the outbox keeps them. */
  const unwritten = new Map<string, OutboxCommand>()
  const refusals = listenersOf<(refusal: Refusal) => void>()

  const reread = async () => {
    const kept = await db.outbox()
    const ids = new Set(kept.map((command) => command.commandId))
    // Answered, and still in IndexedDB until the settling write is in: not waiting any more.
    for (const id of answered) if (!ids.has(id)) answered.delete(id)
    outbox = [...kept, ...[...unwritten.values()].filter((command) => !ids.has(command.commandId))].filter((command) => !answered.has(command.commandId))
    // Another tab's commands are this tab's to send too, also once that tab has gone.
    sync.send({ type: "OUTBOX_READ", pending: outbox.length })
    bump()
  }

  /**
   * Calls `kept` once the call's command is written (the IndexedDB writes go in order) while the
   * link is down, unless its answer came first; its screen has gone then, so the shell says a refusal.
   */
  const keptOffline = (commandId: string, kept: () => void) =>
    void written().then(() => {
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

  const settle = (commandId: string) => {
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

  /** The server took `command`: its answer's records kept, the records it deletes gone. */
  const took = (command: OutboxCommand, answer: Answered) => {
    // Kept for an undo that names it: only a command whose answer carries its records has one.
    if (command.answer !== undefined) answers.set(command.commandId, answer.body)
    const kept = records.keepAnswered(command, answer.body)
    if (kept.length > 0) void write(() => db.keep(command.kind, kept))
    if (command.effect === null)
      for (const id of command.recordIds) {
        records.forget(command.kind, id)
        void write(() => db.apply({ kind: command.kind, id, version: null, fields: null }))
      }
  }

  const sendFirst = async (): Promise<SendOutcome> => {
    await written()
    // Every tab's commands are the browser's outbox: read it under the lock, send its first.
    await reread()
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
    if (done) took(command, answer)
    const waiter = waiters.get(command.commandId)
    waiters.delete(command.commandId)
    // The store shows the answer before the screen waiting for it hears it: a refused record is
    // back as the server has it when the screen moves on (a retry starts from it).
    settle(command.commandId)
    bump()
    waiter?.(answer)
    // The tab that made it may be waiting (a call this tab did not make).
    if (waiter === undefined) tabs.tell({ type: "answered", commandId: command.commandId, answer })
    // A screen that waits for the answer says a refusal itself, while its tab lives.
    const saidByScreen =
      !abandoned.delete(command.commandId) && command.tab !== undefined && (command.tab === tabs.id ? waiter !== undefined : await tabs.lives(command.tab))
    await write(() => db.settle(command.commandId, done && command.answer !== undefined ? answer.body : undefined))
    tabs.tell({ type: "outbox" })
    bump()
    // A refused record is read again by the screens that hold it: the server's copy is the truth.
    for (const id of command.recordIds)
      tell({ kind: command.kind, id, whole: done, version: done ? (records.held(command.kind, id)?.version ?? null) : null, deleted: false })
    if (done || saidByScreen) return { outcome: "sent", commandId: command.commandId }
    const refusal = refusalOf(command, answer, body)
    refusals.each(refusal)
    return { outcome: "refused", refusal }
  }

  const sync = createActor(syncMachine.provide({ actors: { sendNext: fromPromise(() => tabs.sending(sendFirst)) } }), {
    input: { pending: outbox.length }
  })

  /**
   * `fromShown`: the command names the record as shown; it reaches the server after this
   * browser's waiting commands about it, each making a version, so it names the version they
   * lead to (features never work it out).
   */
  const enqueue = (input: CommandInput, fromShown: boolean): string => {
    const { commandId = crypto.randomUUID(), ...asked } = input
    const seen = fromShown && asked.recordIds.length === 1 ? versionNamed(asked.path, asked.body) : undefined
    const rest =
      seen === undefined ? asked : { ...asked, ...atVersion(asked.path, asked.body, records.nextVersion(asked.kind, asked.recordIds[0] ?? "", seen)) }
    const made: OutboxCommand = { ...rest, commandId, records: input.recordIds.map((id) => recordKey(input.kind, id)), madeAt: Date.now() }
    outbox.push(made)
    unwritten.set(commandId, made)
    bump()
    void write(async () => {
      await db.enqueue({ ...rest, commandId })
      unwritten.delete(commandId)
      tabs.tell({ type: "outbox" })
      sync.send({ type: "QUEUED" })
    })
    return commandId
  }

  const dismiss = (refusal: Refusal) => {
    sync.send({ type: "DISMISS", commandId: refusal.commandId })
    if (refusal.retry !== undefined) void write(() => db.dropConflict(refusal.commandId))
  }

  return {
    sync,
    outbox: () => outbox,
    enqueue,
    reread,
    start: (conflicts) => {
      sync.start()
      for (const refusal of conflicts) sync.send({ type: "HEARD_REFUSAL", refusal })
    },
    call: ({ quiet, kept, fromShown = false, ...input }: CallInput) =>
      new Promise<Answered>((resolve) => {
        const commandId = crypto.randomUUID()
        waiters.set(commandId, resolve)
        enqueue({ ...input, commandId, ...(quiet ? { tab: tabs.id } : {}) }, fromShown)
        if (kept !== undefined) keptOffline(commandId, kept)
      }),
    abandon: () => {
      for (const commandId of waiters.keys()) abandoned.add(commandId)
    },
    dismiss,
    applyAgain: (refusal) => {
      const { retry } = refusal
      if (retry === undefined) return
      dismiss(refusal)
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
    namedVersion: (commandId) => {
      const made = outbox.find((command) => command.commandId === commandId)
      return made === undefined ? undefined : versionNamed(made.path, made.body)
    },
    onRefusal: refusals.add,
    heard: (commandId, answer) => {
      const made = outbox.find((command) => command.commandId === commandId)
      // As in the tab that sent it: the answer shows before the screen waiting for it hears it.
      settle(commandId)
      bump()
      waiters.get(commandId)?.(answer)
      waiters.delete(commandId)
      // Made here for a screen that has gone (a form left while saving), sent by another tab,
      // which left the words to this tab: this tab says the refusal, where the person made it.
      if (abandoned.delete(commandId) && made !== undefined && !isDone(answer)) {
        const refusal = refusalOf(made, answer, made.body)
        refusals.each(refusal)
        sync.send({ type: "HEARD_REFUSAL", refusal })
      }
    }
  }
}
