import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import {
  actionsFor,
  canUndo,
  currentRef,
  type Done,
  type ListingRef,
  listingModerationMachine,
  moderationErrors,
  type ModerationEvent,
  shownStatus,
  UNDO_WINDOW_MS
} from "../../machines/listing-moderation.ts"
import { listingModerationTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const ref = (id: string, status: ListingRef["status"]): ListingRef => ({ _id: id, name: `Listing ${id}`, status, version: 1 })
const pendingOne = ref("p1", "pending")
const pendingTwo = ref("p2", "pending")
const approvedOne = ref("a1", "approved")
const rejectedOne = ref("r1", "rejected")

const approvedDone: Done = { action: "approve", moves: [{ _id: "p1", name: "Listing p1", from: "pending", to: "approved", version: 2, eventId: "7" }] }
const refused = { status: 409, message: "This listing is approved; it cannot be set to rejected." }
const expire = { type: "xstate.after.undoWindow.listingModeration.undoable" } as const
const expireUndone = { type: "xstate.after.undoWindow.listingModeration.undone" } as const

const events = [
  { type: "ACT", action: "approve", listings: [pendingOne] },
  { type: "ACT", action: "reject", listings: [pendingOne, pendingTwo] },
  { type: "ACT", action: "reject", listings: [pendingOne, approvedOne] },
  { type: "ACT", action: "pending", listings: [rejectedOne] },
  { type: "ACT", action: "approve", listings: [] },
  { type: "UNDO" },
  { type: "DISMISS" },
  expire,
  expireUndone,
  actorDone("move", approvedDone),
  actorError("move", refused),
  actorDone("undo", {}),
  actorError("undo", { status: undefined, message: "Failed to fetch" })
] as const

type State = "idle" | "moving" | "undoable" | "undoing" | "undone" | "failed"

/** The rules, written from the spec and the table's comment, not from the machine. */
const legal: Record<string, ReadonlyArray<string>> = { pending: ["approved", "rejected"], approved: ["pending"], rejected: ["approved"] }
const target = { approve: "approved", reject: "rejected", pending: "pending" } as const

interface Seen {
  readonly state: State
  readonly changing: string | null
  readonly undoable: boolean
  readonly error: string | null
  /** The action just undone, while the screen says so. */
  readonly undone: string | null
}

type ActEvent = Extract<ModerationEvent, { readonly type: "ACT" }>

const idle: Seen = { state: "idle", changing: null, undoable: false, error: null, undone: null }

const expectedAfter = (seen: Seen, event: { readonly type: string }): Seen => {
  switch (event.type) {
    case "ACT": {
      const { action, listings } = event as ActEvent
      const ok = listings.length > 0 && listings.every((listing) => legal[listing.status]!.includes(target[action]))
      return ok && seen.state !== "moving" && seen.state !== "undoing"
        ? { state: "moving", changing: action, undoable: false, error: null, undone: null }
        : seen
    }
    case "UNDO":
      return seen.state === "undoable" ? { ...seen, state: "undoing", undoable: false } : seen
    case "DISMISS":
      return seen.state === "undoable" || seen.state === "failed" || seen.state === "undone" ? idle : seen
    case expire.type:
      return seen.state === "undoable" ? idle : seen
    case expireUndone.type:
      return seen.state === "undone" ? idle : seen
    case "xstate.done.actor.move":
      return seen.state === "moving" ? { state: "undoable", changing: null, undoable: true, error: null, undone: null } : seen
    case "xstate.error.actor.move":
      return seen.state === "moving" ? { ...seen, state: "failed", changing: null, error: `${moderationErrors.move}: ${refused.message}` } : seen
    case "xstate.done.actor.undo":
      // The undone change is said: the one the move answered (approvedDone).
      return seen.state === "undoing" ? { state: "undone", changing: null, undoable: false, error: null, undone: approvedDone.action } : seen
    case "xstate.error.actor.undo":
      return seen.state === "undoing" ? { ...seen, state: "failed", error: `${moderationErrors.undo}: Failed to fetch` } : seen
    default:
      return seen
  }
}

describe("listing moderation machine", () => {
  it("follows the rules on every generated path, reloading the list after every answer", async () => {
    let seen: Seen = idle
    let reloads = 0
    let answers = 0
    const run = await runModel({
      machine: listingModerationMachine,
      table: listingModerationTable,
      inputs: [undefined as never],
      events: () => events as never,
      actorIds: ["move", "undo"],
      key: (snapshot) =>
        `${JSON.stringify(snapshot.value)} ${snapshot.context.change?.action ?? ""} ${snapshot.context.done === null ? "" : "done"} ${snapshot.context.undone === null ? "" : "undone"} ${snapshot.context.error ?? ""}`,
      provide: { actions: { listChanged: () => void reloads++ } },
      check: (_expected, actual, event) => {
        if (event.type === "xstate.init") seen = idle
        else seen = expectedAfter(seen, event)
        if (event.type.startsWith("xstate.done.actor") || event.type.startsWith("xstate.error.actor")) answers++
        const context = actual.context as { change: { action: string } | null; error: string | null; undone: { action: string } | null }
        expect({
          state: actual.value,
          changing: context.change?.action ?? null,
          undoable: canUndo(actual as never),
          error: context.error,
          undone: context.undone?.action ?? null
        }).toEqual(seen)
      }
    })
    expectFullCoverage("listing moderation", run)
    expect(reloads).toBe(answers)
  })

  it("offers only the actions legal for every listing named, and none while a change is in flight", () => {
    const actor = createActor(listingModerationMachine.provide({ actors: { move: fromPromise(() => new Promise<Done>(() => undefined)) } })).start()
    expect(actionsFor(actor.getSnapshot(), [pendingOne])).toEqual(["approve", "reject"])
    expect(actionsFor(actor.getSnapshot(), [approvedOne])).toEqual(["pending"])
    expect(actionsFor(actor.getSnapshot(), [rejectedOne])).toEqual(["approve"])
    expect(actionsFor(actor.getSnapshot(), [pendingOne, rejectedOne])).toEqual(["approve"])
    expect(actionsFor(actor.getSnapshot(), [pendingOne, approvedOne])).toEqual([])
    expect(actionsFor(actor.getSnapshot(), [])).toEqual([])
    actor.send({ type: "ACT", action: "approve", listings: [pendingOne] })
    expect(actionsFor(actor.getSnapshot(), [pendingTwo])).toEqual([])
    expect(shownStatus(actor.getSnapshot().context, pendingOne)).toBe("approved")
    expect(shownStatus(actor.getSnapshot().context, pendingTwo)).toBe("pending")
  })

  it("keeps a change undoable for 10 s, shown in its new status until the list has it", async () => {
    vi.useFakeTimers()
    try {
      const actor = createActor(listingModerationMachine.provide({ actors: { move: fromPromise(() => Promise.resolve(approvedDone)) } })).start()
      actor.send({ type: "ACT", action: "approve", listings: [pendingOne] })
      await vi.advanceTimersByTimeAsync(0)
      expect(actor.getSnapshot().value).toBe("undoable")
      expect(shownStatus(actor.getSnapshot().context, pendingOne)).toBe("approved")
      expect(currentRef(actor.getSnapshot().context, pendingOne)).toEqual({ ...pendingOne, status: "approved", version: 2 })
      expect(shownStatus(actor.getSnapshot().context, { ...pendingOne, status: "approved", version: 2 })).toBe("approved")
      expect(currentRef(actor.getSnapshot().context, { ...pendingOne, status: "rejected", version: 3 })).toEqual({
        ...pendingOne,
        status: "rejected",
        version: 3
      })
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

describe("listing moderation, what each call is given and what the screen is told", () => {
  it("moves the listings the key named, and undoes exactly the change the server made", async () => {
    const moved: Array<unknown> = []
    const undone: Array<unknown> = []
    const actor = createActor(
      listingModerationMachine.provide({
        actors: {
          move: fromPromise(({ input }) => (moved.push(input), Promise.resolve(approvedDone))),
          undo: fromPromise(({ input }) => (undone.push(input), Promise.resolve({})))
        }
      })
    ).start()
    actor.send({ type: "ACT", action: "approve", listings: [pendingOne] })
    expect(moved).toEqual([{ action: "approve", listings: [pendingOne] }])
    await new Promise((resolve) => setTimeout(resolve, 0))
    // While the undo is in flight, no action is offered on any listing.
    actor.send({ type: "UNDO" })
    expect(actionsFor(actor.getSnapshot(), [pendingOne])).toEqual([])
    expect(actionsFor(actor.getSnapshot(), [approvedOne])).toEqual([])
    expect(undone).toEqual([approvedDone])
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(actor.getSnapshot().value).toBe("undone")
    expect(actor.getSnapshot().context.undone).toEqual(approvedDone)
  })

  it("shows each listing of a change in flight in its new status, and the others as they are", () => {
    const actor = createActor(listingModerationMachine.provide({ actors: { move: fromPromise(() => new Promise<Done>(() => undefined)) } })).start()
    actor.send({ type: "ACT", action: "reject", listings: [pendingOne, pendingTwo] })
    const { context } = actor.getSnapshot()
    expect([pendingOne, pendingTwo, approvedOne].map((listing) => shownStatus(context, listing))).toEqual(["rejected", "rejected", "approved"])
  })

  it("treats a listing as the last change left it only until the list has caught up, and only that listing", () => {
    const context = { change: null, done: approvedDone, undone: null, error: null }
    // The listing the change moved, as the list still has it: its new status and version.
    expect(currentRef(context, pendingOne)).toEqual({ ...pendingOne, status: "approved", version: 2 })
    // Another listing, one in another status, one the list already has at that version: as they are.
    expect(currentRef(context, pendingTwo)).toEqual(pendingTwo)
    expect(currentRef(context, { ...pendingOne, status: "rejected" })).toEqual({ ...pendingOne, status: "rejected" })
    expect(currentRef(context, { ...pendingOne, version: 2 })).toEqual({ ...pendingOne, version: 2 })
  })

  it("fails saying so when the console gave it no move or undo call", async () => {
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
    const bare = createActor(listingModerationMachine).start()
    bare.send({ type: "ACT", action: "approve", listings: [pendingOne] })
    await settle()
    expect(bare.getSnapshot().value).toBe("failed")
    expect(bare.getSnapshot().context.error).toBe(`${moderationErrors.move}: move not provided`)
    const moveOnly = createActor(listingModerationMachine.provide({ actors: { move: fromPromise(() => Promise.resolve(approvedDone)) } })).start()
    moveOnly.send({ type: "ACT", action: "approve", listings: [pendingOne] })
    await settle()
    moveOnly.send({ type: "UNDO" })
    await settle()
    expect(moveOnly.getSnapshot().value).toBe("failed")
    expect(moveOnly.getSnapshot().context.error).toBe(`${moderationErrors.undo}: undo not provided`)
  })
})
