import { createActor, fromPromise } from "xstate"
import { describe, expect, it } from "vitest"
import { detailOpen, type InquiryRef, inquiryMachine, inquiryTexts, movesFor } from "../../machines/inquiry.ts"
import { inquiryTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const pending: InquiryRef = { _id: "p", companyName: "Pending Co", status: "pending", adminNotes: "", version: 1 }
const contacted: InquiryRef = { _id: "c", companyName: "Contacted Co", status: "contacted", adminNotes: "Called", version: 2 }
const converted: InquiryRef = { _id: "v", companyName: "Converted Co", status: "converted", adminNotes: "", version: 3 }
const settled = () => new Promise((resolve) => setImmediate(resolve))
const refusal = { status: 409, message: "This inquiry was changed by someone else since you read it." }

const events = [
  { type: "OPEN", inquiry: pending },
  { type: "OPEN", inquiry: contacted },
  { type: "OPEN", inquiry: converted },
  { type: "EDIT", notes: "Sent the deck" },
  { type: "MOVE", status: "contacted" },
  { type: "MOVE", status: "converted" },
  { type: "MOVE", status: "paid" },
  { type: "CLOSE" },
  { type: "DISMISS" },
  { type: "REFRESH", inquiry: { ...pending, version: 7, adminNotes: "changed elsewhere" } },
  actorDone("update", { ...pending, status: "contacted", version: 2 }),
  actorError("update", refusal)
] as const

type State = "closed" | "viewing" | "updating" | "failed" | "done"

/** The funnel, written from docs/product-spec.md and docs/console.md ("Contacts and inquiries"), not from contract/advertising-rules.ts. */
const legal: Record<string, ReadonlyArray<string>> = {
  pending: ["contacted"],
  paid: ["contacted"],
  reviewed: ["contacted"],
  contacted: ["converted", "rejected"],
  converted: [],
  rejected: []
}

interface Seen {
  readonly state: State
  readonly inquiry: InquiryRef | null
  readonly notes: string
  /** What is (or was last) on its way: status and notes. */
  readonly sent: readonly [string, string] | null
  readonly error: string | null
}

const start: Seen = { state: "closed", inquiry: null, notes: "", sent: null, error: null }

const expectedAfter = (seen: Seen, event: { readonly type: string } & Record<string, unknown>): Seen => {
  switch (event.type) {
    case "OPEN": {
      const inquiry = event.inquiry as InquiryRef
      return seen.state === "closed" || seen.state === "done" ? { state: "viewing", inquiry, notes: inquiry.adminNotes, sent: null, error: null } : seen
    }
    case "EDIT":
      return seen.state === "viewing" || seen.state === "failed" ? { ...seen, state: "viewing", notes: event.notes as string, error: null } : seen
    case "MOVE": {
      const status = event.status as string
      const ok = seen.inquiry !== null && legal[seen.inquiry.status]!.includes(status)
      return ok && (seen.state === "viewing" || seen.state === "failed") ? { ...seen, state: "updating", sent: [status, seen.notes], error: null } : seen
    }
    case "REFRESH": {
      const inquiry = event.inquiry as InquiryRef
      return (seen.state === "viewing" || seen.state === "failed") && seen.inquiry?._id === inquiry._id ? { ...seen, inquiry } : seen
    }
    case "CLOSE":
      return seen.state === "viewing" || seen.state === "failed" ? { ...start } : seen
    case "DISMISS":
      return seen.state === "done" ? { ...start } : seen
    case "xstate.done.actor.update":
      return seen.state === "updating" ? { ...seen, state: "done", inquiry: null, notes: "" } : seen
    case "xstate.error.actor.update":
      return seen.state === "updating" ? { ...seen, state: "failed", error: `${inquiryTexts.failed}: ${refusal.message}` } : seen
    default:
      return seen
  }
}

describe("inquiry machine", () => {
  it("follows the funnel on every generated path, with no read of the list after an answer", async () => {
    let seen = start
    const run = await runModel({
      machine: inquiryMachine,
      table: inquiryTable,
      inputs: [undefined as never],
      events: () => events as never,
      actorIds: ["update"],
      key: (snapshot) =>
        JSON.stringify([
          snapshot.value,
          snapshot.context.inquiry?._id ?? null,
          snapshot.context.inquiry?.version ?? null,
          snapshot.context.notes,
          snapshot.context.error !== null
        ]),
      check: (_expected, actual, event) => {
        seen = event.type === "xstate.init" ? start : expectedAfter(seen, event)
        const context = actual.context as Parameters<typeof movesFor>[0]["context"]
        const pair = (move: { status: string; adminNotes: string } | null) => (move === null ? null : [move.status, move.adminNotes])
        expect({
          state: actual.value,
          inquiry: context.inquiry,
          notes: context.notes,
          error: context.error,
          move: pair(context.move),
          done: pair(context.done)
        }).toEqual({
          state: seen.state,
          inquiry: seen.inquiry,
          notes: seen.notes,
          error: seen.error,
          move: seen.state === "updating" ? seen.sent : null,
          done: seen.state === "done" ? seen.sent : null
        })
        const snapshot = actual as unknown as Parameters<typeof movesFor>[0]
        expect(detailOpen(snapshot)).toBe(["viewing", "updating", "failed"].includes(seen.state))
        expect(movesFor(snapshot)).toEqual(seen.state === "viewing" || seen.state === "failed" ? legal[seen.inquiry!.status] : [])
      }
    })
    expectFullCoverage("inquiry", run)
  })

  it("sends the open inquiry with the status asked and the notes as typed", async () => {
    const sent: Array<unknown> = []
    const actor = createActor(
      inquiryMachine.provide({
        actors: { update: fromPromise(({ input }) => (sent.push(input), Promise.resolve<InquiryRef>({ ...pending, status: "contacted" }))) }
      })
    ).start()
    actor.send({ type: "OPEN", inquiry: pending })
    actor.send({ type: "EDIT", notes: "Sent the deck" })
    actor.send({ type: "MOVE", status: "contacted" })
    await settled()
    expect(sent).toEqual([{ inquiry: pending, status: "contacted", adminNotes: "Sent the deck" }])
    expect(actor.getSnapshot().value).toBe("done")
  })

  it("shows a refusal's field issues until the notes change, a move is tried or the modal closes", async () => {
    const refused = { status: 400, message: "Invalid notes", issues: [{ path: "adminNotes", message: "Admin notes is too long" }] }
    const actor = createActor(inquiryMachine.provide({ actors: { update: fromPromise(() => Promise.reject(refused)) } })).start()
    const issues = () => actor.getSnapshot().context.issues
    const refuse = async () => {
      actor.send({ type: "MOVE", status: "contacted" })
      await settled()
      expect(actor.getSnapshot().value).toBe("failed")
      expect(issues()).toEqual(refused.issues)
    }
    expect(issues()).toEqual([])
    actor.send({ type: "OPEN", inquiry: pending })
    expect(issues()).toEqual([])
    await refuse()
    actor.send({ type: "EDIT", notes: "Shorter" })
    expect(issues()).toEqual([])
    await refuse()
    actor.send({ type: "MOVE", status: "contacted" })
    expect(issues()).toEqual([])
    await settled()
    actor.send({ type: "CLOSE" })
    expect(issues()).toEqual([])
    expect(actor.getSnapshot().context.error).toBeNull()
  })

  it("offers no move with the modal closed or the change made", async () => {
    const actor = createActor(
      inquiryMachine.provide({ actors: { update: fromPromise(() => Promise.resolve<unknown>({ ...pending, status: "contacted" })) } })
    ).start()
    expect(movesFor(actor.getSnapshot())).toEqual([])
    actor.send({ type: "OPEN", inquiry: pending })
    expect(movesFor(actor.getSnapshot())).toEqual(["contacted"])
    actor.send({ type: "MOVE", status: "contacted" })
    expect(movesFor(actor.getSnapshot())).toEqual([])
    await settled()
    expect(actor.getSnapshot().value).toBe("done")
    expect(movesFor(actor.getSnapshot())).toEqual([])
  })

  it("says so when the console gave it no update call", async () => {
    const actor = createActor(inquiryMachine).start()
    actor.send({ type: "OPEN", inquiry: pending })
    actor.send({ type: "MOVE", status: "contacted" })
    await settled()
    expect(actor.getSnapshot().value).toBe("failed")
    expect(actor.getSnapshot().context.error).toBe(`${inquiryTexts.failed}: update not provided`)
  })
})
