import { and, assign, fromPromise, not, setup, stateIn } from "xstate"

/**
 * The console's link with the server, as the event-sourced client sees it (docs/architecture.md,
 * "The browser's store"). Three regions run side by side:
 *
 * - `link`: `catchingUp` while the change stream reconnects and replays what it missed since the
 *   store's last event id, `online` once it is live, `offline` when the link is cut (the browser
 *   says so, or a send failed for the network); offline, the link is tried again every 5 s
 *   (a server that was stopped says nothing when it is back).
 * - `outbox`: the commands waiting in the browser's outbox (counted as made here, and as read
 *   whenever it is read: `OUTBOX_READ`, the tabs share it) go out one at a time, in the order they
 *   were made, unless the link is offline (they carry the versions the person saw, so catching up
 *   need not come first); a command the server answers (done or refused)
 *   leaves the outbox; one the network loses stays and goes again with the same key, which the
 *   server applies once (docs/api.md, "Commands, exactly once"). A busy server (503) is asked
 *   again after the wait it names.
 * - `conflicts`: each refused command is kept with the server's words until the person has seen
 *   it; the record itself is put back by the host at once. A refusal another tab heard for a
 *   command this tab made, whose screen has gone (a form left while saving), is kept here too
 *   (`HEARD_REFUSAL`): the tab the person made it in says it.
 */

/** A command the server refused: its id, the record it was about and the server's words. */
export interface Refusal {
  readonly commandId: string
  readonly kind: string
  readonly recordId: string
  /** The command's words ("Approved \"Pi Club\""): the history dialog's title for a conflict. */
  readonly label: string
  /** 400, 403, 404 or 409: a 409 offers the record's history. */
  readonly status: number
  readonly message: string
  /**
   * A change refused because the record changed since it was read (409): what was sent, to send
   * again at the record's version now. Kept in the browser until the person applies it or lets
   * it go (src/lib/store/browser-store.ts, `conflicts`).
   */
  readonly retry?: {
    readonly method: "POST" | "PUT" | "PATCH" | "DELETE"
    readonly path: string
    readonly body: unknown
    /** The version the record is at now, as the refusal said. */
    readonly version: number
    /** The command's words for a refusal, and where its answer carries the record. */
    readonly failed: string
    readonly answer?: string | undefined
  }
}

type Refused = { readonly outcome: "refused"; readonly refusal: Refusal }
type Busy = { readonly outcome: "busy"; readonly retryAfterMs: number }

/** What sending the first waiting command came to. A lost link rejects instead. */
export type SendOutcome = { readonly outcome: "sent"; readonly commandId: string } | Refused | Busy

export interface SyncContext {
  /** Commands in the outbox, not yet answered. */
  readonly pending: number
  readonly refusals: ReadonlyArray<Refusal>
  /** How long a busy server asked to wait before the next send. */
  readonly retryAfterMs: number
}

export type SyncEvent =
  | { readonly type: "LINK_UP" }
  | { readonly type: "LINK_DOWN" }
  | { readonly type: "CAUGHT_UP" }
  | { readonly type: "QUEUED" }
  | { readonly type: "OUTBOX_READ"; readonly pending: number }
  | { readonly type: "DISMISS"; readonly commandId: string }
  | { readonly type: "HEARD_REFUSAL"; readonly refusal: Refusal }

/** How long the console waits, offline, before it tries the link again. */
export const LINK_RETRY_MS = 5_000

