import { describe, expect, it } from "vitest"
import { createActor } from "xstate"
import { asking, type DeskItemRef, triageDeskMachine } from "../../machines/triage-desk.ts"
import { triageDeskTable } from "../spec/machine-tables.ts"
import { expectFullCoverage, runModel } from "../support/model.ts"

const report: DeskItemRef = { _id: "r1", area: "scam-report", version: 1 }
const listing: DeskItemRef = { _id: "l1", area: "listing", version: 2 }
const resolve = { id: "scam-report:status:resolved", asksReason: false }
const reject = { id: "listing:reject", asksReason: true }

const events = [
  { type: "DECIDE", item: report, decision: resolve },
  { type: "DECIDE", item: listing, decision: reject },
  { type: "ASSIGN_ME", item: report },
  { type: "ASK", item: report, question: "snooze" },
  { type: "ASK", item: listing, question: "owner" },
  { type: "ASK", item: report, question: "duplicate" },
  { type: "ANSWER", value: "  " },
  { type: "ANSWER", value: " Not about Pi " },
  { type: "CANCEL" }
] as const

/** What the console is asked to do, and what shows: written from the table's comment, not from the machine. */
interface Seen {
  readonly question: "reason" | "snooze" | "owner" | "duplicate" | null
  readonly item: DeskItemRef | null
  readonly decision: { readonly id: string; readonly asksReason: boolean } | null
}

const start: Seen = { question: null, item: null, decision: null }

const expectedAfter = (seen: Seen, event: (typeof events)[number], asked: Array<string>): Seen => {
  if (seen.question === null) {
    if (event.type === "DECIDE") {
      if (event.decision.asksReason) return { question: "reason", item: event.item, decision: event.decision }
      asked.push(`decide ${event.item._id} ${event.decision.id} ""`)
      return seen
    }
    if (event.type === "ASSIGN_ME") {
      asked.push(`assign me ${event.item._id}`)
      return seen
    }
    if (event.type === "ASK") return { question: event.question, item: event.item, decision: null }
    return seen
  }
  if (event.type === "CANCEL") return start
  if (event.type === "ANSWER") {
    const value = event.value.trim()
    // A reason may be empty; a time, an owner or an item may not.
    if (seen.question !== "reason" && value === "") return seen
    asked.push(`answer ${seen.question} ${seen.item?._id} ${seen.decision?.id ?? "-"} "${value}"`)
    return start
  }
  return seen
}

describe("triage desk machine", () => {
  it("asks the console for each decision, owner, snooze and duplicate exactly as the desk's rules say, on every generated path", async () => {
    let seen = start
    let expected: Array<string> = []
    let asked: Array<string> = []
    const run = await runModel({
      machine: triageDeskMachine,
      table: triageDeskTable,
      inputs: [undefined as never],
      events: () => events as never,
      actorIds: [],
      key: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.question]),
      provide: {
        actions: {
          decide: (_: unknown, params: { item: DeskItemRef; decision: { id: string }; reason: string }) =>
            void asked.push(`decide ${params.item._id} ${params.decision.id} "${params.reason}"`),
          assignMe: (_: unknown, params: { item: DeskItemRef }) => void asked.push(`assign me ${params.item._id}`),
          answer: (_: unknown, params: { question: string; item: DeskItemRef; decision: { id: string } | null; value: string }) =>
            void asked.push(`answer ${params.question} ${params.item._id} ${params.decision?.id ?? "-"} "${params.value}"`)
        }
      },
      check: (_expected, actual, event) => {
        if (event.type === "xstate.init") {
          seen = start
          expected = []
          asked = []
        } else seen = expectedAfter(seen, event as (typeof events)[number], expected)
        expect(actual.context).toEqual(seen)
        expect(actual.value).toBe(seen.question === null ? "browsing" : "asking")
        expect(asking(actual as never)).toBe(seen.question !== null)
        expect(asked).toEqual(expected)
      }
    })
    expectFullCoverage("triage desk", run)
  })

  it("keeps the decision a reason is asked for, and forgets the question once answered or left", () => {
    const answered: Array<unknown> = []
    const actor = createActor(triageDeskMachine.provide({ actions: { answer: (_, params) => void answered.push(params) } })).start()
    actor.send({ type: "DECIDE", item: listing, decision: reject })
    expect(actor.getSnapshot().context).toEqual({ item: listing, question: "reason", decision: reject })
    actor.send({ type: "ANSWER", value: "" })
    expect(answered).toEqual([{ item: listing, question: "reason", decision: reject, value: "" }])
    expect(actor.getSnapshot().context).toEqual({ item: null, question: null, decision: null })
    actor.send({ type: "ASK", item: report, question: "snooze" })
    actor.send({ type: "ANSWER", value: "" })
    expect(asking(actor.getSnapshot())).toBe(true)
    actor.send({ type: "CANCEL" })
    expect(actor.getSnapshot().context).toEqual({ item: null, question: null, decision: null })
    expect(answered).toHaveLength(1)
  })
})
