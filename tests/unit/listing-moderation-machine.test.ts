import { describe, expect, it, vi } from "vitest"
import { createActor } from "xstate"
import {
  actionsFor,
  canUndo,
  type Done,
  type ListingRef,
  listingModerationMachine,
  type ModerationEvent,
  UNDO_WINDOW_MS
} from "../../machines/listing-moderation.ts"
import { listingModerationTable } from "../spec/machine-tables.ts"
import { expectFullCoverage, runModel } from "../support/model.ts"

const ref = (id: string, status: ListingRef["status"]): ListingRef => ({ _id: id, name: `Listing ${id}`, status, version: 1 })
const pendingOne = ref("p1", "pending")
const pendingTwo = ref("p2", "pending")
const approvedOne = ref("a1", "approved")
const rejectedOne = ref("r1", "rejected")

const expire = { type: "xstate.after.undoWindow.listingModeration.undoable" } as const
const expireUndone = { type: "xstate.after.undoWindow.listingModeration.undone" } as const

const events = [
  { type: "ACT", action: "approve", listings: [pendingOne], commandId: "c1" },
  { type: "ACT", action: "reject", listings: [pendingOne, pendingTwo], commandId: "c2" },
  { type: "ACT", action: "reject", listings: [pendingOne, approvedOne], commandId: "c3" },
  { type: "ACT", action: "pending", listings: [rejectedOne], commandId: "c4" },
  { type: "ACT", action: "approve", listings: [], commandId: "c5" },
  { type: "UNDO" },
  { type: "DISMISS" },
  { type: "REFUSED", commandId: "c1" },
  { type: "REFUSED", commandId: "other" },
  expire,
  expireUndone
] as const

type State = "idle" | "undoable" | "undone"

/** The rules, written from the spec and the table's comment, not from the machine. */
const legal: Record<string, ReadonlyArray<string>> = { pending: ["approved", "rejected"], approved: ["pending"], rejected: ["approved"] }
const target = { approve: "approved", reject: "rejected", pending: "pending" } as const

interface Seen {
  readonly state: State
  /** The command that may be undone. */
  readonly undoable: string | null
  /** The command just undone, while the screen says so. */
  readonly undone: string | null
}

type ActEvent = Extract<ModerationEvent, { readonly type: "ACT" }>

const idle: Seen = { state: "idle", undoable: null, undone: null }

const expectedAfter = (seen: Seen, event: { readonly type: string; readonly commandId?: string }, sent: Array<string>): Seen => {
  switch (event.type) {
    case "ACT": {
      const { action, listings, commandId } = event as ActEvent
      const ok = listings.length > 0 && listings.every((listing) => legal[listing.status]!.includes(target[action]))
      if (!ok) return seen
      sent.push(`change ${commandId}`)
      return { state: "undoable", undoable: commandId, undone: null }
    }
    case "UNDO":
      if (seen.state !== "undoable") return seen
      sent.push(`undo ${seen.undoable}`)
      return { state: "undone", undoable: null, undone: seen.undoable }
    case "REFUSED":
      return seen.state === "undoable" && seen.undoable === event.commandId ? idle : seen
    case "DISMISS":
      return seen.state === "idle" ? seen : idle
    case expire.type:
      return seen.state === "undoable" ? idle : seen
    case expireUndone.type:
      return seen.state === "undone" ? idle : seen
    default:
      return seen
  }
}

describe("listing moderation machine", () => {
  it("follows the rules on every generated path, asking the console for each change and undo at once", async () => {
    let seen: Seen = idle
    let expected: Array<string> = []
    let sent: Array<string> = []
    const run = await runModel({
      machine: listingModerationMachine,
      table: listingModerationTable,
      inputs: [undefined as never],
      events: () => events as never,
      actorIds: [],
      key: (snapshot) => `${JSON.stringify(snapshot.value)} ${snapshot.context.done?.commandId ?? ""} ${snapshot.context.undone?.commandId ?? ""}`,
      provide: {
        actions: {
          change: (_: unknown, done: Done) => void sent.push(`change ${done.commandId}`),
          undo: (_: unknown, done: Done) => void sent.push(`undo ${done.commandId}`)
        }
      },
      check: (_expected, actual, event) => {
        if (event.type === "xstate.init") {
          seen = idle
          expected = []
          sent = []
        } else seen = expectedAfter(seen, event, expected)
        const context = actual.context as { done: Done | null; undone: Done | null }
        expect({
          state: actual.value,
          undoable: canUndo(actual as never) ? (context.done?.commandId ?? null) : null,
          undone: actual.value === "undone" ? (context.undone?.commandId ?? null) : null
        }).toEqual(seen)
        expect(sent).toEqual(expected)
      }
    })
    expectFullCoverage("listing moderation", run)
  })

  it("offers only the actions legal for every listing named, as shown", () => {
    expect(actionsFor([pendingOne])).toEqual(["approve", "reject"])
    expect(actionsFor([approvedOne])).toEqual(["pending"])
    expect(actionsFor([rejectedOne])).toEqual(["approve"])
    expect(actionsFor([pendingOne, rejectedOne])).toEqual(["approve"])
    expect(actionsFor([pendingOne, approvedOne])).toEqual([])
    expect(actionsFor([])).toEqual([])
  })

  it("takes keys one after another without waiting, each change its own, the last one undoable", () => {
    const changes: Array<Done> = []
    const actor = createActor(listingModerationMachine.provide({ actions: { change: (_, done) => void changes.push(done) } })).start()
    for (const [index, listing] of [pendingOne, pendingTwo, rejectedOne].entries())
      actor.send({ type: "ACT", action: "approve", listings: [listing], commandId: `k${index}` })
    expect(changes.map((done) => [done.commandId, done.moves.map((move) => [move._id, move.from, move.to])])).toEqual([
      ["k0", [["p1", "pending", "approved"]]],
      ["k1", [["p2", "pending", "approved"]]],
      ["k2", [["r1", "rejected", "approved"]]]
    ])
    expect(actor.getSnapshot().context.done?.commandId).toBe("k2")
    // The refusal of an earlier change leaves the last one undoable.
    actor.send({ type: "REFUSED", commandId: "k0" })
    expect(canUndo(actor.getSnapshot())).toBe(true)
  })

  it("keeps a change undoable for 10 s, each new change starting its own 10 s", async () => {
    vi.useFakeTimers()
    try {
      const actor = createActor(listingModerationMachine).start()
      actor.send({ type: "ACT", action: "approve", listings: [pendingOne], commandId: "c1" })
      await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 1)
      actor.send({ type: "ACT", action: "approve", listings: [pendingTwo], commandId: "c2" })
      await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 1)
      expect(canUndo(actor.getSnapshot())).toBe(true)
      await vi.advanceTimersByTimeAsync(1)
      expect(actor.getSnapshot().value).toBe("idle")
      expect(canUndo(actor.getSnapshot())).toBe(false)
    } finally {
      vi.useRealTimers()
    }
  })
})
