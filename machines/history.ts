import { type ActorRefFrom, assertEvent, assign, fromPromise, setup } from "xstate"
import type { HistoryEntry } from "../contract/history.ts"
import type { HistoryKind } from "../contract/history-rules.ts"
import { failureOf } from "../contract/call-failure.ts"

/** The record whose history is shown. */
export interface HistoryRecord {
  readonly kind: HistoryKind
  readonly id: string
  /** What the dialog's title calls it ("Pi Lagos"). */
  readonly label: string
}

export interface HistoryPageLoaded {
  readonly entries: ReadonlyArray<HistoryEntry>
  readonly current: { readonly version: number; readonly removed: boolean }
}

/** A version's content, as the API rebuilds it. */
export interface VersionContent {
  readonly version: number
  readonly removed: boolean
  readonly content: Readonly<Record<string, unknown>>
  readonly hidden: ReadonlyArray<string>
}

export interface HistoryContext {
  readonly record: HistoryRecord | null
  readonly page: HistoryPageLoaded | null
  /** The version selected in the list. */
  readonly selected: number | null
  /** Two versions side by side, as a change from the first to the second: a comparison (older first), or a restore (the record now, then the version brought back). */
  readonly pair: readonly [VersionContent, VersionContent] | null
  readonly error: string | null
  /** The last restore: which version came back as which. */
  readonly restored: { readonly from: number; readonly as: number } | null
}

export type HistoryEvent =
  | { readonly type: "OPEN"; readonly record: HistoryRecord }
  | { readonly type: "CLOSE" }
  | { readonly type: "SELECT"; readonly version: number }
  | { readonly type: "COMPARE"; readonly with: number }
  | { readonly type: "RESTORE" }
  | { readonly type: "CONFIRM" }
  | { readonly type: "CANCEL" }
  | { readonly type: "RETRY" }

/** Two versions of the record to load (older first for a comparison; the one to bring back, then the newest, for a restore). */
export interface PairInput {
  readonly record: HistoryRecord
  readonly versions: readonly [number, number]
}

export const historyTexts = {
  loading: "Loading history...",
  failed: "Couldn't load the history",
  comparing: "Loading both versions...",
  restoreFailed: "Couldn't restore this version",
  restoring: "Restoring..."
} as const

/** Whether `version` may be restored: a version of the record that is neither its newest nor a removal. */
export const restorable = (page: HistoryPageLoaded | null, version: number | null): boolean => {
  if (page === null) return false
  const entry = page.entries.find((candidate) => candidate.version === version)
  return entry !== undefined && !entry.removed && (version !== page.current.version || page.current.removed)
}

/** Whether `version` is one of the versions the history shows. */
const shown = (context: HistoryContext, version: number): boolean => context.page?.entries.some((entry) => entry.version === version) ?? false

/**
 * A record's history and restore (docs/architecture.md, "Record history"): closed → loading its
 * versions → ready (one selected, the newest first); selecting another shows what it changed;
 * comparing loads two versions side by side; restoring first loads what the record is now and
 * the version to bring back (confirming shows what will change), then writes it at the version
 * the person saw. A refusal (someone changed the record since, a slug now taken) says why in the
 * dialog and reloads the history, so the newest version is offered. The host provides the three
 * calls.
 */
