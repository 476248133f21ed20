import { assertEvent, assign, fromPromise, setup } from "xstate"
import { serverMessageOr } from "../contract/call-failure.ts"

/** The confirmation's words (docs/console.md, "Confirm it's you"). */
export const confirmErrors = {
  /** The device or the browser gave no answer (cancelled, timed out), or the link is down. */
  passkeyNoAnswer: "No passkey was used: your device or browser cancelled it, or the server could not be reached.",
  /** The code could not be sent or checked: the server could not be reached. */
  unreachable: "The server could not be reached. Try again."
} as const

/** How the server says this session confirms, and whether it needs to now. */
export interface ConfirmStatus {
  readonly method: "passkey" | "code"
  readonly confirmedUntil: string | null
}

export interface ConfirmContext {
  readonly method: "passkey" | "code" | null
  readonly error: string | null
}

export type ConfirmEvent =
  /** A change that matters is about to be sent: confirm first, if the session needs to. */
  | { readonly type: "ASK" }
  | { readonly type: "USE_PASSKEY" }
  | { readonly type: "RESEND" }
  | { readonly type: "VERIFY"; readonly code: string }
  | { readonly type: "CANCEL" }

/**
 * Confirming it's you again (docs/security.md, "Confirm what matters"): before a change to admins,
 * roles, the allowed addresses, protected data or passkey rules, the console asks the server whether
 * this session confirmed within 10 minutes; if not, the person confirms with their passkey (or,
 * having none, a code by e-mail) or cancels. The host provides the calls and hears `confirmed` (the
 * change goes) or `cancelled` (it goes too, and the server refuses it in its words). A status that
 * cannot be read (the link is down) lets the change go: it waits in the outbox, and the server decides.
 */
export const confirmAgainMachine = setup({
  types: {} as { context: ConfirmContext; events: ConfirmEvent },
  actors: {
    status: fromPromise<ConfirmStatus>(() => Promise.reject(new Error("status not provided"))),
    confirmWithPasskey: fromPromise<unknown>(() => Promise.reject(new Error("confirmWithPasskey not provided"))),
    sendCode: fromPromise<unknown>(() => Promise.reject(new Error("sendCode not provided"))),
    verifyCode: fromPromise<unknown, { code: string }>(() => Promise.reject(new Error("verifyCode not provided")))
  },
  actions: {
    /** The change may go: confirmed, or nothing to confirm. */
    confirmed: () => undefined,
    /** The person said no: the change goes unconfirmed, and the server refuses it. */
    cancelled: () => undefined
  },
  guards: {
    stillConfirmed: (_, params: { status: ConfirmStatus }) => params.status.confirmedUntil !== null,
    byPasskey: (_, params: { status: ConfirmStatus }) => params.status.method === "passkey"
  }
}).createMachine({
  id: "confirmAgain",
  context: { method: null, error: null },
  initial: "idle",
  states: {
    idle: { on: { ASK: { target: "checking", actions: assign({ error: null }) } } },
    checking: {
      invoke: {
        id: "status",
        src: "status",
        onDone: [
          { guard: { type: "stillConfirmed", params: ({ event }) => ({ status: event.output }) }, target: "idle", actions: "confirmed" },
          { guard: { type: "byPasskey", params: ({ event }) => ({ status: event.output }) }, target: "passkey", actions: assign({ method: "passkey" }) },
          { target: "code", actions: assign({ method: "code" }) }
        ],
        onError: { target: "idle", actions: "confirmed" }
      }
    },
    passkey: {
      initial: "offered",
      on: { CANCEL: { target: "idle", actions: [assign({ error: null }), "cancelled"] } },
      states: {
        offered: { on: { USE_PASSKEY: { target: "asserting", actions: assign({ error: null }) } } },
        asserting: {
          invoke: {
            id: "confirmWithPasskey",
            src: "confirmWithPasskey",
            onDone: { target: "#confirmAgain.idle", actions: "confirmed" },
            onError: { target: "offered", actions: assign({ error: ({ event }) => serverMessageOr(event.error, confirmErrors.passkeyNoAnswer) }) }
          }
        }
      }
    },
    code: {
      initial: "sending",
      on: { CANCEL: { target: "idle", actions: [assign({ error: null }), "cancelled"] } },
      states: {
        sending: {
          invoke: {
            id: "sendCode",
            src: "sendCode",
            onDone: "sent",
            onError: { target: "sent", actions: assign({ error: ({ event }) => serverMessageOr(event.error, confirmErrors.unreachable) }) }
          }
        },
        sent: {
          on: {
            VERIFY: { target: "verifying", actions: assign({ error: null }) },
            RESEND: { target: "sending", actions: assign({ error: null }) }
          }
        },
        verifying: {
          invoke: {
            id: "verifyCode",
            src: "verifyCode",
            // Entered by VERIFY alone: the code is the one typed.
            input: ({ event }) => {
              assertEvent(event, "VERIFY")
              return { code: event.code }
            },
            onDone: { target: "#confirmAgain.idle", actions: "confirmed" },
            onError: { target: "sent", actions: assign({ error: ({ event }) => serverMessageOr(event.error, confirmErrors.unreachable) }) }
          }
        }
      }
    }
  }
})

export type ConfirmAgainMachine = typeof confirmAgainMachine