export const syncMachine = setup({
  types: {} as {
    context: SyncContext
    events: SyncEvent
    input: { readonly pending: number }
  },
  actors: {
    sendNext: fromPromise<SendOutcome>(() => Promise.reject(new Error("sendNext not provided")))
  },
  guards: {
    /** Something waits and the link is not known to be down: send the first one. */
    maySend: and([({ context }) => context.pending > 0, not(stateIn({ link: "offline" }))]),
    wasSent: (_, params: SendOutcome) => params.outcome === "sent",
    wasRefused: (_, params: SendOutcome) => params.outcome === "refused",
    hasRefusals: ({ context }) => context.refusals.length > 0,
    allSeen: ({ context }) => context.refusals.length === 0
  },
  actions: {
    countQueued: assign({ pending: ({ context }) => context.pending + 1 }),
    countRead: assign({ pending: (_, params: { readonly pending: number }) => params.pending }),
    countAnswered: assign({ pending: ({ context }) => Math.max(0, context.pending - 1) }),
    keepRefusal: assign({ refusals: ({ context }, params: Refused) => [...context.refusals, params.refusal] }),
    forgetRefusal: assign({
      refusals: ({ context }, params: { readonly commandId: string }) => context.refusals.filter((refusal) => refusal.commandId !== params.commandId)
    }),
    waitAsked: assign({ retryAfterMs: (_, params: Busy) => params.retryAfterMs }),
    /** The console puts the record back and says why. */
    refused: (_, _params: Refused) => undefined
  },
  delays: {
    retryAfter: ({ context }) => context.retryAfterMs,
    retryLink: LINK_RETRY_MS
  }
}).createMachine({
  // Named: the lost link's transition targets `#sync.link.offline` from the outbox.
  id: "sync",
  type: "parallel",
  context: ({ input }) => ({ pending: input.pending, refusals: [], retryAfterMs: 0 }),
  on: {
    QUEUED: { actions: "countQueued" },
    // The browser's outbox as read (the tabs share it): a command another tab made and left is sent from here too.
    OUTBOX_READ: { actions: { type: "countRead", params: ({ event }) => ({ pending: event.pending }) } },
    HEARD_REFUSAL: { actions: { type: "keepRefusal", params: ({ event }) => ({ outcome: "refused", refusal: event.refusal }) } }
  },
  states: {
    link: {
      // A console starts by catching up from the store's last event id; a browser with no link
      // says LINK_DOWN at once.
      initial: "catchingUp",
      states: {
        catchingUp: {
          on: { CAUGHT_UP: "online", LINK_DOWN: "offline" }
        },
        online: {
          on: { LINK_DOWN: "offline" }
        },
        offline: {
          after: { retryLink: "catchingUp" },
          on: { LINK_UP: "catchingUp" }
        }
      }
    },
    outbox: {
      initial: "idle",
      states: {
        idle: {
          always: { guard: "maySend", target: "sending" }
        },
        sending: {
          invoke: {
            id: "sendNext",
            src: "sendNext",
            onDone: [
              { guard: { type: "wasSent", params: ({ event }) => event.output }, target: "idle", actions: "countAnswered" },
              {
                guard: { type: "wasRefused", params: ({ event }) => event.output },
                target: "idle",
                actions: [
                  "countAnswered",
                  // The guard above has told which outcome this is.
                  { type: "keepRefusal", params: ({ event }) => event.output as Refused },
                  { type: "refused", params: ({ event }) => event.output as Refused }
                ]
              },
              { target: "waiting", actions: { type: "waitAsked", params: ({ event }) => event.output as Busy } }
            ],
            // The network lost it: the command stays in the outbox and goes again, with its key,
            // once the link is back.
            onError: { target: ["#sync.outbox.idle", "#sync.link.offline"] }
          },
          on: { LINK_DOWN: "idle" }
        },
        waiting: {
          after: { retryAfter: "idle" },
          on: { LINK_DOWN: "idle" }
        }
      }
    },
    conflicts: {
      initial: "none",
      states: {
        none: {
          always: { guard: "hasRefusals", target: "shown" }
        },
        shown: {
          always: { guard: "allSeen", target: "none" },
          on: { DISMISS: { actions: { type: "forgetRefusal", params: ({ event }) => ({ commandId: event.commandId }) } } }
        }
      }
    }
  }
})