export const historyMachine = setup({
  types: {} as { context: HistoryContext; events: HistoryEvent },
  actors: {
    loadHistory: fromPromise<HistoryPageLoaded, HistoryRecord>(() => Promise.reject(new Error("loadHistory not provided"))),
    compare: fromPromise<readonly [VersionContent, VersionContent], PairInput>(() => Promise.reject(new Error("compare not provided"))),
    prepare: fromPromise<readonly [VersionContent, VersionContent], PairInput>(() => Promise.reject(new Error("prepare not provided"))),
    restore: fromPromise<{ readonly version: number }, { readonly record: HistoryRecord; readonly version: number; readonly expectedVersion: number }>(() =>
      Promise.reject(new Error("restore not provided"))
    )
  },
  guards: {
    isVersion: ({ context }, params: { readonly version: number }) => shown(context, params.version),
    // Another version than the selected one, and than the one it is already compared with (the picker shows that one).
    isOther: ({ context }, params: { readonly version: number }) =>
      params.version !== context.selected && !(context.pair?.some((side) => side.version === params.version) ?? false) && shown(context, params.version),
    canRestore: ({ context }) => restorable(context.page, context.selected)
  },
  actions: {
    open: assign({
      record: (_, params: { readonly record: HistoryRecord }) => params.record,
      page: null,
      selected: null,
      pair: null,
      error: null,
      restored: null
    }),
    takePage: assign({
      page: (_, params: { readonly page: HistoryPageLoaded }) => params.page,
      selected: (_, params: { readonly page: HistoryPageLoaded }) => params.page.entries[0]?.version ?? null,
      pair: null
    }),
    select: assign({ selected: (_, params: { readonly version: number }) => params.version, pair: null, error: null }),
    takePair: assign({ pair: (_, params: { readonly pair: readonly [VersionContent, VersionContent] }) => params.pair }),
    fail: assign({ error: (_, params: { readonly message: string }) => params.message }),
    clearError: assign({ error: null }),
    forgetPair: assign({ pair: null }),
    takeRestored: assign({ restored: (_, params: { readonly from: number; readonly as: number }) => params }),
    close: assign({ record: null, page: null, selected: null, pair: null, error: null, restored: null }),
    recordChanged: () => undefined
  }
}).createMachine({
  context: { record: null, page: null, selected: null, pair: null, error: null, restored: null },
  initial: "closed",
  states: {
    closed: { on: { OPEN: { target: "loading", actions: { type: "open", params: ({ event }) => ({ record: event.record }) } } } },
    loading: {
      invoke: {
        id: "loadHistory",
        src: "loadHistory",
        input: ({ context }) => context.record!,
        onDone: { target: "ready", actions: { type: "takePage", params: ({ event }) => ({ page: event.output }) } },
        onError: {
          target: "failed",
          actions: { type: "fail", params: ({ event }) => ({ message: `${historyTexts.failed}: ${failureOf(event.error).message}` }) }
        }
      },
      on: { CLOSE: { target: "closed", actions: "close" } }
    },
    failed: {
      on: {
        RETRY: { target: "loading", actions: "clearError" },
        CLOSE: { target: "closed", actions: "close" }
      }
    },
    ready: {
      on: {
        SELECT: {
          guard: { type: "isVersion", params: ({ event }) => ({ version: event.version }) },
          actions: { type: "select", params: ({ event }) => ({ version: event.version }) }
        },
        COMPARE: { guard: { type: "isOther", params: ({ event }) => ({ version: event.with }) }, target: "comparing" },
        RESTORE: { guard: "canRestore", target: "preparing", actions: "clearError" },
        CLOSE: { target: "closed", actions: "close" }
      }
    },
    comparing: {
      invoke: {
        id: "compare",
        src: "compare",
        input: ({ context, event }) => {
          assertEvent(event, "COMPARE")
          const other = event.with
          const selected = context.selected ?? 0
          return { record: context.record!, versions: [Math.min(selected, other), Math.max(selected, other)] as const }
        },
        onDone: { target: "ready", actions: { type: "takePair", params: ({ event }) => ({ pair: event.output }) } },
        onError: { target: "ready", actions: { type: "fail", params: ({ event }) => ({ message: failureOf(event.error).message }) } }
      },
      on: { CLOSE: { target: "closed", actions: "close" } }
    },
    preparing: {
      invoke: {
        id: "prepare",
        src: "prepare",
        // The record now beside the version to bring back: what the confirmation shows will change.
        input: ({ context }) => ({ record: context.record!, versions: [context.selected!, context.page!.current.version] as const }),
        onDone: { target: "confirming", actions: { type: "takePair", params: ({ event }) => ({ pair: [event.output[1], event.output[0]] as const }) } },
        onError: { target: "ready", actions: { type: "fail", params: ({ event }) => ({ message: failureOf(event.error).message }) } }
      },
      on: { CLOSE: { target: "closed", actions: "close" } }
    },
    confirming: {
      on: {
        CONFIRM: "restoring",
        CANCEL: { target: "ready", actions: "forgetPair" },
        CLOSE: { target: "closed", actions: "close" }
      }
    },
    restoring: {
      invoke: {
        id: "restore",
        src: "restore",
        input: ({ context }) => ({ record: context.record!, version: context.selected!, expectedVersion: context.page!.current.version }),
        onDone: {
          target: "loading",
          actions: [{ type: "takeRestored", params: ({ context, event }) => ({ from: context.selected!, as: event.output.version }) }, "recordChanged"]
        },
        // Refused: say why, and show the history as it is now (someone else's newer version first).
        onError: {
          target: "loading",
          actions: { type: "fail", params: ({ event }) => ({ message: `${historyTexts.restoreFailed}: ${failureOf(event.error).message}` }) }
        }
      }
    }
  }
})

/** The machine running, as the dialog reads and drives it. */
export type HistoryActor = ActorRefFrom<typeof historyMachine>

type Snapshot = {
  readonly matches: (state: "closed" | "loading" | "failed" | "ready" | "comparing" | "preparing" | "confirming" | "restoring") => boolean
  readonly context: HistoryContext
}

/** The dialog is open. */
export const historyOpen = (snapshot: Snapshot): boolean => !snapshot.matches("closed")

/**
 * The version a restore asked for on `selected` brings back: itself, or, selected on a deletion
 * (no content to bring back), the newest version before it; null when none may come back.
 */
export const restoreTarget = (page: HistoryPageLoaded | null, selected: number | null): number | null => {
  const at = page?.entries.findIndex((entry) => entry.version === selected) ?? -1
  const entry = page?.entries[at]
  const from = entry?.removed === true ? page?.entries.slice(at + 1).find((older) => !older.removed) : entry
  return from !== undefined && restorable(page, from.version) ? from.version : null
}

/** The restore may be asked for now (`restoreTarget`): a version can come back and nothing else is on its way. */
export const canRestoreNow = (snapshot: Snapshot): boolean =>
  snapshot.matches("ready") && restoreTarget(snapshot.context.page, snapshot.context.selected) !== null
