import { assign, fromPromise, setup } from "xstate"
import type { Pagination } from "../contract/common.ts"
import { failureOf } from "../contract/call-failure.ts"

/**
 * What a list shows, as its URL says it: the search, the page, the sort and the screen's own
 * filters (status, type…), each a string. Two queries are the same list when their keys match.
 */
export interface ListQuery {
  readonly search: string
  readonly page: number
  readonly sort?: string | undefined
  readonly order?: "asc" | "desc" | undefined
  readonly filters: Readonly<Record<string, string>>
}

export interface ListPage<Row = unknown> {
  readonly rows: ReadonlyArray<Row>
  readonly pagination: Pagination
  /** When the server answered it (Date.now()): kept with the page, said when it is shown with no link. */
  readonly readAt?: number
}

/** The identity of a query: the same key means the same rows, so no second request. */
export const queryKey = (query: ListQuery): string =>
  JSON.stringify([
    query.search.trim(),
    query.page,
    query.sort ?? null,
    query.order ?? null,
    Object.entries(query.filters)
      .filter(([, value]) => value !== "")
      .sort(([a], [b]) => a.localeCompare(b))
  ])

export interface ListContext {
  readonly query: ListQuery
  /** The last page that arrived: kept on screen while the next one loads and after a failure. */
  readonly page: ListPage | null
  readonly error: string | null
}

export type ListEvent =
  | { readonly type: "LOAD"; readonly query: ListQuery }
  | { readonly type: "RELOAD" }
  /** The browser's store still had this query's page: shown while the server is asked. */
  | { readonly type: "KEPT"; readonly query: ListQuery; readonly page: ListPage }

/** The query a LOAD asks for. */
type Asked = { readonly query: ListQuery }
const asked = ({ event }: { readonly event: Asked }): Asked => ({ query: event.query })

/**
 * Every list screen (docs/architecture.md, "The list pattern"): the query comes from the URL;
 * one request per query; the last page stays on screen while the next loads, or the page the
 * browser's store kept for the query (KEPT) until the server's arrives, or after a read failed; a
 * failure keeps what was shown and offers RELOAD.
 */
export const listMachine = setup({
  types: {} as {
    context: ListContext
    events: ListEvent
    input: { readonly query: ListQuery; readonly page?: ListPage | undefined }
  },
  actors: {
    fetchPage: fromPromise<ListPage, ListQuery>(() => Promise.reject(new Error("fetchPage not provided")))
  },
  guards: {
    /** Started with a page that is already here: nothing to load. */
    hasPage: ({ context }) => context.page !== null,
    isNewQuery: ({ context }, params: Asked) => queryKey(params.query) !== queryKey(context.query),
    isAsked: ({ context }, params: Asked) => queryKey(params.query) === queryKey(context.query)
  },
  actions: {
    takeQuery: assign({ query: (_, params: Asked) => params.query }),
    loadFailed: (_, _params: { readonly error: unknown }) => undefined
  }
}).createMachine({
  // A page that is already here (start-up's, src/lib/list/use-list.ts) shows from the first
  // render, and the list starts ready with it: no request, and never busy.
  context: ({ input }) => ({ query: input.query, page: input.page ?? null, error: null }),
  initial: "starting",
  states: {
    starting: {
      always: [{ guard: "hasPage", target: "ready" }, { target: "loading" }]
    },
    loading: {
      invoke: {
        id: "fetchPage",
        src: "fetchPage",
        input: ({ context }) => context.query,
        onDone: { target: "ready", actions: assign({ page: ({ event }) => event.output, error: null }) },
        onError: {
          target: "failed",
          actions: [assign({ error: ({ event }) => failureOf(event.error).message }), { type: "loadFailed", params: ({ event }) => ({ error: event.error }) }]
        }
      },
      on: {
        // A newer query replaces the one in flight; its answer is dropped with the old invoke.
        LOAD: { guard: { type: "isNewQuery", params: asked }, target: "loading", reenter: true, actions: { type: "takeQuery", params: asked } },
        RELOAD: { target: "loading", reenter: true },
        // The page the store kept for this query shows at once; the server's answer replaces it.
        KEPT: { guard: { type: "isAsked", params: asked }, actions: assign({ page: ({ event }) => event.page }) }
      }
    },
    ready: {
      on: {
        LOAD: { guard: { type: "isNewQuery", params: asked }, target: "loading", actions: { type: "takeQuery", params: asked } },
        RELOAD: "loading"
      }
    },
    failed: {
      on: {
        LOAD: { guard: { type: "isNewQuery", params: asked }, target: "loading", actions: { type: "takeQuery", params: asked } },
        RELOAD: "loading",
        // The server could not be reached (the link is down), but the store kept this query's page:
        // it shows, with the failure still said, until a read gets through.
        KEPT: { guard: { type: "isAsked", params: asked }, actions: assign({ page: ({ event }) => event.page }) }
      }
    }
  }
})
