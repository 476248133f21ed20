import { assign, fromPromise, setup } from "xstate"
import type { AnyAddress } from "../contract/addresses.ts"
import type { FieldIssue } from "../contract/common.ts"
import { issuesOf, serverMessageOf } from "../contract/call-failure.ts"

/** The modal's alert texts, docs/product-spec.md §8 "Addresses". */
export const addressModalErrors = {
  create: "Failed to create address",
  update: "Failed to update address",
  remove: "Failed to delete address"
} as const

export type Draft = Readonly<Record<string, string>>

export interface AddressModalContext {
  /** The address opened, or null when adding a new one. */
  readonly address: AnyAddress | null
  /** What the form opened with, then what it last asked to save (the form holds what is typed). */
  readonly draft: Draft
  /** Which fields must be filled before Save is enabled. */
  readonly required: ReadonlyArray<string>
  readonly error: string | null
  /** The server's own words (a duplicate, a stale version), shown under the alert. */
  readonly errorDetail: string | null
  /** The fields a refused save named (a 400's issues): the form shows each under its field. */
  readonly issues: ReadonlyArray<FieldIssue>
  /** Someone else changed the address while it was shown: the view says so. */
  readonly refreshed: boolean
}

export type AddressModalEvent =
  | { readonly type: "OPEN_ADD"; readonly required: ReadonlyArray<string> }
  | { readonly type: "OPEN_VIEW"; readonly address: AnyAddress; readonly draft: Draft; readonly required: ReadonlyArray<string> }
  | { readonly type: "OPEN_EDIT"; readonly address: AnyAddress; readonly draft: Draft; readonly required: ReadonlyArray<string> }
  | { readonly type: "OPEN_DELETE"; readonly address: AnyAddress; readonly draft: Draft; readonly required: ReadonlyArray<string> }
  /** A newer copy of the address shown arrived (a colleague's change, through the browser's store). */
  | { readonly type: "REFRESH"; readonly address: AnyAddress; readonly draft: Draft }
  | { readonly type: "EDIT" }
  | { readonly type: "SAVE"; readonly draft: Draft }
  | { readonly type: "CONFIRM_DELETE" }
  | { readonly type: "CLOSE" }

/** What opening an address gives the modal: the event's own fields. */
type Opened = { readonly address: AnyAddress; readonly draft: Draft; readonly required: ReadonlyArray<string> }

/** What Save hands over: the form as typed. */
const saved = ({ event }: { readonly event: { readonly draft: Draft } }) => ({ draft: event.draft })

const closedContext = { address: null, draft: {}, required: [], error: null, errorDetail: null, issues: [], refreshed: false } as const

/**
 * docs/product-spec.md §4, "Address modal": view, edit and delete modes; Add opens edit with an empty
 * form; after a successful save or delete the list reloads and the modal closes; a failure
 * keeps it open with the spec's alert and the server's reason. A view follows a colleague's
 * change (REFRESH), and its Edit starts from it; a form keeps what was typed.
 */
export const addressModalMachine = setup({
  types: {} as { context: AddressModalContext; events: AddressModalEvent },
  actors: {
    save: fromPromise<unknown, { address: AnyAddress | null; draft: Draft }>(() => Promise.reject(new Error("save not provided"))),
    remove: fromPromise<unknown, { address: AnyAddress }>(() => Promise.reject(new Error("remove not provided")))
  },
  actions: {
    reloadList: () => undefined,
    open: assign((_, params: Opened) => ({
      address: params.address,
      draft: params.draft,
      required: params.required,
      error: null,
      errorDetail: null,
      issues: [],
      refreshed: false
    })),
    refresh: assign((_, params: { readonly address: AnyAddress; readonly draft: Draft }) => ({
      address: params.address,
      draft: params.draft,
      refreshed: true
    })),
    keepDraft: assign({ draft: (_, params: { readonly draft: Draft }) => params.draft })
  },
  guards: {
    isNewer: ({ context }, params: { readonly address: AnyAddress }) =>
      context.address !== null && params.address._id === context.address._id && params.address.version > context.address.version,
    canSave: ({ context }, params: { readonly draft: Draft }) => context.required.every((field) => (params.draft[field] ?? "").trim() !== "")
  }
}).createMachine({
  context: closedContext,
  initial: "closed",
  states: {
    closed: {
      entry: assign(closedContext),
      on: {
        OPEN_ADD: {
          target: "editing",
          actions: assign(({ event }) => ({ address: null, draft: {}, required: event.required, error: null, errorDetail: null, issues: [], refreshed: false }))
        },
        OPEN_VIEW: { target: "viewing", actions: { type: "open", params: ({ event }) => event } },
        OPEN_EDIT: { target: "editing", actions: { type: "open", params: ({ event }) => event } },
        OPEN_DELETE: { target: "confirmingDelete", actions: { type: "open", params: ({ event }) => event } }
      }
    },
    viewing: {
      on: {
        EDIT: "editing",
        CLOSE: "closed",
        REFRESH: { guard: { type: "isNewer", params: ({ event }) => event }, actions: { type: "refresh", params: ({ event }) => event } }
      }
    },
    editing: {
      on: {
        // The form holds what is typed; Save hands it over. Required fields left blank keep it here.
        SAVE: [
          { guard: { type: "canSave", params: saved }, target: "saving", actions: { type: "keepDraft", params: saved } },
          { actions: { type: "keepDraft", params: saved } }
        ],
        CLOSE: "closed"
      }
    },
    saving: {
      invoke: {
        id: "save",
        src: "save",
        input: ({ context }) => ({ address: context.address, draft: context.draft }),
        onDone: { target: "closed", actions: "reloadList" },
        onError: {
          target: "editing",
          actions: assign(({ context, event }) => {
            const detail = serverMessageOf(event.error)
            // A new address shows the server's error itself, as the spec says; an update names the failure and gives the reason.
            const issues = issuesOf(event.error)
            return context.address === null
              ? { error: detail ?? addressModalErrors.create, errorDetail: null, issues }
              : { error: addressModalErrors.update, errorDetail: detail, issues }
          })
        }
      }
    },
    confirmingDelete: {
      on: { CONFIRM_DELETE: "deleting", CLOSE: "closed" }
    },
    deleting: {
      invoke: {
        id: "remove",
        src: "remove",
        input: ({ context }) => ({ address: context.address as AnyAddress }),
        onDone: { target: "closed", actions: "reloadList" },
        onError: {
          target: "confirmingDelete",
          actions: assign(({ event }) => ({ error: addressModalErrors.remove, errorDetail: serverMessageOf(event.error) }))
        }
      }
    }
  }
})
