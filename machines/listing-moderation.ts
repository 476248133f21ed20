import { assign, setup } from "xstate"
import { canMove, type ListingStatus, type ModerationAction, moderationActions, statusAfter } from "../contract/listing-rules.ts"

/** How long a change can be undone from the screen (docs/decisions.md: "a 10 s undo"). */
export const UNDO_WINDOW_MS = 10_000

/** What the machine needs of a listing: enough to judge a move and name it. */
export interface ListingRef {
  readonly _id: string
  readonly name: string
  readonly status: ListingStatus
  readonly version: number
}

/** A change made: one action on one listing or on a selection, as one command (its id made by the console). */
export interface Done {
  readonly action: ModerationAction
  readonly commandId: string
  readonly moves: ReadonlyArray<{
    readonly _id: string
    readonly name: string
    readonly from: ListingStatus
    readonly to: ListingStatus
    /** The version the listing was shown at: the command names it. */
    readonly version: number
  }>
}

export interface ModerationContext {
  /** The last change made, undoable while the machine is in `undoable`. */
  readonly done: Done | null
  /** The change just undone, said while the machine is in `undone`. */
  readonly undone: Done | null
}

export type ModerationEvent =
  | {
      readonly type: "ACT"
      readonly action: ModerationAction
      readonly listings: ReadonlyArray<ListingRef>
      /** The command's id: its Idempotency-Key, and what an undo names. */
      readonly commandId: string
    }
  | { readonly type: "UNDO" }
  | { readonly type: "DISMISS" }
  /** The server refused a command (the console has put its listings back and said why). */
  | { readonly type: "REFUSED"; readonly commandId: string }

/** The spec's failure texts for a status change and for its undo. */
export const moderationErrors = {
  move: "Failed to update status",
  undo: "Failed to undo"
} as const

const isLegal = (action: ModerationAction, listings: ReadonlyArray<ListingRef>) =>
  listings.length > 0 && listings.every((listing) => canMove(listing.status, statusAfter[action]))

type Act = Extract<ModerationEvent, { readonly type: "ACT" }>

/** The change an ACT makes. */
const doneBy = ({ event }: { readonly event: Act }): Done => ({
  action: event.action,
  commandId: event.commandId,
  moves: event.listings.map((listing) => ({
    _id: listing._id,
    name: listing.name,
    from: listing.status,
    to: statusAfter[event.action],
    version: listing.version
  }))
})

/** A legal ACT, from every state: the change is made at once (a command the console sends) and may be undone. */
const acting = {
  guard: { type: "isLegal", params: ({ event }: { readonly event: Act }) => event },
  target: "undoable",
  actions: [
    { type: "keepForUndo", params: doneBy },
    { type: "change", params: doneBy }
  ]
} as const

/**
 * Listing moderation (docs/product-spec.md §4 "Community / listing status", with
 * docs/decisions.md's undo): a change is legal only as contract/listing-rules.ts allows, for every
 * listing it names, judged on the listings as shown (this browser's waiting changes included). A
 * change never waits for the server: the console applies it at once and sends it as a command
 * (docs/architecture.md, "The browser's store"), so keys pressed one after another all act. The
 * change made stays undoable for 10 s; an undo is one more command; a refusal of the change made
 * ends its undo (the console has put the listings back and said why). The snapshot decides
 * which actions exist: `actionsFor` and `canUndo`.
 */
export const listingModerationMachine = setup({
  types: {} as { context: ModerationContext; events: ModerationEvent },
  delays: { undoWindow: UNDO_WINDOW_MS },
  guards: {
    isLegal: (_, params: Act) => isLegal(params.action, params.listings),
    isDone: ({ context }, params: { readonly commandId: string }) => context.done?.commandId === params.commandId
  },
  actions: {
    keepForUndo: assign({ done: (_, params: Done) => params, undone: null }),
    showUndone: assign(({ context }) => ({ undone: context.done, done: null })),
    forget: assign({ done: null, undone: null }),
    /** The console applies the change and sends it. */
    change: (_, _params: Done) => undefined,
    /** The console applies the undo and sends it. */
    undo: (_, _params: Done) => undefined
  }
}).createMachine({
  // The delayed events' names carry it (xstate.after.undoWindow.listingModeration.…).
  id: "listingModeration",
  context: { done: null, undone: null },
  initial: "idle",
  states: {
    idle: {
      on: { ACT: acting }
    },
    undoable: {
      after: { undoWindow: { target: "idle", actions: "forget" } },
      on: {
        // A new change starts its own 10 s.
        ACT: { ...acting, reenter: true },
        UNDO: {
          target: "undone",
          actions: [{ type: "undo", params: ({ context }) => context.done as Done }, "showUndone"]
        },
        DISMISS: { target: "idle", actions: "forget" },
        REFUSED: { guard: { type: "isDone", params: ({ event }) => event }, target: "idle", actions: "forget" }
      }
    },
    // The undo is said (which listings, back to what) for as long as a change stays undoable.
    undone: {
      after: { undoWindow: { target: "idle", actions: "forget" } },
      on: {
        ACT: acting,
        DISMISS: { target: "idle", actions: "forget" }
      }
    }
  }
})

type Snapshot = { readonly matches: (state: "idle" | "undoable" | "undone") => boolean }

/** The actions a person may take on these listings, as shown. */
export const actionsFor = (listings: ReadonlyArray<ListingRef>): ReadonlyArray<ModerationAction> =>
  moderationActions.filter((action) => isLegal(action, listings))

export const canUndo = (snapshot: Snapshot): boolean => snapshot.matches("undoable")
