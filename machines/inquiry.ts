import { assign, fromPromise, setup } from "xstate"
import { type InquiryStatus, inquiryMoves } from "../contract/advertising-rules.ts"
import type { FieldIssue } from "../contract/common.ts"
import { failureOf, issuesOf } from "../contract/call-failure.ts"

/** What the machine needs of an inquiry: what a move names and what it changes. */
export interface InquiryRef {
  readonly _id: string
  readonly companyName: string
  readonly status: InquiryStatus
  readonly adminNotes: string
  readonly version: number
}

/** One move asked for: the new status (the same one to save the notes only) with the notes. */
export interface InquiryMove {
  readonly inquiry: InquiryRef
  readonly status: InquiryStatus
  readonly adminNotes: string
}

export interface InquiryContext {
  /** The inquiry the detail modal shows. */
  readonly inquiry: InquiryRef | null
  /** The admin notes as typed. */
  readonly notes: string
  /** The move on its way. */
  readonly move: InquiryMove | null
  /** The move the server made (the confirmation after the modal closes). */
  readonly done: InquiryMove | null
  readonly error: string | null
  /** The fields a refused move named (a 400's issues): the form shows them under the notes. */
  readonly issues: ReadonlyArray<FieldIssue>
}

export type InquiryEvent =
  | { readonly type: "OPEN"; readonly inquiry: InquiryRef }
  | { readonly type: "EDIT"; readonly notes: string }
  | { readonly type: "MOVE"; readonly status: InquiryStatus }
  | { readonly type: "CLOSE" }
  | { readonly type: "DISMISS" }
  /** The list holds a newer copy of the open inquiry (another admin's change, or the server's copy after a refusal). */
  | { readonly type: "REFRESH"; readonly inquiry: InquiryRef }

/** The statuses the open inquiry may move to next: none when no inquiry is open. */
const nextStatuses = (inquiry: InquiryRef | null): ReadonlyArray<InquiryStatus> => (inquiry === null ? [] : inquiryMoves[inquiry.status])

/** The spec's texts (§4, §8): the button, its busy label and the failure. */
export const inquiryTexts = {
  markContacted: "Mark as Contacted",
  updating: "Updating...",
  failed: "Failed to update inquiry"
} as const

/**
 * The advertising inquiry's detail modal (docs/product-spec.md §4 "Advertising inquiry
 * status"): viewing an inquiry, editing its admin notes, updating ("Updating...") with the notes
 * sent along, then done (the modal closes; the list shows the move through the browser's store) or failed (the modal stays, with
 * the server's words and the notes typed; the server's copy of the inquiry replaces the stale
 * one, so trying again can succeed). A move is legal only as contract/advertising-rules.ts allows: pending, paid
 * and reviewed → contacted; contacted → converted | rejected. `movesFor` reads the snapshot for
 * the modal's buttons and, while it is open, the palette's moves.
 */
export const inquiryMachine = setup({
  types: {} as { context: InquiryContext; events: InquiryEvent },
  actors: {
    update: fromPromise<unknown, InquiryMove>(() => Promise.reject(new Error("update not provided")))
  },
  guards: {
    /** The funnel's next step from the open inquiry's status (notes alone are saved by no MOVE). */
    isLegal: ({ context }, params: { readonly status: InquiryStatus }) => nextStatuses(context.inquiry).includes(params.status)
  },
  actions: {
    open: assign((_, params: { readonly inquiry: InquiryRef }) => ({
      inquiry: params.inquiry,
      notes: params.inquiry.adminNotes,
      move: null,
      done: null,
      error: null,
      issues: []
    })),
    setNotes: assign({ notes: (_, params: { readonly notes: string }) => params.notes, error: null, issues: [] }),
    takeMove: assign({
      move: ({ context }, params: { readonly status: InquiryStatus }) =>
        context.inquiry === null ? null : { inquiry: context.inquiry, status: params.status, adminNotes: context.notes },
      error: null,
      issues: []
    }),
    takeAnswer: assign({ done: ({ context }) => context.move, move: null, inquiry: null, notes: "" }),
    showFailure: assign({
      error: (_, params: { readonly message: string; readonly issues: ReadonlyArray<FieldIssue> }) => params.message,
      issues: (_, params: { readonly message: string; readonly issues: ReadonlyArray<FieldIssue> }) => params.issues,
      move: null
    }),
    /** A newer copy of the open inquiry replaces it; another inquiry's changes nothing here. */
    refresh: assign({
      inquiry: ({ context }, params: { readonly inquiry: InquiryRef }) => (params.inquiry._id === context.inquiry?._id ? params.inquiry : context.inquiry)
    }),
    close: assign({ inquiry: null, notes: "", move: null, error: null, issues: [] }),
    forget: assign({ done: null })
  }
}).createMachine({
  context: { inquiry: null, notes: "", move: null, done: null, error: null, issues: [] },
  initial: "closed",
  states: {
    closed: {
      on: { OPEN: { target: "viewing", actions: { type: "open", params: ({ event }) => ({ inquiry: event.inquiry }) } } }
    },
    viewing: {
      on: {
        EDIT: { actions: { type: "setNotes", params: ({ event }) => ({ notes: event.notes }) } },
        REFRESH: { actions: { type: "refresh", params: ({ event }) => ({ inquiry: event.inquiry }) } },
        MOVE: {
          guard: { type: "isLegal", params: ({ event }) => ({ status: event.status }) },
          target: "updating",
          actions: { type: "takeMove", params: ({ event }) => ({ status: event.status }) }
        },
        CLOSE: { target: "closed", actions: "close" }
      }
    },
    updating: {
      invoke: {
        id: "update",
        src: "update",
        input: ({ context }) => context.move!,
        onDone: { target: "done", actions: "takeAnswer" },
        onError: {
          target: "failed",
          actions: [
            {
              type: "showFailure",
              params: ({ event }) => ({ message: `${inquiryTexts.failed}: ${failureOf(event.error).message}`, issues: issuesOf(event.error) })
            }
          ]
        }
      }
    },
    failed: {
      on: {
        EDIT: { target: "viewing", actions: { type: "setNotes", params: ({ event }) => ({ notes: event.notes }) } },
        REFRESH: { actions: { type: "refresh", params: ({ event }) => ({ inquiry: event.inquiry }) } },
        MOVE: {
          guard: { type: "isLegal", params: ({ event }) => ({ status: event.status }) },
          target: "updating",
          actions: { type: "takeMove", params: ({ event }) => ({ status: event.status }) }
        },
        CLOSE: { target: "closed", actions: "close" }
      }
    },
    done: {
      on: {
        OPEN: { target: "viewing", actions: { type: "open", params: ({ event }) => ({ inquiry: event.inquiry }) } },
        DISMISS: { target: "closed", actions: "forget" }
      }
    }
  }
})

type Snapshot = { readonly matches: (state: "closed" | "viewing" | "updating" | "failed" | "done") => boolean; readonly context: InquiryContext }

/** The modal is open. */
export const detailOpen = (snapshot: Snapshot): boolean => snapshot.matches("viewing") || snapshot.matches("updating") || snapshot.matches("failed")

/** The moves a person may make now: the funnel's next steps, none while one is on its way or the modal is closed. */
export const movesFor = (snapshot: Snapshot): ReadonlyArray<InquiryStatus> => (snapshot.matches("updating") ? [] : nextStatuses(snapshot.context.inquiry))
