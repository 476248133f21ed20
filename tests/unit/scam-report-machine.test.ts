import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import {
  type ChangedReport,
  changeFailed,
  notesOpen,
  savingNotes,
  type ReportChange,
  type ReportRef,
  scamReportMachine,
  shownReport,
  triageErrors
} from "../../machines/scam-report.ts"
import { scamReportTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const reportA: ReportRef = { _id: "a", status: "new", priority: "normal", adminNotes: "", version: 1 }
const reportB: ReportRef = { _id: "b", status: "under_review", priority: "low", adminNotes: "", version: 3 }
const answerA: ChangedReport = { _id: "a", status: "resolved", priority: "normal", adminNotes: "", version: 2 }
const notedA: ChangedReport = { _id: "a", status: "new", priority: "normal", adminNotes: "Seen before", version: 2 }
const refusal = { status: 409, message: "This report was changed by someone else. Reload and try again." }

const events = [
  { type: "SET", change: { field: "status", value: "resolved", report: reportA } },
  { type: "SET", change: { field: "status", value: "new", report: reportA } },
  { type: "SET", change: { field: "priority", value: "urgent", report: reportB } },
  { type: "OPEN_NOTES", report: reportA },
  { type: "SAVE_NOTES", notes: "Seen before" },
  { type: "CLOSE" },
  { type: "DISMISS" },
  actorDone("change", answerA),
  actorError("change", refusal),
  actorDone("saveNotes", notedA),
  actorError("saveNotes", { status: undefined, message: "" })
] as const

type Field = ReportChange["field"]

/** What a person sees, written from the spec and the table's comment, not from the machine. */
interface Seen {
  readonly changes: "idle" | "changing" | "failed"
  readonly notes: "closed" | "open" | "saving"
  readonly waiting: ReadonlyArray<{ readonly id: string; readonly field: Field; readonly value: string }>
  readonly answered: Readonly<Record<string, ChangedReport>>
  readonly error: string | null
  readonly notesError: string | null
}

const start: Seen = { changes: "idle", notes: "closed", waiting: [], answered: {}, error: null, notesError: null }
const base: Record<string, ReportRef> = { a: reportA, b: reportB }

/** A report's shown field: the newer answer, then each waiting change in order. */
const shownField = (seen: Seen, id: string, field: "status" | "priority") => {
  const answered = seen.answered[id]
  let value: string = answered !== undefined && answered.version > base[id]!.version ? answered[field] : base[id]![field]
  for (const change of seen.waiting) if (change.id === id && change.field === field) value = change.value
  return value
}

const expectedAfter = (seen: Seen, event: { readonly type: string } & Record<string, unknown>): Seen => {
  switch (event.type) {
    case "SET": {
      const change = event.change as Exclude<ReportChange, { field: "notes" }>
      if (shownField(seen, change.report._id, change.field) === change.value) return seen
      return { ...seen, changes: "changing", waiting: [...seen.waiting, { id: change.report._id, field: change.field, value: change.value }], error: null }
    }
    case "OPEN_NOTES":
      return seen.notes === "closed" ? { ...seen, notes: "open", notesError: null } : seen
    case "SAVE_NOTES":
      return seen.notes === "open" ? { ...seen, notes: "saving", notesError: null } : seen
    case "CLOSE":
      return seen.notes === "open" ? { ...seen, notes: "closed", notesError: null } : seen
    case "DISMISS":
      return seen.changes === "failed" ? { ...seen, changes: "idle", error: null } : seen
    case "xstate.done.actor.change": {
      if (seen.changes !== "changing") return seen
      const waiting = seen.waiting.slice(1)
      return { ...seen, changes: waiting.length > 0 ? "changing" : "idle", waiting, answered: { ...seen.answered, a: answerA } }
    }
    case "xstate.error.actor.change":
      return seen.changes === "changing"
        ? {
            ...seen,
            changes: "failed",
            waiting: [],
            error: `${seen.waiting[0]!.field === "status" ? triageErrors.status : triageErrors.priority}: ${refusal.message}`
          }
        : seen
    case "xstate.done.actor.saveNotes":
      return seen.notes === "saving" ? { ...seen, notes: "closed", answered: { ...seen.answered, a: notedA } } : seen
    case "xstate.error.actor.saveNotes":
      return seen.notes === "saving" ? { ...seen, notes: "open", notesError: `${triageErrors.notes}: ${triageErrors.unknown}` } : seen
    default:
      return seen
  }
}

describe("scam-report triage machine", () => {
  it("follows the rules on every generated path, reloading the list after every answer", async () => {
    let seen = start
    let reloads = 0
    let answers = 0
    const run = await runModel({
      machine: scamReportMachine,
      table: scamReportTable,
      inputs: [undefined as never],
      events: () => events as never,
      actorIds: ["change", "saveNotes"],
      // The queue can grow without end (a value and back, again and again): the head,
      // "one or more behind it" and what A will show stand for any queue, which keeps the graph finite.
      key: (snapshot) => {
        const context = snapshot.context
        return JSON.stringify([
          snapshot.value,
          context.queue.slice(0, 1).map((change) => [change.report._id, change.field, change.value]),
          Math.min(context.queue.length, 2),
          // What the next SET on A is judged against.
          context.queue.filter((change) => change.report._id === "a").at(-1)?.value ?? null,
          Object.values(context.answered).map((report) => [report._id, report.status, report.adminNotes]),
          context.error !== null,
          context.notesError !== null
        ])
      },
      provide: { actions: { listChanged: () => void reloads++ } },
      check: (_expected, actual, event) => {
        seen = event.type === "xstate.init" ? start : expectedAfter(seen, event)
        if (event.type.startsWith("xstate.done.actor") || event.type.startsWith("xstate.error.actor")) answers++
        const context = actual.context as Parameters<typeof shownReport>[0]
        const value = actual.value as { changes: Seen["changes"]; notes: Seen["notes"] }
        expect({
          changes: value.changes,
          notes: value.notes,
          waiting: context.queue.map((change) => ({ id: change.report._id, field: change.field, value: change.value })),
          answered: context.answered,
          error: context.error,
          notesError: context.notesError
        }).toEqual(seen)
        expect(notesOpen(actual as never)).toBe(seen.notes !== "closed")
        for (const id of ["a", "b"]) {
          const shown = shownReport(context, base[id]!)
          expect([shown.status, shown.priority]).toEqual([shownField(seen, id, "status"), shownField(seen, id, "priority")])
        }
      }
    })
    expectFullCoverage("scam-report triage", run)
    expect(reloads).toBe(answers)
  })

  it("sends each waiting change with the version the change before it produced", async () => {
    const calls: Array<ReportChange> = []
    const answers: Array<(report: ChangedReport) => void> = []
    const actor = createActor(
      scamReportMachine.provide({
        actors: {
          change: fromPromise<ChangedReport, ReportChange>(({ input }) => {
            calls.push(input)
            return new Promise((resolve) => answers.push(resolve))
          })
        }
      })
    ).start()
    actor.send({ type: "SET", change: { field: "status", value: "resolved", report: reportA } })
    actor.send({ type: "SET", change: { field: "priority", value: "high", report: reportA } })
    actor.send({ type: "SET", change: { field: "status", value: "dismissed", report: reportB } })
    expect(shownReport(actor.getSnapshot().context, reportA)).toMatchObject({ status: "resolved", priority: "high" })
    expect(calls).toHaveLength(1)
    answers[0]!({ ...answerA })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(calls[1]).toMatchObject({ field: "priority", value: "high", report: { _id: "a", version: 2 } })
    answers[1]!({ ...answerA, priority: "high", version: 3 })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(calls[2]).toMatchObject({ field: "status", value: "dismissed", report: { _id: "b", version: 3 } })
    answers[2]!({ ...reportB, status: "dismissed", version: 4 })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(actor.getSnapshot().value).toEqual({ changes: "idle", notes: "closed" })
    // The list reloaded with version 3 of A: the answer no longer overrides it.
    expect(shownReport(actor.getSnapshot().context, { ...reportA, status: "under_review", version: 3 }).status).toBe("under_review")
  })

  it("saves the notes as typed, at the newest version the server answered for the report", async () => {
    const saved: Array<ReportChange> = []
    let answer: (report: ChangedReport) => void = () => undefined
    const actor = createActor(
      scamReportMachine.provide({
        actors: {
          change: fromPromise<ChangedReport, ReportChange>(() => new Promise((resolve) => (answer = resolve))),
          saveNotes: fromPromise<ChangedReport, ReportChange>(({ input }) => (saved.push(input), Promise.resolve({ ...notedA, version: 3 })))
        }
      })
    ).start()
    actor.send({ type: "SET", change: { field: "status", value: "resolved", report: reportA } })
    actor.send({ type: "OPEN_NOTES", report: reportA })
    expect(actor.getSnapshot().context.notesOf).toMatchObject({ _id: "a", version: 1 })
    answer(answerA)
    await new Promise((resolve) => setTimeout(resolve, 0))
    actor.send({ type: "SAVE_NOTES", notes: "Seen before" })
    expect(savingNotes(actor.getSnapshot())).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(saved).toEqual([{ field: "notes", value: "Seen before", report: { ...reportA, status: "resolved", version: 2 } }])
    expect(notesOpen(actor.getSnapshot())).toBe(false)
    expect(savingNotes(actor.getSnapshot())).toBe(false)
  })

  it("shows a refusal's field issues under the notes until they are saved again or closed", async () => {
    const issues = [{ path: "adminNotes", message: "Admin notes is too long" }]
    const actor = createActor(
      scamReportMachine.provide({ actors: { saveNotes: fromPromise(() => Promise.reject({ status: 400, message: "Invalid request", issues })) } })
    ).start()
    const shown = () => actor.getSnapshot().context.notesIssues
    expect(shown()).toEqual([])
    actor.send({ type: "OPEN_NOTES", report: reportA })
    expect(shown()).toEqual([])
    actor.send({ type: "SAVE_NOTES", notes: "x".repeat(3000) })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(shown()).toEqual(issues)
    actor.send({ type: "SAVE_NOTES", notes: "Shorter" })
    expect(shown()).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(shown()).toEqual(issues)
    actor.send({ type: "CLOSE" })
    expect(shown()).toEqual([])
    actor.send({ type: "OPEN_NOTES", report: reportB })
    expect(shown()).toEqual([])
  })

  it("says the spec's fallback when a failed change gives no words, and raises the banner", async () => {
    const actor = createActor(scamReportMachine.provide({ actors: { change: fromPromise(() => Promise.reject({ status: 500, message: "  " })) } })).start()
    expect(changeFailed(actor.getSnapshot())).toBe(false)
    actor.send({ type: "SET", change: { field: "status", value: "resolved", report: reportA } })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(changeFailed(actor.getSnapshot())).toBe(true)
    expect(actor.getSnapshot().context.error).toBe(`${triageErrors.status}: ${triageErrors.unknown}`)
  })

  it("shows the spec's banners when the console gave it no calls", async () => {
    const actor = createActor(scamReportMachine).start()
    actor.send({ type: "SET", change: { field: "priority", value: "high", report: reportA } })
    actor.send({ type: "OPEN_NOTES", report: reportB })
    actor.send({ type: "SAVE_NOTES", notes: "Seen before" })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(actor.getSnapshot().value).toEqual({ changes: "failed", notes: "open" })
    expect(actor.getSnapshot().context.error).toBe(`${triageErrors.priority}: change not provided`)
    expect(actor.getSnapshot().context.notesError).toBe(`${triageErrors.notes}: saveNotes not provided`)
  })
})
