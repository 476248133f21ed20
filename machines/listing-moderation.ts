import { assertEvent, assign, fromPromise, setup } from "xstate"
import { canMove, type ListingStatus, type ModerationAction, moderationActions, statusAfter } from "../contract/listing-rules.ts"
import { failureOf } from "../contract/call-failure.ts"

/** How long a change can be undone from the screen (docs/decisions.md: "a 10 s undo"). */
export const UNDO_WINDOW_MS = 10_000

/** What the machine needs of a listing: enough to judge a move and name it. */
export interface ListingRef {
  readonly _id: string
  readonly name: string
  readonly status: ListingStatus
  readonly version: number
}

/** A change asked for: one action on one listing or on a selection. */
export interface Change {
  readonly action: ModerationAction
  readonly listings: ReadonlyArray<ListingRef>
}

/** A change the server made: each listing's move and the activity event that undoes it. */
export interface Done {
  readonly action: ModerationAction
  readonly moves: ReadonlyArray<{
    readonly _id: string
    readonly name: string
    readonly from: ListingStatus
    readonly to: ListingStatus
    /** The version the move produced: the next change names it. */
    readonly version: number
    readonly eventId: string
  }>
}

export interface ModerationContext {
  /** The change in flight (shown at once: the screen draws its listings in their new status). */
  readonly change: Change | null
  /** The last change made, undoable while the machine is in `undoable`. */
  readonly done: Done | null
  /** The change just undone, said while the machine is in `undone`. */
  readonly undone: Done | null
  readonly error: string | null
}

export type ModerationEvent =
  | { readonly type: "ACT"; readonly action: ModerationAction; readonly listings: ReadonlyArray<ListingRef> }
  | { readonly type: "UNDO" }
  | { readonly type: "DISMISS" }

/** The spec's failure texts for a status change and for its undo. */
export const moderationErrors = {
  move: "Failed to update status",
  undo: "Failed to undo"
} as const

const isLegal = (action: ModerationAction, listings: ReadonlyArray<ListingRef>) =>
  listings.length > 0 && listings.every((listing) => canMove(listing.status, statusAfter[action]))

/** The change an ACT asks for. */
const asked = ({ event }: { readonly event: Change }): Change => ({ action: event.action, listings: event.listings })

/** A legal ACT, from every state that takes one: the change goes out at once. */
const acting = { guard: { type: "isLegal", params: asked }, target: "moving", actions: { type: "takeChange", params: asked } } as const

/**
 * Listing moderation (docs/product-spec.md §4 "Community / influencer listing status", with
 * docs/decisions.md's undo): a change is legal only as contract/listing-rules.ts allows, for every
 * listing it names; it shows at once while in flight; a refusal rolls it back with the server's
 * words; a change made stays undoable for 10 s, and a new change ends that window. The
 * snapshot decides which actions exist: `actionsFor` and `canUndo`.
 */
export const listingModerationMachine = setup({
  types: {} as { context: ModerationContext; events: ModerationEvent },
  actors: {
    move: fromPromise<Done, Change>(() => Promise.reject(new Error("move not provided"))),
    undo: fromPromise<unknown, Done | null>(() => Promise.reject(new Error("undo not provided")))
  },
  delays: { undoWindow: UNDO_WINDOW_MS },
  guards: {
    isLegal: (_, params: Change) => isLegal(params.action, params.listings)
  },
  actions: {
    takeChange: assign({ change: (_, params: Change) => params, undone: null, error: null }),
    keepForUndo: assign({ done: (_, params: { readonly done: Done }) => params.done, change: null }),
    showUndone: assign(({ context }) => ({ undone: context.done, done: null })),
    showFailure: assign({ error: (_, params: { readonly message: string }) => params.message, change: null }),
    forget: assign({ done: null, undone: null, error: null }),
    listChanged: () => undefined
  }
}).createMachine({
  // The delayed events' names carry it (xstate.after.undoWindow.listingModeration.…).
  id: "listingModeration",
  context: { change: null, done: null, undone: null, error: null },
  initial: "idle",
  states: {
    idle: {
      on: { ACT: acting }
    },
    moving: {
      invoke: {
        id: "move",
        src: "move",
        // Entered by ACT alone: the change is the one the event asked for.
        input: ({ event }) => {
          assertEvent(event, "ACT")
          return { action: event.action, listings: event.listings }
        },
        onDone: { target: "undoable", actions: [{ type: "keepForUndo", params: ({ event }) => ({ done: event.output }) }, "listChanged"] },
        onError: {
          target: "failed",
          actions: [{ type: "showFailure", params: ({ event }) => ({ message: `${moderationErrors.move}: ${failureOf(event.error).message}` }) }, "listChanged"]
        }
      }
    },
    undoable: {
      after: { undoWindow: { target: "idle", actions: "forget" } },
      on: {
        ACT: acting,
        UNDO: "undoing",
        DISMISS: { target: "idle", actions: "forget" }
      }
    },
    undoing: {
      invoke: {
        id: "undo",
        src: "undo",
        input: ({ context }) => context.done,
        onDone: { target: "undone", actions: ["showUndone", "listChanged"] },
        onError: {
          target: "failed",
          actions: [{ type: "showFailure", params: ({ event }) => ({ message: `${moderationErrors.undo}: ${failureOf(event.error).message}` }) }, "listChanged"]
        }
      }
    },
    // The undo is said (which listings, back to what) for as long as a change stays undoable.
    undone: {
      after: { undoWindow: { target: "idle", actions: "forget" } },
      on: {
        ACT: acting,
        DISMISS: { target: "idle", actions: "forget" }
      }
    },
    failed: {
      on: {
        ACT: acting,
        DISMISS: { target: "idle", actions: "forget" }
      }
    }
  }
})

type Snapshot = { readonly matches: (state: "idle" | "moving" | "undoable" | "undoing" | "undone" | "failed") => boolean }

/** A change or its undo is on its way: the record's next version is not known yet. */
export const inFlight = (snapshot: Snapshot): boolean => snapshot.matches("moving") || snapshot.matches("undoing")

/** The actions a person may take on these listings now: none while a change is in flight. */
export const actionsFor = (snapshot: Snapshot, listings: ReadonlyArray<ListingRef>): ReadonlyArray<ModerationAction> =>
  inFlight(snapshot) ? [] : moderationActions.filter((action) => isLegal(action, listings))

export const canUndo = (snapshot: Snapshot): boolean => snapshot.matches("undoable")

/**
 * A listing as the screen should treat it: the last change made applies until the list has
 * reloaded with it (its status and version), so the next key acts on the new state.
 */
export const currentRef = <L extends ListingRef>(context: ModerationContext, listing: L): L => {
  const done = context.done?.moves.find((move) => move._id === listing._id)
  return done !== undefined && done.from === listing.status && listing.version < done.version ? { ...listing, status: done.to, version: done.version } : listing
}

/** The status each listing is shown in: the change in flight first, else as `currentRef` has it. */
export const shownStatus = (context: ModerationContext, listing: ListingRef): ListingStatus => {
  const moving = context.change?.listings.some((ref) => ref._id === listing._id) === true ? context.change : null
  return moving !== null ? statusAfter[moving.action] : currentRef(context, listing).status
}
