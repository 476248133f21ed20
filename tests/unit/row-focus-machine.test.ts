import { describe, expect, it } from "vitest"
import { createActor } from "xstate"
import { following, keysOnRows, rowFocusMachine } from "../../machines/row-focus.ts"
import { rowFocusTable } from "../spec/machine-tables.ts"
import { expectFullCoverage, runModel } from "../support/model.ts"

const ten = Array.from({ length: 10 }, (_, index) => `r${index}`)
const events = [
  { type: "SHOW", ids: ten },
  { type: "SHOW", ids: ["r3", "r5", "r7"] },
  { type: "SHOW", ids: [] },
  { type: "NEXT" },
  { type: "PREVIOUS" },
  { type: "PICK", id: "r5" },
  { type: "PICK", id: "gone" },
  { type: "TYPE" },
  { type: "LEAVE" },
  { type: "OPEN" },
  { type: "CLOSE" }
] as const

type Event = (typeof events)[number]
interface Seen {
  readonly state: "rows" | "typing" | "away"
  /** Where the keyboard was before a dialog took it. */
  readonly before: "rows" | "typing"
  readonly ids: ReadonlyArray<string>
  readonly currentId: string | null
  readonly index: number
}

/** What a person should see after each event, written from docs/architecture.md "Keys on a list", not from the machine. */
const expectedAfter = (seen: Seen, event: Event): Seen => {
  const at = (index: number) => {
    const clamped = Math.max(0, Math.min(seen.ids.length - 1, index))
    return { currentId: seen.ids[clamped] ?? null, index: seen.ids.length === 0 ? 0 : clamped }
  }
  switch (event.type) {
    case "SHOW": {
      // The current record stays current while shown; else the row in its place; the keyboard
      // stays where it is. No rows keep the current record for when rows come back.
      if (event.ids.length === 0) return { ...seen, ids: event.ids }
      const kept = seen.currentId === null ? -1 : (event.ids as ReadonlyArray<string>).indexOf(seen.currentId)
      const index = kept >= 0 ? kept : Math.max(0, Math.min(event.ids.length - 1, seen.index))
      return { ...seen, ids: event.ids, currentId: event.ids[index] ?? null, index: event.ids.length === 0 ? 0 : index }
    }
    case "NEXT":
      return seen.state === "rows" ? { ...seen, ...at(seen.index + 1) } : seen
    case "PREVIOUS":
      return seen.state === "rows" ? { ...seen, ...at(seen.index - 1) } : seen
    case "PICK": {
      const index = seen.ids.indexOf(event.id)
      return { ...seen, state: "rows", ...(index < 0 ? {} : at(index)) }
    }
    case "TYPE":
      return seen.state === "rows" ? { ...seen, state: "typing" } : seen
    case "LEAVE":
      return seen.state === "typing" ? { ...seen, state: "rows" } : seen
    case "OPEN":
      return seen.state === "away" ? seen : { ...seen, state: "away", before: seen.state }
    case "CLOSE":
      return seen.state === "away" ? { ...seen, state: seen.before } : seen
  }
}

describe("row focus machine", () => {
  it("follows the rules on every generated path", async () => {
    const start: Seen = { state: "rows", before: "rows", ids: [], currentId: null, index: 0 }
    let seen = start
    const run = await runModel({
      machine: rowFocusMachine,
      table: rowFocusTable,
      inputs: [{ currentId: null }],
      events: () => events,
      actorIds: [],
      key: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.before, snapshot.context.currentId, snapshot.context.ids.length]),
      check: (_expected, actual, event) => {
        seen = event.type === "xstate.init" ? start : expectedAfter(seen, event as Event)
        const context = actual.context as Seen
        const state = actual.value === "away" ? "away" : (actual.value as { keys: "rows" | "typing" }).keys
        const expected = { state: seen.state, ids: seen.ids, currentId: seen.currentId, index: seen.index }
        expect({ state, ids: context.ids, currentId: context.currentId, index: context.index }).toEqual(expected)
      }
    })
    expectFullCoverage("row focus", run)
  })

  it("starts, back from another screen, on the row that entry had current once it is shown", () => {
    const actor = createActor(rowFocusMachine, { input: { currentId: "r7" } }).start()
    expect(actor.getSnapshot().context.currentId).toBe("r7")
    actor.send({ type: "SHOW", ids: ten })
    expect(actor.getSnapshot().context).toMatchObject({ currentId: "r7", index: 7 })
    actor.stop()
  })

  it("keeps the current record through a reload that moves it, and takes the row in its place when it is gone", () => {
    const context = { ids: ["a", "b", "c", "d"], currentId: "c", index: 2 }
    expect(following(context, ["x", "c", "d"])).toEqual({ ids: ["x", "c", "d"], currentId: "c", index: 1 })
    expect(following(context, ["a", "b", "d", "e"])).toEqual({ ids: ["a", "b", "d", "e"], currentId: "d", index: 2 })
    expect(following(context, ["a"])).toEqual({ ids: ["a"], currentId: "a", index: 0 })
    expect(following(context, [])).toEqual({ ids: [], currentId: "c", index: 2 })
    expect(following(following(context, []), ["a", "b", "c"])).toEqual({ ids: ["a", "b", "c"], currentId: "c", index: 2 })
  })

  it("starts with the keyboard on its rows, none current until rows are shown", () => {
    const actor = createActor(rowFocusMachine, { input: {} }).start()
    expect(actor.getSnapshot().context).toEqual({ ids: [], currentId: null, index: 0, before: "rows" })
    expect(keysOnRows(actor.getSnapshot())).toBe(true)
    actor.send({ type: "TYPE" })
    expect(keysOnRows(actor.getSnapshot())).toBe(false)
  })

  it("makes the first row current when it is picked from further down", () => {
    const actor = createActor(rowFocusMachine, { input: {} }).start()
    actor.send({ type: "SHOW", ids: ten })
    actor.send({ type: "NEXT" })
    actor.send({ type: "NEXT" })
    actor.send({ type: "PICK", id: "r0" })
    expect(actor.getSnapshot().context).toMatchObject({ currentId: "r0", index: 0 })
  })

  it("gives the keyboard back to the rows after a dialog opened from them, though an earlier one was opened from the search", () => {
    const actor = createActor(rowFocusMachine, { input: {} }).start()
    actor.send({ type: "TYPE" })
    actor.send({ type: "OPEN" })
    actor.send({ type: "CLOSE" })
    expect(actor.getSnapshot().value).toEqual({ keys: "typing" })
    actor.send({ type: "LEAVE" })
    actor.send({ type: "OPEN" })
    actor.send({ type: "CLOSE" })
    expect(actor.getSnapshot().value).toEqual({ keys: "rows" })
  })
})
