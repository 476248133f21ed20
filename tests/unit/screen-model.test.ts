import { describe, expect, it } from "vitest"
import { coveringPaths, type MachineSnapshot, type ModelPath, withoutPrefixes } from "../support/screen-model.ts"

const snapshot = { value: "idle", context: {} } as unknown as MachineSnapshot
const path = (input: unknown, ...events: ReadonlyArray<string>): ModelPath => ({
  input,
  initial: snapshot,
  initialLines: [],
  steps: events.map((type) => ({ event: { type }, expected: snapshot, lines: [] }))
})
const named = (paths: ReadonlyArray<ModelPath>) => paths.map((p) => `${String(p.input)}:${p.steps.map((step) => step.event.type).join(",")}`)

describe("generated screen paths", () => {
  it("leave out a path another path of the same input starts with, and keep the rest", () => {
    const paths = [path("a"), path("a", "OPEN"), path("a", "OPEN", "SAVE"), path("a", "OPEN", "CANCEL"), path("a", "CLOSE"), path("b", "OPEN"), path("b")]
    expect(named(withoutPrefixes(paths))).toEqual(["a:OPEN,SAVE", "a:OPEN,CANCEL", "a:CLOSE", "b:OPEN"])
  })

  it("compare whole events, so the same type with other data is another path", () => {
    const typed = (text: string): ModelPath => ({ ...path("a"), steps: [{ event: { type: "TYPE", text } as never, expected: snapshot, lines: [] }] })
    const longer: ModelPath = { ...path("a"), steps: [...typed("x").steps, { event: { type: "SAVE" }, expected: snapshot, lines: [] }] }
    expect(withoutPrefixes([typed("x"), typed("y"), longer]).map((p) => p.steps.length)).toEqual([1, 2])
  })

  it("are cut to the fewest that take every line and pass every state the whole set does", () => {
    const at = (state: string) => ({ value: state, context: {}, _nodes: [{ path: [state] }] }) as unknown as MachineSnapshot
    const walk = (input: string, ...steps: ReadonlyArray<[string, string]>): ModelPath => ({
      input,
      initial: at("idle"),
      initialLines: [],
      steps: steps.map(([line, state]) => ({ event: { type: line }, expected: at(state), lines: [line] }))
    })
    const long = walk("a", ["idle --OPEN--> open", "open"], ["open --SAVE--> saving", "saving"])
    const openOnly = walk("a", ["idle --OPEN--> open", "open"])
    const close = walk("a", ["idle --CLOSE--> closed", "closed"])
    const otherState = walk("b", ["idle --OPEN--> open", "open"], ["open --SAVE--> saving", "saving"], ["saving --X--> failed", "failed"])
    expect(coveringPaths([openOnly, long, close])).toEqual([long, close])
    // The longer path proves everything the first does and more: only it is kept.
    expect(coveringPaths([long, otherState])).toEqual([otherState])
    expect(coveringPaths([])).toEqual([])
  })
})
