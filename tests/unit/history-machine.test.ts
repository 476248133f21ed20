import { describe, expect, it } from "vitest"
import type { HistoryEntry } from "../../contract/history.ts"
import {
  canRestoreNow,
  type HistoryContext,
  historyMachine,
  historyOpen,
  type HistoryPageLoaded,
  type HistoryRecord,
  historyTexts,
  type VersionContent
} from "../../machines/history.ts"
import { historyTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const record: HistoryRecord = { kind: "contact", id: "c1", label: "Partnership" }
const entry = (version: number, action: string, removed = false): HistoryEntry => ({
  eventId: String(version),
  version,
  at: "2026-11-25T00:00:00.000Z",
  actorEmail: "a@example.com",
  actorName: null,
  action,
  removed,
  changes: []
})
/** Three versions; the newest is current. */
const page: HistoryPageLoaded = {
  entries: [entry(3, "contact.update"), entry(2, "contact.update"), entry(1, "contact.create")],
  current: { version: 3, removed: false }
}
const content = (version: number): VersionContent => ({ version, removed: false, content: { subject: `v${version}` }, hidden: [] })
const refusal = { status: 409, message: "This record was changed since you opened its history." }

const events = [
  { type: "OPEN", record },
  { type: "CLOSE" },
  { type: "SELECT", version: 1 },
  { type: "SELECT", version: 3 },
  { type: "SELECT", version: 9 },
  { type: "COMPARE", with: 2 },
  { type: "COMPARE", with: 3 },
  { type: "RESTORE" },
  { type: "CONFIRM" },
  { type: "CANCEL" },
  { type: "RETRY" },
  actorDone("loadHistory", page),
  actorError("loadHistory", { status: undefined, message: "offline" }),
  actorDone("compare", [content(2), content(3)]),
  actorError("compare", { status: 500, message: "broken" }),
  actorDone("prepare", [content(1), content(3)]),
  actorError("prepare", { status: 500, message: "broken" }),
  actorDone("restore", { version: 4 }),
  actorError("restore", refusal)
] as const

type State = "closed" | "loading" | "failed" | "ready" | "comparing" | "preparing" | "confirming" | "restoring"

/** What the text says a person sees, written apart from the machine. */
interface Seen {
  readonly state: State
  readonly selected: number | null
  readonly pair: boolean
  readonly error: string | null
  readonly restored: { readonly from: number; readonly as: number } | null
}

const start: Seen = { state: "closed", selected: null, pair: false, error: null, restored: null }
const versions = [3, 2, 1]
/** Not the newest (3, current), and no removal in this history. */
const restorable = (version: number | null) => version === 1 || version === 2

const expectedAfter = (seen: Seen, event: { readonly type: string } & Record<string, unknown>): Seen => {
  const closable = ["loading", "failed", "ready", "comparing", "preparing", "confirming"].includes(seen.state)
  switch (event.type) {
    case "OPEN":
      return seen.state === "closed" ? { ...start, state: "loading" } : seen
    case "CLOSE":
      return closable ? start : seen
    case "RETRY":
      return seen.state === "failed" ? { ...seen, state: "loading", error: null } : seen
    case "SELECT":
      return seen.state === "ready" && versions.includes(event.version as number)
        ? { ...seen, selected: event.version as number, pair: false, error: null }
        : seen
    case "COMPARE":
      return seen.state === "ready" && versions.includes(event.with as number) && event.with !== seen.selected ? { ...seen, state: "comparing" } : seen
    case "RESTORE":
      return seen.state === "ready" && restorable(seen.selected) ? { ...seen, state: "preparing", error: null } : seen
    case "CONFIRM":
      return seen.state === "confirming" ? { ...seen, state: "restoring" } : seen
    case "CANCEL":
      return seen.state === "confirming" ? { ...seen, state: "ready", pair: false } : seen
    case "xstate.done.actor.loadHistory":
      return seen.state === "loading" ? { ...seen, state: "ready", selected: 3, pair: false } : seen
    case "xstate.error.actor.loadHistory":
      return seen.state === "loading" ? { ...seen, state: "failed", error: `${historyTexts.failed}: offline` } : seen
    case "xstate.done.actor.compare":
      return seen.state === "comparing" ? { ...seen, state: "ready", pair: true } : seen
    case "xstate.error.actor.compare":
      return seen.state === "comparing" ? { ...seen, state: "ready", error: "broken" } : seen
    case "xstate.done.actor.prepare":
      return seen.state === "preparing" ? { ...seen, state: "confirming", pair: true } : seen
    case "xstate.error.actor.prepare":
      return seen.state === "preparing" ? { ...seen, state: "ready", error: "broken" } : seen
    case "xstate.done.actor.restore":
      return seen.state === "restoring" ? { ...seen, state: "loading", restored: { from: seen.selected!, as: 4 } } : seen
    case "xstate.error.actor.restore":
      return seen.state === "restoring" ? { ...seen, state: "loading", error: `${historyTexts.restoreFailed}: ${refusal.message}` } : seen
    default:
      return seen
  }
}

describe("record history machine", () => {
  it("shows, compares and restores as the issue says, on every generated path", async () => {
    let seen = start
    let changed = 0
    let restores = 0
    const run = await runModel({
      machine: historyMachine,
      table: historyTable,
      inputs: [undefined as never],
      events: () => events as never,
      actorIds: ["loadHistory", "compare", "prepare", "restore"],
      key: (snapshot) => {
        const context = snapshot.context
        return JSON.stringify([snapshot.value, context.selected, context.pair !== null, context.error !== null, context.restored !== null])
      },
      provide: { actions: { recordChanged: () => void changed++ } },
      check: (_expected, actual, event) => {
        seen = event.type === "xstate.init" ? start : expectedAfter(seen, event)
        if (event.type === "xstate.done.actor.restore") restores++
        const context = actual.context as HistoryContext
        expect({
          state: actual.value,
          selected: context.selected,
          pair: context.pair !== null,
          error: context.error,
          restored: context.restored
        }).toEqual(seen)
        // The confirmation shows what the restore changes: from the record now (3) to the version brought back (1).
        if (seen.state === "confirming") expect(context.pair?.map((one) => one.version)).toEqual([3, 1])
        const snapshot = actual as unknown as Parameters<typeof historyOpen>[0]
        expect(historyOpen(snapshot)).toBe(seen.state !== "closed")
        expect(canRestoreNow(snapshot)).toBe(seen.state === "ready" && restorable(seen.selected))
      }
    })
    expectFullCoverage("record history", run)
    expect(changed).toBe(restores)
  })
})
