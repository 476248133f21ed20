import type { createActor } from "xstate"
import type { ListPage, ListQuery } from "../../../machines/list.ts"
import type { Refusal, syncMachine } from "../../../machines/sync.ts"
import type { StoreKind } from "./kinds.ts"
import type { OutboxCommand } from "./browser-store.ts"

/**
 * What the console's store (./console-store.ts) is to the screens and the app: the words its
 * parts (./records.ts, ./outbox.ts, ./tabs.ts, ./stream.ts, ./lists.ts) share.
 */

export type Fields = Readonly<Record<string, unknown>>

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
  /** Where the stream stood when the server read this load's first answers (src/api/stream-position.ts), if they said and none is still on its way. */
  readonly firstRead?: () => string | undefined
  /** The same once the reads on their way have answered, or after `atMostMs`. */
  readonly firstReadSettled?: (atMostMs: number) => Promise<string | undefined>
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
  /** The list screen `title`'s way into the store, for rows of `kind` named by `idOf` (one per screen, made once). */
  readonly lists: (kind: StoreKind, title: string, idOf: (row: unknown) => string) => StoredList
  readonly close: () => void
}
