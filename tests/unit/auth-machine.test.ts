import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import type { AdminUser } from "../../contract/auth.ts"
import type { Role } from "../../contract/common.ts"
import { authErrors, authMachine, type AuthEvent, type OtpAnswer, RECHECK_MS, type VerifyAnswer } from "../../machines/auth.ts"
import { authTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const user: AdminUser = { _id: "u1", email: "a@example.com", name: null, role: "admin", grantedRole: "super_admin" }
const refused = (status: number, message = "Invalid or expired code.") => ({ status, message })
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
const network = { status: undefined, message: "Failed to fetch" }
/** The wait before a remembered session is checked again, over (machines/auth.ts, `RECHECK_MS`). */
const recheck = { type: "xstate.after.10000.auth.authenticated.unconfirmed" } as const

/** Every event a user or a call can produce, in every state. */
const events = (): ReadonlyArray<AuthEvent | typeof recheck | ReturnType<typeof actorDone> | ReturnType<typeof actorError>> => [
  { type: "SEND_OTP", email: "a@example.com", role: "admin" },
  { type: "VERIFY", otp: "123456" },
  { type: "RESEND" },
  { type: "USE_DIFFERENT_EMAIL" },
  { type: "LOGOUT" },
  { type: "SESSION_EXPIRED" },
  { type: "LINK_BACK" },
  recheck,
  actorDone("checkSession", user),
  actorError("checkSession", refused(401)),
  actorError("checkSession", network),
  actorError("checkSession", refused(503, "Service unavailable")),
  actorDone("requestOtp", { success: true }),
  actorDone("requestOtp", { success: true, resendAfterSeconds: 30 }),
  actorDone("requestOtp", { success: true, attempt: "attempt-2" }),
  actorDone("requestOtp", { success: false }),
  actorError("requestOtp", refused(400, "bad")),
  actorError("requestOtp", refused(429, "Too many attempts. Try again in 3 minutes.")),
  actorError("requestOtp", network),
  actorDone("verifyOtp", { token: "tok-2", user }),
  actorDone("verifyOtp", { step: "step-1", recoveryCodes: true }),
  actorDone("verifyOtp", { token: "tok-4", user, passkeyDueBy: "2026-12-01T10:00:00.000Z" }),
  { type: "USE_PASSKEY" },
  { type: "USE_RECOVERY_CODE", code: "abcd-efgh-jkmn" },
  actorDone("stepWithPasskey", { token: "tok-5", user }),
  actorError("stepWithPasskey", refused(401, "This passkey could not sign you in.")),
  actorError("stepWithPasskey", network),
  actorDone("stepWithRecoveryCode", { token: "tok-6", user }),
  actorError("stepWithRecoveryCode", refused(401, "This recovery code is not one of yours, or it was already used.")),
  actorError("stepWithRecoveryCode", network),
  { type: "ADD_PASSKEY", name: "Phone" },
  { type: "SKIP" },
  actorDone("addPasskey", { passkey: {} }),
  actorError("addPasskey", refused(409, "This passkey is already registered.")),
  actorError("addPasskey", network),
  actorError("verifyOtp", refused(401)),
  actorError("verifyOtp", refused(429, "Too many attempts. Try again in 1 minute.")),
  actorError("verifyOtp", network),
  { type: "SIGN_IN_WITH_PASSKEY" },
  actorDone("passkeySignIn", { token: "tok-3", user }),
  actorError("passkeySignIn", refused(401, "This passkey could not sign you in.")),
  actorError("passkeySignIn", { status: undefined, message: "The operation either timed out or was not allowed." }),
  actorDone("endSession", { success: true }),
  actorError("endSession", network)
]

describe("auth machine, model-based", () => {
  it("replays a generated path to every reachable state and covers every transition", async () => {
    const stored: Array<unknown> = []
    let forgotten = 0
    const run = await runModel({
      machine: authMachine,
      table: authTable,
      inputs: [{ storedToken: null }, { storedToken: "tok-1" }, { storedToken: "tok-1", checkedUser: user }, { storedToken: "tok-1", rememberedUser: user }],
      events: () => events(),
      actorIds: ["checkSession", "requestOtp", "verifyOtp", "endSession", "passkeySignIn", "stepWithPasskey", "stepWithRecoveryCode", "addPasskey"],
      provide: {
        actions: {
          storeSession: ({ context }: { context: { token: string | null; user: AdminUser | null } }) =>
            void stored.push({ token: context.token, user: context.user }),
          forgetSession: () => void forgotten++
        }
      },
      check: (expected, actual) => {
        expect(actual.value).toEqual(expected.value)
        expect(actual.context).toEqual(expected.context)
      }
    })
    expectFullCoverage("auth machine", run)
    expect(stored).toContainEqual({ token: "tok-2", user })
    expect(stored).toContainEqual({ token: "tok-1", user })
    expect(stored).toContainEqual({ token: "tok-3", user })
    // A second step's session, a recovery code's, and one signed in to add the passkey the role requires.
    expect(stored).toContainEqual({ token: "tok-5", user })
    expect(stored).toContainEqual({ token: "tok-6", user })
    expect(stored).toContainEqual({ token: "tok-4", user })
    expect(stored.every((session) => (session as { user: unknown }).user !== null)).toBe(true)
    expect(forgotten).toBeGreaterThan(0)
  })

  it("starts signed in, with no second check, when start-up's check has already answered", async () => {
    const { createActor, fromPromise } = await import("xstate")
    let checks = 0
    const actor = createActor(
      authMachine.provide({
        actors: { checkSession: fromPromise(() => (checks++, Promise.resolve(user))) }
      }),
      { input: { storedToken: "tok-1", checkedUser: user } }
    ).start()
    expect(actor.getSnapshot().value).toEqual({ authenticated: "confirmed" })
    expect(actor.getSnapshot().context).toMatchObject({ token: "tok-1", user })
    await new Promise((r) => setTimeout(r, 0))
    expect(checks).toBe(0)
    // A checked answer without a token to go with it is not a session.
    const tokenless = createActor(authMachine, { input: { storedToken: null, checkedUser: user } }).start()
    expect(tokenless.getSnapshot().value).toBe("unauthenticated")
    // Nor is a remembered person without a token: nothing opens as them.
    const nobody = createActor(authMachine, { input: { storedToken: null, rememberedUser: user } }).start()
    expect(nobody.getSnapshot().value).toBe("unauthenticated")
  })

  it("keeps the remembered person signed in while the server can't be reached, and confirms when it answers", async () => {
    const answers: Array<() => Promise<AdminUser>> = []
    const asked: Array<unknown> = []
    const stored: Array<unknown> = []
    let forgotten = 0
    const machine = authMachine.provide({
      actors: { checkSession: fromPromise(({ input }) => (asked.push(input), (answers.shift() ?? (() => Promise.reject(network)))())) },
      actions: {
        storeSession: ({ context }) => void stored.push({ token: context.token, user: context.user }),
        forgetSession: () => void forgotten++
      }
    })
    const start = (error: unknown, rememberedUser: AdminUser | null = user) => {
      answers.push(() => Promise.reject(error))
      return createActor(machine, { input: { storedToken: "tok-1", rememberedUser: rememberedUser ?? undefined } }).start()
    }
    for (const error of [network, refused(502, "Bad gateway"), refused(503, "Service unavailable"), refused(504, "Gateway timeout")]) {
      const actor = start(error)
      await settle()
      expect(actor.getSnapshot().value).toEqual({ authenticated: "unconfirmed" })
      expect(actor.getSnapshot().context).toMatchObject({ token: "tok-1", user, remembered: user })
      actor.stop()
    }
    // Nothing is written while unconfirmed: the browser already holds this token and person.
    expect(stored).toEqual([])
    expect(forgotten).toBe(0)

    // The server's own answer signs out and forgets, remembered or not; so does no answer without a remembered person.
    for (const [error, rememberedUser] of [
      [refused(401), user],
      [refused(403, "Your address is not allowed"), user],
      [refused(500, "Internal error"), user],
      [network, null]
    ] as const) {
      const actor = start(error, rememberedUser)
      await settle()
      expect(actor.getSnapshot().value).toBe("unauthenticated")
      expect(actor.getSnapshot().context).toMatchObject({ token: null, user: null, remembered: null })
    }
    expect(forgotten).toBe(4)

    // The link back: a check; no answer again keeps waiting; an answer confirms and stores it.
    const actor = start(network)
    await settle()
    actor.send({ type: "LINK_BACK" })
    expect(actor.getSnapshot().value).toEqual({ authenticated: "confirming" })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ authenticated: "unconfirmed" })
    const renamed = { ...user, name: "Ada" }
    answers.push(() => Promise.resolve(renamed))
    actor.send({ type: "LINK_BACK" })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ authenticated: "confirmed" })
    expect(actor.getSnapshot().context.user).toEqual(renamed)
    // Every check, at start and on the way back, asks with the stored token.
    expect(asked.length).toBeGreaterThan(9)
    expect(new Set(asked.map((input) => JSON.stringify(input)))).toEqual(new Set([JSON.stringify({ token: "tok-1" })]))
    expect(stored).toEqual([{ token: "tok-1", user: renamed }])
    // Confirmed, the link's events change nothing.
    actor.send({ type: "LINK_BACK" })
    expect(actor.getSnapshot().value).toEqual({ authenticated: "confirmed" })

    // A refusal on the way back signs out and forgets.
    const refusedLater = start(network)
    await settle()
    answers.push(() => Promise.reject(refused(401)))
    refusedLater.send({ type: "LINK_BACK" })
    await settle()
    expect(refusedLater.getSnapshot().value).toBe("unauthenticated")
    expect(refusedLater.getSnapshot().context).toMatchObject({ token: null, user: null, remembered: null })
    expect(forgotten).toBe(5)
  })

  it("asks again every ten seconds while unconfirmed, whatever the browser says of its link", async () => {
    vi.useFakeTimers()
    try {
      let checks = 0
      const actor = createActor(authMachine.provide({ actors: { checkSession: fromPromise(() => (checks++, Promise.reject(network))) } }), {
        input: { storedToken: "tok-1", rememberedUser: user }
      }).start()
      await vi.advanceTimersByTimeAsync(0)
      expect(checks).toBe(1)
      expect(RECHECK_MS).toBe(10_000)
      await vi.advanceTimersByTimeAsync(RECHECK_MS - 1)
      expect(checks).toBe(1)
      await vi.advanceTimersByTimeAsync(1)
      expect(checks).toBe(2)
      expect(actor.getSnapshot().value).toEqual({ authenticated: "unconfirmed" })
      await vi.advanceTimersByTimeAsync(RECHECK_MS)
      expect(checks).toBe(3)
      actor.stop()
    } finally {
      vi.useRealTimers()
    }
  })

  it("signs in with a passkey in one step, and says whether the server refused it or nothing answered", async () => {
    const attempt = async (answer: () => Promise<{ token: string; user: AdminUser }>) => {
      const actor = createActor(authMachine.provide({ actors: { passkeySignIn: fromPromise(answer) } }), { input: { storedToken: null } }).start()
      actor.send({ type: "SIGN_IN_WITH_PASSKEY" })
      expect(actor.getSnapshot().value).toBe("signingInWithPasskey")
      await settle()
      return actor.getSnapshot()
    }
    const signedIn = await attempt(() => Promise.resolve({ token: "tok-9", user }))
    expect(signedIn.value).toEqual({ authenticated: "confirmed" })
    expect(signedIn.context).toMatchObject({ token: "tok-9", user, error: null })
    expect((await attempt(() => Promise.reject(refused(401, "x")))).context.error).toBe(authErrors.passkeyRefused)
    expect((await attempt(() => Promise.reject(network))).context.error).toBe(authErrors.passkeyNoAnswer)
    // Trying again clears what the last try said while the device is asked.
    const again = createActor(authMachine.provide({ actors: { passkeySignIn: fromPromise(() => Promise.reject(network)) } }), {
      input: { storedToken: null }
    }).start()
    again.send({ type: "SIGN_IN_WITH_PASSKEY" })
    await settle()
    expect(again.getSnapshot().context.error).toBe(authErrors.passkeyNoAnswer)
    again.send({ type: "SIGN_IN_WITH_PASSKEY" })
    expect(again.getSnapshot().context.error).toBeNull()
    expect((await attempt(() => Promise.reject(refused(429, "Too many passkey sign-ins from this address. Try again in 3 minutes.")))).context.error).toBe(
      "Too many passkey sign-ins from this address. Try again in 3 minutes."
    )
  })

  it("declares the spec's states", () => {
    expect(Object.keys(authMachine.root.states).sort()).toEqual([
      "authenticated",
      "checking",
      "otpSent",
      "passkeyRequired",
      "resendingOtp",
      "secondStep",
      "sendingOtp",
      "signingInWithPasskey",
      "signingOut",
      "starting",
      "unauthenticated",
      "verifying"
    ])
    expect(Object.keys(authMachine.root.states.authenticated?.states ?? {}).sort()).toEqual(["confirmed", "confirming", "unconfirmed"])
    expect(Object.keys(authMachine.root.states.secondStep?.states ?? {}).sort()).toEqual(["asserting", "choosing", "recovering"])
    expect(Object.keys(authMachine.root.states.passkeyRequired?.states ?? {}).sort()).toEqual(["adding", "offered"])
  })

  it("finishes a code sign-in with the second step the role requires, in the server's words when refused", async () => {
    const asked: Array<unknown> = []
    const answers: Array<() => Promise<{ token: string; user: AdminUser }>> = []
    const machine = authMachine.provide({
      actors: {
        requestOtp: fromPromise<OtpAnswer, { email: string; role: Role }>(() => Promise.resolve({ success: true, attempt: "att-1" })),
        verifyOtp: fromPromise<VerifyAnswer, { email: string; otp: string; attempt: string | null }>(() =>
          Promise.resolve({ step: "step-9", recoveryCodes: false })
        ),
        stepWithPasskey: fromPromise(({ input }) => (asked.push(input), Promise.reject(network))),
        stepWithRecoveryCode: fromPromise(({ input }) => (asked.push(input), (answers.shift() ?? (() => Promise.reject(network)))()))
      }
    })
    const actor = createActor(machine, { input: { storedToken: null } }).start()
    actor.send({ type: "SEND_OTP", email: "a@example.com", role: "admin" })
    await settle()
    actor.send({ type: "VERIFY", otp: "123456" })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ secondStep: "choosing" })
    expect(actor.getSnapshot().context).toMatchObject({ step: "step-9", recoveryCodes: false, token: null })
    actor.send({ type: "USE_PASSKEY" })
    await settle()
    expect(asked).toEqual([{ step: "step-9" }])
    expect(actor.getSnapshot().context.error).toBe(authErrors.passkeyNoAnswer)
    answers.push(() => Promise.reject(refused(401, "This recovery code is not one of yours, or it was already used.")))
    actor.send({ type: "USE_RECOVERY_CODE", code: "abcd-efgh-jkmn" })
    await settle()
    expect(asked.at(-1)).toEqual({ step: "step-9", code: "abcd-efgh-jkmn" })
    expect(actor.getSnapshot().context.error).toBe("This recovery code is not one of yours, or it was already used.")
    actor.send({ type: "USE_RECOVERY_CODE", code: "abcd-efgh-jkmn" })
    await settle()
    expect(actor.getSnapshot().context.error).toBe(authErrors.stepNoAnswer)
    answers.push(() => Promise.resolve({ token: "tok-7", user }))
    actor.send({ type: "USE_RECOVERY_CODE", code: "abcd-efgh-jkmp" })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ authenticated: "confirmed" })
    expect(actor.getSnapshot().context).toMatchObject({ token: "tok-7", step: null, error: null })
  })

  it("keeps whether the second step offers recovery codes, clears the last refusal on each try, and starts over on another e-mail", async () => {
    const never = () => new Promise<{ token: string; user: AdminUser }>(() => {})
    let stepAnswer: () => Promise<{ token: string; user: AdminUser }> = () => Promise.reject(network)
    const machine = authMachine.provide({
      actors: {
        requestOtp: fromPromise<OtpAnswer, { email: string; role: Role }>(() => Promise.resolve({ success: true })),
        verifyOtp: fromPromise<VerifyAnswer, { email: string; otp: string; attempt: string | null }>(() =>
          Promise.resolve({ step: "step-3", recoveryCodes: true })
        ),
        stepWithPasskey: fromPromise(() => stepAnswer()),
        stepWithRecoveryCode: fromPromise(() => stepAnswer())
      }
    })
    const actor = createActor(machine, { input: { storedToken: null } }).start()
    actor.send({ type: "SEND_OTP", email: "a@example.com", role: "admin" })
    await settle()
    actor.send({ type: "VERIFY", otp: "123456" })
    await settle()
    expect(actor.getSnapshot().context).toMatchObject({ step: "step-3", recoveryCodes: true })
    // A refusal stays said until the next try, which starts without it.
    actor.send({ type: "USE_PASSKEY" })
    await settle()
    expect(actor.getSnapshot().context.error).toBe(authErrors.passkeyNoAnswer)
    stepAnswer = never
    actor.send({ type: "USE_PASSKEY" })
    expect(actor.getSnapshot().value).toEqual({ secondStep: "asserting" })
    expect(actor.getSnapshot().context.error).toBeNull()
    const other = createActor(machine, { input: { storedToken: null } }).start()
    stepAnswer = () => Promise.reject(network)
    other.send({ type: "SEND_OTP", email: "b@example.com", role: "admin" })
    await settle()
    other.send({ type: "VERIFY", otp: "123456" })
    await settle()
    other.send({ type: "USE_RECOVERY_CODE", code: "abcd-efgh-jkmn" })
    await settle()
    expect(other.getSnapshot().context.error).toBe(authErrors.stepNoAnswer)
    stepAnswer = never
    other.send({ type: "USE_RECOVERY_CODE", code: "abcd-efgh-jkmp" })
    expect(other.getSnapshot().value).toEqual({ secondStep: "recovering" })
    expect(other.getSnapshot().context.error).toBeNull()
    // Another e-mail: nothing of this sign-in is kept.
    other.send({ type: "USE_DIFFERENT_EMAIL" })
    expect(other.getSnapshot().value).toBe("unauthenticated")
    expect(other.getSnapshot().context).toMatchObject({ email: "", error: null, attempt: null, step: null, recoveryCodes: false })
    actor.stop()
    other.stop()
  })

  it("asks a person whose role requires a passkey to add one first, keeping the session meanwhile", async () => {
    const stored: Array<unknown> = []
    const added: Array<unknown> = []
    const machine = authMachine.provide({
      actors: {
        requestOtp: fromPromise<OtpAnswer, { email: string; role: Role }>(() => Promise.resolve({ success: true, attempt: "att-1" })),
        verifyOtp: fromPromise<VerifyAnswer, { email: string; otp: string; attempt: string | null }>(() =>
          Promise.resolve({ token: "tok-8", user, passkeyDueBy: "2026-12-01T10:00:00.000Z" })
        ),
        addPasskey: fromPromise(({ input }) => (added.push(input), added.length === 1 ? Promise.reject(new Error("NotAllowedError")) : Promise.resolve({})))
      },
      actions: { storeSession: ({ context }) => void stored.push(context.token) }
    })
    const actor = createActor(machine, { input: { storedToken: null } }).start()
    actor.send({ type: "SEND_OTP", email: "a@example.com", role: "admin" })
    await settle()
    actor.send({ type: "VERIFY", otp: "123456" })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ passkeyRequired: "offered" })
    expect(actor.getSnapshot().context).toMatchObject({ token: "tok-8", passkeyDueBy: "2026-12-01T10:00:00.000Z" })
    expect(stored).toEqual(["tok-8"])
    actor.send({ type: "ADD_PASSKEY", name: "Phone" })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ passkeyRequired: "offered" })
    expect(actor.getSnapshot().context.error).toBe(authErrors.addRefused)
    actor.send({ type: "ADD_PASSKEY", name: "Laptop" })
    await settle()
    expect(added).toEqual([{ name: "Phone" }, { name: "Laptop" }])
    expect(actor.getSnapshot().value).toEqual({ authenticated: "confirmed" })
    expect(actor.getSnapshot().context).toMatchObject({ token: "tok-8", passkeyDueBy: null, error: null })
  })

  it("words each failure as the spec does", async () => {
    const { createActor, fromPromise } = await import("xstate")
    const attempt = async (requestError: unknown, verifyError?: unknown) => {
      const actor = createActor(
        authMachine.provide({
          actors: {
            requestOtp: fromPromise(() => (requestError === undefined ? Promise.resolve({ success: true as const }) : Promise.reject(requestError))),
            verifyOtp: fromPromise(() => Promise.reject(verifyError))
          }
        }),
        { input: { storedToken: null } }
      ).start()
      actor.send({ type: "SEND_OTP", email: "a@example.com", role: "admin" })
      await new Promise((r) => setTimeout(r, 0))
      if (verifyError !== undefined) {
        actor.send({ type: "VERIFY", otp: "000000" })
        await new Promise((r) => setTimeout(r, 0))
      }
      return actor.getSnapshot().context.error
    }
    expect(await attempt(refused(502, "Failed to send OTP: x"))).toBe(authErrors.sendRefused)
    expect(await attempt(network)).toBe(authErrors.sendThrew)
    expect(await attempt(refused(429, "Too many attempts. Try again in 2 minutes."))).toBe("Too many attempts. Try again in 2 minutes.")
    expect(await attempt(undefined, refused(401))).toBe(authErrors.verifyRefused)
    expect(await attempt(undefined, network)).toBe(authErrors.verifyThrew)
  })

  it("sends the code typed with the e-mail and the attempt the code request named", async () => {
    const sent: Array<unknown> = []
    const actor = createActor(
      authMachine.provide({
        actors: {
          requestOtp: fromPromise(() => Promise.resolve<OtpAnswer>({ success: true, attempt: "at-1" })),
          verifyOtp: fromPromise(({ input }) => (sent.push(input), Promise.resolve({ token: "t1", user })))
        }
      }),
      { input: { storedToken: null } }
    ).start()
    actor.send({ type: "SEND_OTP", email: "a@example.com", role: "admin" })
    await settle()
    actor.send({ type: "VERIFY", otp: "123456" })
    await settle()
    expect(sent).toEqual([{ email: "a@example.com", otp: "123456", attempt: "at-1" }])
    expect(actor.getSnapshot().value).toEqual({ authenticated: "confirmed" })
  })

  it("signs out, or says the spec's words, when the console gave it no calls", async () => {
    const stored = createActor(authMachine, { input: { storedToken: "t1" } }).start()
    await settle()
    expect(stored.getSnapshot().value).toBe("unauthenticated")
    expect(stored.getSnapshot().context.token).toBeNull()
    stored.send({ type: "SEND_OTP", email: "a@example.com", role: "admin" })
    await settle()
    expect(stored.getSnapshot().context.error).toBe(authErrors.sendThrew)

    const asked = createActor(authMachine.provide({ actors: { requestOtp: fromPromise(() => Promise.resolve<OtpAnswer>({ success: true })) } }), {
      input: { storedToken: null }
    }).start()
    asked.send({ type: "SEND_OTP", email: "a@example.com", role: "admin" })
    await settle()
    asked.send({ type: "VERIFY", otp: "123456" })
    await settle()
    expect(asked.getSnapshot().value).toBe("otpSent")
    expect(asked.getSnapshot().context.error).toBe(authErrors.verifyThrew)

    const signedIn = createActor(authMachine, { input: { storedToken: "t1", checkedUser: user } }).start()
    expect(signedIn.getSnapshot().value).toEqual({ authenticated: "confirmed" })
    signedIn.send({ type: "LOGOUT" })
    await settle()
    expect(signedIn.getSnapshot().value).toBe("unauthenticated")
  })
})
