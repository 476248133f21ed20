import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { LINK_RETRY_MS, type Refusal, type SendOutcome, syncMachine } from "../../machines/sync.ts"
import { syncTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const refusal: Refusal = { commandId: "c1", kind: "listing", recordId: "r1", label: 'Approved "Pi Club"', status: 409, message: "Changed by someone else." }
const sent: SendOutcome = { outcome: "sent", commandId: "c0" }
const refused: SendOutcome = { outcome: "refused", refusal }
// Longer than any test: the wait ends only when the test says so.
const busy: SendOutcome = { outcome: "busy", retryAfterMs: 60_000 }
const waitOver = { type: "xstate.after.retryAfter.sync.outbox.waiting" } as const
const retryLink = { type: "xstate.after.retryLink.sync.link.offline" } as const

const events = [
  { type: "QUEUED" },
  { type: "OUTBOX_READ", pending: 0 },
  { type: "OUTBOX_READ", pending: 3 },
  { type: "LINK_DOWN" },
  { type: "LINK_UP" },
  { type: "CAUGHT_UP" },
  { type: "DISMISS", commandId: "c1" },
  { type: "DISMISS", commandId: "elsewhere" },
  { type: "HEARD_REFUSAL", refusal: { ...refusal, commandId: "c9" } },
  actorDone("sendNext", sent),
  actorDone("sendNext", refused),
  actorDone("sendNext", busy),
  actorError("sendNext", new TypeError("Failed to fetch")),
  waitOver,
  retryLink
] as const

/** What the console should be doing after each event, written from the sync machine's rules (docs/architecture.md, "The browser's store"), not from the machine. */
interface Seen {
  readonly link: "catchingUp" | "online" | "offline"
  readonly outbox: "idle" | "sending" | "waiting"
  readonly conflicts: "none" | "shown"
  readonly pending: number
  readonly refusals: ReadonlyArray<Refusal>
}

/** A command goes out whenever one waits, none is out, and the link is not known to be down. */
const settled = (seen: Seen): Seen => (seen.outbox === "idle" && seen.pending > 0 && seen.link !== "offline" ? { ...seen, outbox: "sending" } : seen)

const expectedAfter = (
  seen: Seen,
  event: { readonly type: string; readonly output?: unknown; readonly commandId?: string; readonly refusal?: Refusal; readonly pending?: number }
): Seen => {
  switch (event.type) {
    case "QUEUED":
      return settled({ ...seen, pending: seen.pending + 1 })
    // The outbox as read: what waits there, whichever tab made it.
    case "OUTBOX_READ":
      return settled({ ...seen, pending: event.pending! })
    case "LINK_DOWN":
      return { ...seen, link: "offline", outbox: "idle" }
    case "LINK_UP":
    case retryLink.type:
      return seen.link === "offline" ? settled({ ...seen, link: "catchingUp" }) : seen
    case "CAUGHT_UP":
      return seen.link === "catchingUp" ? settled({ ...seen, link: "online" }) : seen
    // Another tab sent it; this tab made it and its screen has gone: kept here, nothing else moves.
    case "HEARD_REFUSAL":
      return { ...seen, refusals: [...seen.refusals, event.refusal!], conflicts: "shown" }
    case "DISMISS": {
      if (seen.conflicts === "none") return seen
      const refusals = seen.refusals.filter((one) => one.commandId !== event.commandId)
      return { ...seen, refusals, conflicts: refusals.length === 0 ? "none" : "shown" }
    }
    case "xstate.done.actor.sendNext": {
      const output = event.output as SendOutcome
      if (output.outcome === "busy") return { ...seen, outbox: "waiting" }
      // Never below none: the outbox read while sending may have counted it gone already.
      const answered = { ...seen, outbox: "idle" as const, pending: Math.max(0, seen.pending - 1) }
      return settled(output.outcome === "refused" ? { ...answered, refusals: [...seen.refusals, output.refusal], conflicts: "shown" } : answered)
    }
    case "xstate.error.actor.sendNext":
      return { ...seen, outbox: "idle", link: "offline" }
    case waitOver.type:
      return seen.outbox === "waiting" ? settled({ ...seen, outbox: "idle" }) : seen
    default:
      return seen
  }
}

describe("sync machine", () => {
  it("follows the sync rules on every generated path", async () => {
    let seen: Seen = { link: "catchingUp", outbox: "idle", conflicts: "none", pending: 0, refusals: [] }
    const said: Array<unknown> = []
    const run = await runModel({
      machine: syncMachine,
      table: syncTable,
      // A console with nothing waiting, and one reopened with two commands in its outbox.
      inputs: [{ pending: 0 }, { pending: 2 }],
      events: () => events,
      actorIds: ["sendNext"],
      // Paths are told apart by the states, up to two waiting and whether a refusal is shown.
      key: (snapshot) => JSON.stringify([snapshot.value, Math.min(snapshot.context.pending, 2), snapshot.context.refusals.length > 0]),
      provide: { actions: { refused: (_: unknown, params: SendOutcome) => void said.push(params) } },
      check: (_expected, actual, event, input) => {
        seen =
          event.type === "xstate.init"
            ? settled({ link: "catchingUp", outbox: "idle", conflicts: "none", pending: input.pending, refusals: [] })
            : expectedAfter(seen, event)
        const value = actual.value as { readonly link: string; readonly outbox: string; readonly conflicts: string }
        const context = actual.context as { readonly pending: number; readonly refusals: ReadonlyArray<Refusal> }
        expect({ ...value, pending: context.pending, refusals: context.refusals }).toEqual(seen)
      }
    })
    expectFullCoverage("sync", run)
    expect(said).toContainEqual(refused)
    expect(said).not.toContainEqual(sent)
  })

  it("sends the waiting commands one after another, in order, and again once the lost link is back", async () => {
    const outbox = ["c1", "c2", "c3"]
    const tries: Array<string> = []
    let linkLostOnce = false
    const machine = syncMachine.provide({
      actors: {
        sendNext: fromPromise(() => {
          const head = outbox[0] ?? "none"
          tries.push(head)
          if (head === "c2" && !linkLostOnce) {
            linkLostOnce = true
            return Promise.reject(new TypeError("Failed to fetch"))
          }
          outbox.shift()
          return Promise.resolve<SendOutcome>({ outcome: "sent", commandId: head })
        })
      }
    })
    const actor = createActor(machine, { input: { pending: 3 } }).start()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(tries).toEqual(["c1", "c2"])
    expect(actor.getSnapshot().value).toEqual({ link: "offline", outbox: "idle", conflicts: "none" })
    expect(actor.getSnapshot().context.pending).toBe(2)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(tries).toEqual(["c1", "c2"])
    actor.send({ type: "LINK_UP" })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(tries).toEqual(["c1", "c2", "c2", "c3"])
    actor.send({ type: "CAUGHT_UP" })
    expect(actor.getSnapshot().context.pending).toBe(0)
    expect(actor.getSnapshot().value).toEqual({ link: "online", outbox: "idle", conflicts: "none" })
    actor.stop()
  })

  it("asks a busy server again only after the wait it names", async () => {
    let calls = 0
    const machine = syncMachine.provide({
      actors: {
        sendNext: fromPromise(() => Promise.resolve<SendOutcome>(++calls === 1 ? { outcome: "busy", retryAfterMs: 40 } : { outcome: "sent", commandId: "c1" }))
      }
    })
    const actor = createActor(machine, { input: { pending: 1 } }).start()
    actor.send({ type: "CAUGHT_UP" })
    await new Promise((resolve) => setTimeout(resolve, 15))
    expect(calls).toBe(1)
    expect(actor.getSnapshot().value).toMatchObject({ outbox: "waiting" })
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(calls).toBe(2)
    expect(actor.getSnapshot().context.pending).toBe(0)
    actor.stop()
  })

  it("tries an offline link again after 5 s, a server that came back saying nothing", async () => {
    vi.useFakeTimers()
    try {
      let calls = 0
      const machine = syncMachine.provide({
        actors: { sendNext: fromPromise(() => (++calls === 1 ? Promise.reject(new TypeError("Failed to fetch")) : Promise.resolve<SendOutcome>(sent))) }
      })
      const actor = createActor(machine, { input: { pending: 1 } }).start()
      await vi.advanceTimersByTimeAsync(0)
      expect(actor.getSnapshot().value).toMatchObject({ link: "offline" })
      await vi.advanceTimersByTimeAsync(LINK_RETRY_MS - 1)
      expect(calls).toBe(1)
      await vi.advanceTimersByTimeAsync(1)
      expect(calls).toBe(2)
      expect(actor.getSnapshot().context.pending).toBe(0)
      actor.stop()
    } finally {
      vi.useRealTimers()
    }
  })

  it("takes the link down when the console gives it no way to send", async () => {
    const actor = createActor(syncMachine, { input: { pending: 1 } }).start()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(actor.getSnapshot().value).toEqual({ link: "offline", outbox: "idle", conflicts: "none" })
    expect(actor.getSnapshot().context.pending).toBe(1)
    actor.stop()
  })
})
