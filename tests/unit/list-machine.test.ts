import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type ListPage, type ListQuery, listMachine, queryKey } from "../../machines/list.ts"
import { listTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const query = (search: string, page = 1, filters: Record<string, string> = {}): ListQuery => ({ search, page, filters })
const first = query("")
const pageOf = (name: string): ListPage => ({ rows: [name], pagination: { page: 1, limit: 20, total: 1, pages: 1 } })
const network = { status: undefined, message: "Failed to fetch" }
const arrived = pageOf("arrived")

const events = [
  { type: "LOAD", query: first },
  { type: "LOAD", query: query("  ", 1, { status: "" }) },
  { type: "LOAD", query: query("pi") },
  { type: "LOAD", query: query("pi", 2) },
  { type: "RELOAD" },
  { type: "KEPT", query: first, page: pageOf("kept") },
  { type: "KEPT", query: query("pi"), page: pageOf("kept pi") },
  actorDone("fetchPage", pageOf("answer")),
  actorError("fetchPage", network)
] as const

/** What a person should see after each event, written from the rules above, not from the machine. */
interface Seen {
  readonly state: "loading" | "ready" | "failed"
  readonly query: ListQuery
  readonly page: ListPage | null
  readonly error: string | null
}

const expectedAfter = (seen: Seen, event: { readonly type: string; readonly query?: ListQuery; readonly output?: unknown; readonly page?: ListPage }): Seen => {
  switch (event.type) {
    case "LOAD":
      return event.query === undefined || queryKey(event.query) === queryKey(seen.query) ? seen : { ...seen, state: "loading", query: event.query }
    case "RELOAD":
      return { ...seen, state: "loading" }
    // A kept page shows only for its own query, while it is asked for or after the server
    // could not be reached (the link is down: the store's copy is what the person works on).
    case "KEPT":
      return seen.state !== "ready" && event.query !== undefined && queryKey(event.query) === queryKey(seen.query) && event.page !== undefined
        ? { ...seen, page: event.page }
        : seen
    case "xstate.done.actor.fetchPage":
      return seen.state === "loading" ? { ...seen, state: "ready", page: event.output as ListPage, error: null } : seen
    case "xstate.error.actor.fetchPage":
      return seen.state === "loading" ? { ...seen, state: "failed", error: network.message } : seen
    default:
      return seen
  }
}

describe("list machine", () => {
  it("treats queries that differ only in blank search or empty filters as the same list", () => {
    expect(queryKey(query("  pi "))).toBe(queryKey(query("pi", 1, { status: "" })))
    expect(queryKey(query("pi", 2))).not.toBe(queryKey(query("pi")))
    expect(queryKey({ ...first, filters: { a: "1", b: "2" } })).toBe(queryKey({ ...first, filters: { b: "2", a: "1" } }))
    expect(queryKey({ ...first, sort: "name", order: "asc" })).not.toBe(queryKey({ ...first, sort: "name", order: "desc" }))
  })

  it("follows the rules on every generated path, with a failure keeping the page shown", async () => {
    let seen: Seen = { state: "loading", query: first, page: null, error: null }
    const failures: Array<unknown> = []
    const run = await runModel({
      machine: listMachine,
      table: listTable,
      // Nothing here yet, or start-up's page already here (src/lib/list/use-list.ts).
      inputs: [{ query: first }, { query: first, page: arrived }],
      events: () => events,
      actorIds: ["fetchPage"],
      provide: { actions: { loadFailed: (_: unknown, params: { readonly error: unknown }) => void failures.push(params.error) } },
      check: (_expected, actual, event, input) => {
        // A page that is already here is shown ready: the list is not loading anything.
        const startedWith: Seen =
          input.page === undefined
            ? { state: "loading", query: first, page: null, error: null }
            : { state: "ready", query: first, page: input.page, error: null }
        seen = event.type === "xstate.init" ? startedWith : expectedAfter(seen, event)
        const context = actual.context as Seen
        expect({ state: actual.value, query: queryKey(context.query), page: context.page, error: context.error }).toEqual({
          state: seen.state,
          query: queryKey(seen.query),
          page: seen.page,
          error: seen.error
        })
      }
    })
    expectFullCoverage("list", run)
    expect(failures).toContainEqual(network)
  })

  it("asks for nothing when it starts with a page that is already here, and for the first page otherwise", () => {
    const asked: Array<string> = []
    const machine = listMachine.provide({
      actors: { fetchPage: fromPromise(({ input }: { input: ListQuery }) => (asked.push(queryKey(input)), new Promise<ListPage>(() => undefined))) }
    })
    const given = createActor(machine, { input: { query: first, page: arrived } }).start()
    expect(given.getSnapshot().value).toBe("ready")
    expect(given.getSnapshot().context.page).toBe(arrived)
    given.send({ type: "LOAD", query: first })
    expect(asked).toEqual([])
    const empty = createActor(machine, { input: { query: first } }).start()
    expect(empty.getSnapshot().value).toBe("loading")
    expect(asked).toEqual([queryKey(first)])
    given.stop()
    empty.stop()
  })

  it("fails saying so when the console gave it no page call", async () => {
    const actor = createActor(listMachine, { input: { query: first } }).start()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(actor.getSnapshot().value).toBe("failed")
    expect(actor.getSnapshot().context.error).toBe("fetchPage not provided")
  })
})
