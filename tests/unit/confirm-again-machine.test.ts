import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import { confirmAgainMachine, confirmErrors, type ConfirmStatus } from "../../machines/confirm-again.ts"
import { confirmAgainTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const settle = () => new Promise((resolve) => setImmediate(resolve))
const network = { status: undefined, message: "Failed to fetch" }
const later = new Date(Date.now() + 600_000).toISOString()

describe("confirm-again machine, model-based", () => {
  it("replays a generated path to every reachable state and covers every transition", async () => {
    let confirmed = 0
    let cancelled = 0
    const run = await runModel({
      machine: confirmAgainMachine,
      table: confirmAgainTable,
      inputs: [undefined as never],
      events: () => [
        { type: "ASK" },
        { type: "USE_PASSKEY" },
        { type: "RESEND" },
        { type: "VERIFY", code: "123456" },
        { type: "CANCEL" },
        actorDone("status", { method: "passkey", confirmedUntil: later } satisfies ConfirmStatus),
        actorDone("status", { method: "passkey", confirmedUntil: null } satisfies ConfirmStatus),
        actorDone("status", { method: "code", confirmedUntil: null } satisfies ConfirmStatus),
        actorError("status", network),
        actorDone("confirmWithPasskey", {}),
        actorError("confirmWithPasskey", network),
        actorError("confirmWithPasskey", { status: 401, message: "This passkey could not confirm it's you." }),
        actorDone("sendCode", {}),
        actorError("sendCode", { status: 429, message: "Too many confirmations asked." }),
        actorDone("verifyCode", {}),
        actorError("verifyCode", { status: 401, message: "Invalid or expired code." })
      ],
      actorIds: ["status", "confirmWithPasskey", "sendCode", "verifyCode"],
      provide: { actions: { confirmed: () => void confirmed++, cancelled: () => void cancelled++ } },
      check: (expected, actual) => {
        expect(actual.value).toEqual(expected.value)
        expect(actual.context).toEqual(expected.context)
      }
    })
    expectFullCoverage("confirm-again machine", run)
    expect(confirmed).toBeGreaterThan(0)
    expect(cancelled).toBeGreaterThan(0)
  })

  it("lets the change go at once when the session is confirmed, or when nobody can say", async () => {
    const statuses: ReadonlyArray<() => Promise<ConfirmStatus>> = [
      () => Promise.resolve({ method: "passkey", confirmedUntil: later }),
      () => Promise.reject(network)
    ]
    for (const status of statuses) {
      const heard: Array<string> = []
      const actor = createActor(
        confirmAgainMachine.provide({
          actors: { status: fromPromise<ConfirmStatus>(status) },
          actions: { confirmed: () => void heard.push("confirmed"), cancelled: () => void heard.push("cancelled") }
        })
      ).start()
      actor.send({ type: "ASK" })
      await settle()
      expect(actor.getSnapshot().value).toBe("idle")
      expect(heard).toEqual(["confirmed"])
    }
  })

  it("asks for the passkey, says a refusal in the server's words and a silence in its own, and confirms", async () => {
    const answers: Array<() => Promise<unknown>> = [
      () => Promise.reject(network),
      () => Promise.reject({ status: 401, message: "Not yours." }),
      () => Promise.resolve({})
    ]
    const heard: Array<string> = []
    const actor = createActor(
      confirmAgainMachine.provide({
        actors: {
          status: fromPromise<ConfirmStatus>(() => Promise.resolve({ method: "passkey", confirmedUntil: null })),
          confirmWithPasskey: fromPromise<unknown>(() => (answers.shift() ?? (() => Promise.resolve({})))())
        },
        actions: { confirmed: () => void heard.push("confirmed"), cancelled: () => void heard.push("cancelled") }
      })
    ).start()
    actor.send({ type: "ASK" })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ passkey: "offered" })
    actor.send({ type: "USE_PASSKEY" })
    await settle()
    expect(actor.getSnapshot().context.error).toBe(confirmErrors.passkeyNoAnswer)
    actor.send({ type: "USE_PASSKEY" })
    await settle()
    expect(actor.getSnapshot().context.error).toBe("Not yours.")
    actor.send({ type: "USE_PASSKEY" })
    await settle()
    expect(actor.getSnapshot().value).toBe("idle")
    expect(heard).toEqual(["confirmed"])
  })

  it("mails a code at once for an account with no passkey, checks the one typed, and cancels", async () => {
    const typed: Array<unknown> = []
    let sent = 0
    const heard: Array<string> = []
    const actor = createActor(
      confirmAgainMachine.provide({
        actors: {
          status: fromPromise<ConfirmStatus>(() => Promise.resolve({ method: "code", confirmedUntil: null })),
          sendCode: fromPromise<unknown>(() => (sent++, Promise.resolve({}))),
          verifyCode: fromPromise<unknown, { code: string }>(
            ({ input }) => (typed.push(input), Promise.reject({ status: 401, message: "Invalid or expired code." }))
          )
        },
        actions: { confirmed: () => void heard.push("confirmed"), cancelled: () => void heard.push("cancelled") }
      })
    ).start()
    actor.send({ type: "ASK" })
    await settle()
    expect(sent).toBe(1)
    expect(actor.getSnapshot().value).toEqual({ code: "sent" })
    actor.send({ type: "VERIFY", code: "654321" })
    await settle()
    expect(typed).toEqual([{ code: "654321" }])
    expect(actor.getSnapshot().context.error).toBe("Invalid or expired code.")
    actor.send({ type: "RESEND" })
    await settle()
    expect(sent).toBe(2)
    expect(actor.getSnapshot().context.error).toBeNull()
    actor.send({ type: "CANCEL" })
    expect(actor.getSnapshot().value).toBe("idle")
    expect(heard).toEqual(["cancelled"])
  })

  it("keeps how the person confirms and clears a said error with each new try", async () => {
    const answers: Array<() => Promise<unknown>> = []
    const actor = createActor(
      confirmAgainMachine.provide({
        actors: {
          status: fromPromise<ConfirmStatus>(() => Promise.resolve({ method: "passkey", confirmedUntil: null })),
          confirmWithPasskey: fromPromise<unknown>(() => (answers.shift() ?? (() => new Promise(() => undefined)))())
        }
      })
    ).start()
    expect(actor.getSnapshot().context).toEqual({ method: null, error: null })
    actor.send({ type: "ASK" })
    await settle()
    expect(actor.getSnapshot().context).toEqual({ method: "passkey", error: null })
    // A refusal with no words of the server's is said in the machine's.
    answers.push(() => Promise.reject({ status: 401, message: "" }))
    actor.send({ type: "USE_PASSKEY" })
    await settle()
    expect(actor.getSnapshot().context).toEqual({ method: "passkey", error: confirmErrors.passkeyNoAnswer })
    // The next try clears it while it waits; cancelling clears it too.
    actor.send({ type: "USE_PASSKEY" })
    expect(actor.getSnapshot().context).toEqual({ method: "passkey", error: null })
    answers.push(() => Promise.reject(network))
    actor.send({ type: "CANCEL" })
    expect(actor.getSnapshot().value).toBe("idle")
    const code = createActor(
      confirmAgainMachine.provide({
        actors: {
          status: fromPromise<ConfirmStatus>(() => Promise.resolve({ method: "code", confirmedUntil: null })),
          sendCode: fromPromise<unknown>(() => Promise.reject(network)),
          verifyCode: fromPromise<unknown, { code: string }>(() => Promise.reject({ status: 401, message: "Invalid or expired code." }))
        }
      })
    ).start()
    code.send({ type: "ASK" })
    await settle()
    expect(code.getSnapshot().context).toEqual({ method: "code", error: confirmErrors.unreachable })
    code.send({ type: "VERIFY", code: "111111" })
    expect(code.getSnapshot().context.error).toBeNull()
    await settle()
    expect(code.getSnapshot().context.error).toBe("Invalid or expired code.")
    code.send({ type: "RESEND" })
    expect(code.getSnapshot().context.error).toBeNull()
    await settle()
    code.send({ type: "CANCEL" })
    expect(code.getSnapshot().context).toEqual({ method: "code", error: null })
    // Asked again: the last words are gone before the server answers.
    code.send({ type: "ASK" })
    expect(code.getSnapshot().context.error).toBeNull()
  })

  it("with nothing provided, lets the change go and says no device or server answered", async () => {
    const bare = createActor(confirmAgainMachine).start()
    bare.send({ type: "ASK" })
    await settle()
    expect(bare.getSnapshot().status).toBe("active")
    expect(bare.getSnapshot().value).toBe("idle")
    const byPasskey = createActor(
      confirmAgainMachine.provide({ actors: { status: fromPromise<ConfirmStatus>(() => Promise.resolve({ method: "passkey", confirmedUntil: null })) } })
    ).start()
    byPasskey.send({ type: "ASK" })
    await settle()
    byPasskey.send({ type: "USE_PASSKEY" })
    await settle()
    expect(byPasskey.getSnapshot().value).toEqual({ passkey: "offered" })
    expect(byPasskey.getSnapshot().context.error).toBe(confirmErrors.passkeyNoAnswer)
    const byCode = createActor(
      confirmAgainMachine.provide({ actors: { status: fromPromise<ConfirmStatus>(() => Promise.resolve({ method: "code", confirmedUntil: null })) } })
    ).start()
    byCode.send({ type: "ASK" })
    await settle()
    expect(byCode.getSnapshot().value).toEqual({ code: "sent" })
    expect(byCode.getSnapshot().context.error).toBe(confirmErrors.unreachable)
    byCode.send({ type: "VERIFY", code: "123456" })
    await settle()
    expect(byCode.getSnapshot().value).toEqual({ code: "sent" })
    expect(byCode.getSnapshot().context.error).toBe(confirmErrors.unreachable)
  })
})
