import { assign, fromPromise, setup } from "xstate"
import type { AddressSort, AnyAddress } from "../contract/addresses.ts"
import type { Pagination } from "../contract/common.ts"
import { failureOf } from "./call-failure.ts"

export interface AddressListQuery {
  readonly search: string
  readonly page: number
  readonly sort?: AddressSort
  readonly order?: "asc" | "desc"
}

export interface AddressListPage {
  readonly addresses: ReadonlyArray<AnyAddress>
  readonly pagination: Pagination
}

/**
 * A directory's list, searched and paged on the server. The query comes from the URL; the last
 * page stays on screen while the next one loads, and a failure keeps what was shown.
 */
export const addressListMachine = setup({
  types: {
    context: {} as { readonly query: AddressListQuery; readonly page: AddressListPage | null; readonly error: string | null },
    events: {} as { readonly type: "LOAD"; readonly query: AddressListQuery } | { readonly type: "RELOAD" },
    input: {} as { readonly query: AddressListQuery }
  },
  actors: {
    fetchPage: fromPromise<AddressListPage, AddressListQuery>(() => Promise.reject(new Error("fetchPage not provided")))
  },
  actions: {
    loadFailed: (_, _params: { readonly error: unknown }) => undefined
  }
}).createMachine({
  id: "addressList",
  context: ({ input }) => ({ query: input.query, page: null, error: null }),
  initial: "loading",
  on: {
    LOAD: { target: ".loading", actions: assign({ query: ({ event }) => event.query }) },
    RELOAD: ".loading"
  },
  states: {
    loading: {
      invoke: {
        id: "fetchPage",
        src: "fetchPage",
        input: ({ context }) => context.query,
        onDone: { target: "ready", actions: assign({ page: ({ event }) => event.output, error: null }) },
        onError: {
          target: "failed",
          actions: [
            assign({ error: ({ event }) => failureOf(event.error).message }),
            { type: "loadFailed", params: ({ event }) => ({ error: event.error }) }
          ]
        }
      }
    },
    ready: {},
    failed: {}
  }
})
