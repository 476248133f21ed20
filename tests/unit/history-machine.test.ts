import { describe, expect, it } from "vitest"
import { createActor, fromPromise, waitFor } from "xstate"
import type { HistoryEntry } from "../../contract/history.ts"
import {
  canRestoreNow,
  type HistoryContext,
  historyMachine,
  historyOpen,
  type HistoryPageLoaded,
  type HistoryRecord,
  historyTexts,
  type PairInput,
  restorable as canBeRestored,
  restoreTarget,
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

/** What docs/architecture.md ("Record history") says a person sees, written apart from the machine. */
interface Seen {
  readonly state: State
  readonly selected: number | null
  /** The versions side by side, as the machine holds them. */
  readonly pair: ReadonlyArray<number> | null
  readonly error: string | null
  readonly restored: { readonly from: number; readonly as: number } | null
}

const start: Seen = { state: "closed", selected: null, pair: null, error: null, restored: null }
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
        ? { ...seen, selected: event.version as number, pair: null, error: null }
        : seen
    case "COMPARE":
      // Not the selected version, nor the one it is compared with already.
      return seen.state === "ready" &&
        versions.includes(event.with as number) &&
        event.with !== seen.selected &&
        !(seen.pair ?? []).includes(event.with as number)
        ? { ...seen, state: "comparing" }
        : seen
    case "RESTORE":
      return seen.state === "ready" && restorable(seen.selected) ? { ...seen, state: "preparing", error: null } : seen
    case "CONFIRM":
      return seen.state === "confirming" ? { ...seen, state: "restoring" } : seen
    case "CANCEL":
      return seen.state === "confirming" ? { ...seen, state: "ready", pair: null } : seen
    case "xstate.done.actor.loadHistory":
      return seen.state === "loading" ? { ...seen, state: "ready", selected: 3, pair: null } : seen
    case "xstate.error.actor.loadHistory":
      return seen.state === "loading" ? { ...seen, state: "failed", error: `${historyTexts.failed}: offline` } : seen
    case "xstate.done.actor.compare":
      return seen.state === "comparing" ? { ...seen, state: "ready", pair: [2, 3] } : seen
    case "xstate.error.actor.compare":
      return seen.state === "comparing" ? { ...seen, state: "ready", error: "broken" } : seen
    case "xstate.done.actor.prepare":
      return seen.state === "preparing" ? { ...seen, state: "confirming", pair: [3, 1] } : seen
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
  it("shows, compares and restores as docs/architecture.md says, on every generated path", async () => {
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
        return JSON.stringify([
          snapshot.value,
          context.selected,
          context.pair?.map((side) => side.version) ?? null,
          context.error !== null,
          context.restored !== null
        ])
      },
      provide: { actions: { recordChanged: () => void changed++ } },
      check: (_expected, actual, event) => {
        seen = event.type === "xstate.init" ? start : expectedAfter(seen, event)
        if (event.type === "xstate.done.actor.restore") restores++
        const context = actual.context as HistoryContext
        expect({
          state: actual.value,
          selected: context.selected,
          pair: context.pair?.map((side) => side.version) ?? null,
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

  it("asks each call for what it needs: the record, the two versions in order, the version seen", async () => {
    const asked: Array<readonly [string, unknown]> = []
    const pairOf = (input: PairInput) => Promise.resolve(input.versions.map(content) as unknown as readonly [VersionContent, VersionContent])
    const actor = createActor(
      historyMachine.provide({
        actors: {
          loadHistory: fromPromise(({ input }) => (asked.push(["load", input]), Promise.resolve(page))),
          compare: fromPromise(({ input }: { input: PairInput }) => (asked.push(["compare", input]), pairOf(input))),
          prepare: fromPromise(({ input }: { input: PairInput }) => (asked.push(["prepare", input]), pairOf(input))),
          restore: fromPromise(({ input }) => (asked.push(["restore", input]), Promise.resolve({ version: 4 })))
        }
      })
    ).start()
    actor.send({ type: "OPEN", record })
    expect(actor.getSnapshot().context.record).toEqual(record)
    await waitFor(actor, (snapshot) => snapshot.matches("ready"))
    expect(asked).toEqual([["load", record]])
    // Compared with version 1: older first; the picker's version again is no new comparison, another one is.
    actor.send({ type: "COMPARE", with: 1 })
    await waitFor(actor, (snapshot) => snapshot.matches("ready"))
    expect(actor.getSnapshot().context.pair?.map((side) => side.version)).toEqual([1, 3])
    actor.send({ type: "COMPARE", with: 1 })
    expect(actor.getSnapshot().value).toBe("ready")
    actor.send({ type: "COMPARE", with: 9 })
    expect(actor.getSnapshot().value).toBe("ready")
    actor.send({ type: "COMPARE", with: 2 })
    expect(actor.getSnapshot().value).toBe("comparing")
    await waitFor(actor, (snapshot) => snapshot.matches("ready"))
    expect(asked.slice(1)).toEqual([
      ["compare", { record, versions: [1, 3] }],
      ["compare", { record, versions: [2, 3] }]
    ])
    // Restoring version 1: the record now beside it, then written at the version seen.
    actor.send({ type: "SELECT", version: 1 })
    actor.send({ type: "RESTORE" })
    await waitFor(actor, (snapshot) => snapshot.matches("confirming"))
    expect(actor.getSnapshot().context.pair?.map((side) => side.version)).toEqual([3, 1])
    actor.send({ type: "CONFIRM" })
    await waitFor(actor, (snapshot) => snapshot.matches("ready") && snapshot.context.restored !== null)
    expect(asked.slice(3)).toEqual([
      ["prepare", { record, versions: [1, 3] }],
      ["restore", { record, version: 1, expectedVersion: 3 }],
      ["load", record]
    ])
    actor.stop()
  })

  it("selects nothing in a history without versions", async () => {
    const actor = createActor(
      historyMachine.provide({
        actors: { loadHistory: fromPromise(() => Promise.resolve<HistoryPageLoaded>({ entries: [], current: { version: 1, removed: true } })) }
      })
    ).start()
    actor.send({ type: "OPEN", record })
    await waitFor(actor, (snapshot) => snapshot.matches("ready"))
    expect(actor.getSnapshot().context.selected).toBeNull()
    actor.stop()
  })

  it("restores only a version that is neither the newest nor a removal, and the newest when the record was removed", () => {
    expect(canBeRestored(null, 1)).toBe(false)
    expect(canBeRestored(page, null)).toBe(false)
    expect(canBeRestored(page, 9)).toBe(false)
    expect(canBeRestored(page, 2)).toBe(true)
    expect(canBeRestored(page, 3)).toBe(false)
    const removed: HistoryPageLoaded = { entries: [entry(4, "contact.delete", true), ...page.entries], current: { version: 4, removed: true } }
    expect(canBeRestored(removed, 4)).toBe(false)
    expect(canBeRestored(removed, 3)).toBe(true)
    const back: HistoryPageLoaded = { entries: [entry(5, "contact.restore"), ...removed.entries], current: { version: 5, removed: true } }
    expect(canBeRestored(back, 5)).toBe(true)
  })

  it("restores, asked on a deletion, the newest version before it; on any other version that version", () => {
    const removed: HistoryPageLoaded = { entries: [entry(4, "contact.delete", true), ...page.entries], current: { version: 4, removed: true } }
    expect(restoreTarget(removed, 4)).toBe(3)
    expect(restoreTarget(removed, 2)).toBe(2)
    expect(restoreTarget(page, 2)).toBe(2)
    expect(restoreTarget(page, 3)).toBe(null)
    expect(restoreTarget(null, 3)).toBe(null)
    // Deleted, restored, deleted again: the version restored, not the deletion before it.
    const twice: HistoryPageLoaded = {
      entries: [entry(6, "contact.delete", true), entry(5, "contact.restore"), ...removed.entries],
      current: { version: 6, removed: true }
    }
    expect(restoreTarget(twice, 6)).toBe(5)
    expect(restoreTarget(twice, 4)).toBe(3)
    // A deletion with nothing before it on the page: nothing to restore.
    expect(restoreTarget({ entries: [entry(9, "contact.delete", true)], current: { version: 9, removed: true } }, 9)).toBe(null)
  })

  it("says which call is missing when the console gave it none", async () => {
    const settle = () => new Promise((resolve) => setImmediate(resolve))
    const bare = createActor(historyMachine).start()
    bare.send({ type: "OPEN", record })
    await settle()
    expect(bare.getSnapshot().value).toBe("failed")
    expect(bare.getSnapshot().context.error).toBe(`${historyTexts.failed}: loadHistory not provided`)

    const loadOnly = createActor(historyMachine.provide({ actors: { loadHistory: fromPromise(() => Promise.resolve(page)) } })).start()
    loadOnly.send({ type: "OPEN", record })
    await settle()
    loadOnly.send({ type: "COMPARE", with: 2 })
    await settle()
    expect(loadOnly.getSnapshot().value).toBe("ready")
    expect(loadOnly.getSnapshot().context.error).toBe("compare not provided")
    loadOnly.send({ type: "SELECT", version: 1 })
    loadOnly.send({ type: "RESTORE" })
    await settle()
    expect(loadOnly.getSnapshot().value).toBe("ready")
    expect(loadOnly.getSnapshot().context.error).toBe("prepare not provided")

    const noRestore = createActor(
      historyMachine.provide({
        actors: { loadHistory: fromPromise(() => Promise.resolve(page)), prepare: fromPromise(() => Promise.resolve([content(3), content(1)] as const)) }
      })
    ).start()
    noRestore.send({ type: "OPEN", record })
    await settle()
    noRestore.send({ type: "SELECT", version: 1 })
    noRestore.send({ type: "RESTORE" })
    await settle()
    noRestore.send({ type: "CONFIRM" })
    await settle()
    expect(noRestore.getSnapshot().context.error).toBe(`${historyTexts.restoreFailed}: restore not provided`)
  })
})
