import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import { notesOpen, savingNotes, type ReportChange, type ReportRef, scamReportMachine, triageErrors } from "../../machines/scam-report.ts"
import { scamReportTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const reportA: ReportRef = { _id: "a", status: "new", priority: "normal", adminNotes: "", version: 1 }
const reportB: ReportRef = { _id: "b", status: "under_review", priority: "low", adminNotes: "", version: 3 }

const events = [
  { type: "SET", change: { field: "status", value: "resolved", report: reportA } },
  // The value the report already shows: no change.
  { type: "SET", change: { field: "status", value: "new", report: reportA } },
  { type: "SET", change: { field: "priority", value: "urgent", report: reportB } },
  { type: "OPEN_NOTES", report: reportA },
  { type: "SAVE_NOTES", notes: "Seen before" },
  { type: "CLOSE" },
  actorDone("saveNotes", { ...reportA, adminNotes: "Seen before", version: 2 }),
  actorError("saveNotes", { status: undefined, message: "" })
] as const

/** What a person sees, written from the spec and the table's comment, not from the machine. */
interface Seen {
  readonly notes: "closed" | "open" | "saving"
  readonly notesError: string | null
}

const start: Seen = { notes: "closed", notesError: null }

const expectedAfter = (seen: Seen, event: { readonly type: string } & Record<string, unknown>, asked: Array<string>): Seen => {
  switch (event.type) {
    case "SET": {
      const change = event.change as Exclude<ReportChange, { field: "notes" }>
      if (change.report[change.field] !== change.value) asked.push(`${change.report._id} ${change.field} ${change.value}`)
      return seen
    }
    case "OPEN_NOTES":
      return seen.notes === "closed" ? { notes: "open", notesError: null } : seen
    case "SAVE_NOTES":
      return seen.notes === "open" ? { notes: "saving", notesError: null } : seen
    case "CLOSE":
      return seen.notes === "open" ? { notes: "closed", notesError: null } : seen
    case "xstate.done.actor.saveNotes":
      return seen.notes === "saving" ? { notes: "closed", notesError: null } : seen
    case "xstate.error.actor.saveNotes":
      return seen.notes === "saving" ? { notes: "open", notesError: `${triageErrors.notes}: ${triageErrors.unknown}` } : seen
    default:
      return seen
  }
}

describe("scam-report triage machine", () => {
  it("follows the rules on every generated path: each real change asked of the console at once, the notes on their own", async () => {
    let seen = start
    let expected: Array<string> = []
    let asked: Array<string> = []
    const run = await runModel({
      machine: scamReportMachine,
      table: scamReportTable,
      inputs: [undefined as never],
      events: () => events as never,
      actorIds: ["saveNotes"],
      key: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.notesError !== null]),
      provide: {
        actions: {
          change: (_: unknown, { change }: { change: Exclude<ReportChange, { field: "notes" }> }) =>
            void asked.push(`${change.report._id} ${change.field} ${change.value}`)
        }
      },
      check: (_expected, actual, event) => {
        if (event.type === "xstate.init") {
          seen = start
          expected = []
          asked = []
        } else seen = expectedAfter(seen, event, expected)
        const value = actual.value as { changes: string; notes: Seen["notes"] }
        expect({ notes: value.notes, notesError: (actual.context as { notesError: string | null }).notesError }).toEqual(seen)
        expect(value.changes).toBe("idle")
        expect(asked).toEqual(expected)
        expect(notesOpen(actual as never)).toBe(seen.notes !== "closed")
      }
    })
    expectFullCoverage("scam-report triage", run)
  })

  it("saves the notes as typed, at the version the details opened at, and shows a refusal's fields", async () => {
    const saved: Array<ReportChange> = []
    let answer: (value: unknown) => void = () => undefined
    let refuse: (error: unknown) => void = () => undefined
    const actor = createActor(
      scamReportMachine.provide({
        actors: {
          saveNotes: fromPromise<unknown, ReportChange>(
            ({ input }) => (
              saved.push(input),
              new Promise((resolve, reject) => {
                answer = resolve
                refuse = reject
              })
            )
          )
        }
      })
    ).start()
    actor.send({ type: "OPEN_NOTES", report: { ...reportA, version: 2 } })
    actor.send({ type: "SAVE_NOTES", notes: "Seen before" })
    expect(savingNotes(actor.getSnapshot())).toBe(true)
    expect(saved).toEqual([{ field: "notes", value: "Seen before", report: { ...reportA, version: 2 } }])
    refuse({ status: 400, message: "Invalid input", issues: [{ path: "notes", message: "must be at most 5000 characters" }] })
    await new Promise((resolve) => setImmediate(resolve))
    expect(actor.getSnapshot().value).toEqual({ changes: "idle", notes: "open" })
    expect(actor.getSnapshot().context.notesError).toBe(`${triageErrors.notes}: Invalid input`)
    expect(actor.getSnapshot().context.notesIssues).toEqual([{ path: "notes", message: "must be at most 5000 characters" }])
    actor.send({ type: "SAVE_NOTES", notes: "Shorter" })
    answer({})
    await new Promise((resolve) => setImmediate(resolve))
    expect(notesOpen(actor.getSnapshot())).toBe(false)
    expect(actor.getSnapshot().context).toEqual({ notesOf: null, notes: null, notesError: null, notesIssues: [] })
  })

  it("fails the save saying so when the console gave it no call", async () => {
    const bare = createActor(scamReportMachine).start()
    bare.send({ type: "OPEN_NOTES", report: reportA })
    bare.send({ type: "SAVE_NOTES", notes: "x" })
    await new Promise((resolve) => setImmediate(resolve))
    expect(bare.getSnapshot().context.notesError).toBe(`${triageErrors.notes}: saveNotes not provided`)
  })
})
