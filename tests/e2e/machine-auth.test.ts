import type { BrowserContext, Page, Request, Route } from "playwright-core"
import { describe, expect } from "vitest"
import type { EventObject } from "xstate"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { authMachine } from "../../machines/auth.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { authTable } from "../spec/machine-tables.ts"
import { linkTexts } from "../spec/texts.ts"
import { holdStartChunk, logTo } from "../support/browser.ts"
import { browserEngines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { drivesEveryPath, type MachineModel, type ScreenDriver } from "../support/screen-model.ts"
import { deliveredOutbox, latestCode } from "../support/server.ts"
import { signedInAs, signIn } from "../support/session.ts"
import { registerPasskey, softAuthenticator, virtualAuthenticator } from "../support/authenticator.ts"
import { product, nextNumber, firstHeld, closeRun, pathHarness } from "../support/machine-screens.ts"

/** Ten seconds unconfirmed: the check is asked again (docs/decisions.md, "Signed in with no link"). */
const RECHECK = "xstate.after.10000.auth.authenticated.unconfirmed"

/**
 * The auth machine's generated paths, executed on the real screen in Chromium against the real
 * server (docs/testing.md, "Machines"), on the shared harness (tests/support/machine-screens.ts).
 */
// On one engine: the API suite stores and reads passkeys, challenges and sign-in steps on both.
describe.each(browserEngines)("auth: generated paths on the sign-in screen and the shell, on $name", (engine) => {
  pathHarness(engine)
  const user = { _id: "u", email: "someone@example.com", role: "admin" }
  const model: MachineModel<typeof authMachine> = {
    machine: authMachine,
    inputs: [{ storedToken: null }, { storedToken: "stored" }, { storedToken: "stored", checkedUser: user }, { storedToken: "stored", rememberedUser: user }],
    actorIds: ["checkSession", "requestOtp", "verifyOtp", "endSession", "passkeySignIn", "stepWithPasskey", "stepWithRecoveryCode", "addPasskey"],
    key: (snapshot) => {
      const context = snapshot.context as { token: unknown; remembered: unknown }
      return JSON.stringify([snapshot.value, context.token !== null, context.remembered !== null])
    },
    events: () =>
      [
        { type: "SEND_OTP", email: "someone@example.com", role: "admin" },
        { type: "VERIFY", otp: "123456" },
        { type: "RESEND" },
        { type: "USE_DIFFERENT_EMAIL" },
        { type: "LOGOUT" },
        { type: "SESSION_EXPIRED" },
        { type: "LINK_BACK" },
        { type: RECHECK },
        { type: "xstate.done.actor.checkSession", output: user },
        { type: "xstate.error.actor.checkSession", error: { status: 401, message: "Session expired" } },
        { type: "xstate.error.actor.checkSession", error: { status: undefined, message: "Failed to fetch" } },
        { type: "xstate.done.actor.requestOtp", output: { success: true } },
        { type: "xstate.done.actor.requestOtp", output: { success: false } },
        { type: "xstate.error.actor.requestOtp", error: { status: undefined, message: "Failed to fetch" } },
        { type: "xstate.done.actor.verifyOtp", output: { token: "fresh", user } },
        { type: "xstate.done.actor.verifyOtp", output: { step: "step", recoveryCodes: true } },
        { type: "xstate.done.actor.verifyOtp", output: { token: "fresh", user, passkeyDueBy: "2026-12-01T00:00:00.000Z" } },
        { type: "USE_PASSKEY" },
        { type: "USE_RECOVERY_CODE", code: "abcd-efgh-jkmn" },
        { type: "xstate.done.actor.stepWithPasskey", output: { token: "fresh", user } },
        { type: "xstate.error.actor.stepWithPasskey", error: { status: undefined, message: "Failed to fetch" } },
        { type: "xstate.done.actor.stepWithRecoveryCode", output: { token: "fresh", user } },
        { type: "xstate.error.actor.stepWithRecoveryCode", error: { status: 401, message: "This recovery code is not one of yours, or it was already used." } },
        { type: "ADD_PASSKEY", name: "Phone" },
        { type: "SKIP" },
        { type: "xstate.done.actor.addPasskey", output: {} },
        { type: "xstate.error.actor.addPasskey", error: { status: undefined, message: "Failed to fetch" } },
        { type: "xstate.error.actor.verifyOtp", error: { status: 401, message: "Invalid OTP" } },
        { type: "SIGN_IN_WITH_PASSKEY" },
        { type: "xstate.done.actor.passkeySignIn", output: { token: "fresh", user } },
        { type: "xstate.error.actor.passkeySignIn", error: { status: undefined, message: "Failed to fetch" } },
        { type: "xstate.done.actor.endSession", output: {} },
        { type: "xstate.error.actor.endSession", error: { status: undefined, message: "Failed to fetch" } }
      ] as ReadonlyArray<EventObject>
  }

  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    /** A staff member who exists on the server, for this path alone. */
    readonly email: string
    /** The client address the server sees for this path (sign-in is rate limited per address). */
    readonly ip: string
    readonly held: Array<{ readonly route: Route; readonly request: Request }>
    wrongCode: boolean
    /** The person's recovery codes, when the path finishes a second step with one; `wrongRecovery`: the next one typed is not theirs. */
    recoveryCodes: Array<string>
    wrongRecovery: boolean
    /** The session checks the page asked for; start-up's own check, when it had answered first, is let through. */
    checks: number
  }

  /** The console at its own address: a passkey is bound to localhost, never to a bare IP address. */
  const consoleAddress = () => `http://localhost:${new URL(product.server.url).port}`
  /** A passkey on the server and in the browser's virtual authenticator; with `codes`, the person's recovery codes too. */
  const givePasskey = async (page: Page, email: string, codes = false) => {
    const key = softAuthenticator()
    const token = await signIn(product.server, email, "admin")
    await registerPasskey(product.server.url, token, key, consoleAddress(), "Model key")
    await (await virtualAuthenticator(page)).holds(key, "localhost")
    if (!codes) return []
    const made = await call(product.server.url, "POST", "/api/admin/auth/passkeys/recovery-codes", { token })
    expect(made.status).toBe(200)
    return [...(made.body.data as { codes: ReadonlyArray<string> }).codes]
  }
  /**
   * Moderators require a passkey here (docs/security.md, "Passkeys"): each path's person is an
   * admin who signs in as a moderator, and becomes one when a path's code is to need the passkey.
   */
  let ruleSet = false
  const requireForModerators = async () => {
    if (ruleSet) return
    const token = await signedInAs(product.server, "super_admin")
    expect((await call(product.server.url, "PUT", "/api/admin/passkeys/rules/moderator", { token, body: { required: true, graceDays: 0 } })).status).toBe(200)
    ruleSet = true
  }
  const accountIs = (email: string, role: "admin" | "moderator") =>
    product.server.sql(Effect.flatMap(SqlClient, (sql) => sql`UPDATE admins SET role = ${role} WHERE email = ${email}`))
  const dropPasskeys = (email: string) =>
    product.server.sql(Effect.flatMap(SqlClient, (sql) => sql`DELETE FROM passkeys WHERE admin_id = (SELECT id FROM admins WHERE email = ${email})`))
  const pathHas = (path: { readonly steps: ReadonlyArray<{ readonly event: EventObject }> }, type: string) =>
    path.steps.some((step) => step.event.type === type)
  const storedToken = (run: Run) => run.page.evaluate(() => localStorage.getItem("adminToken"))
  /** Who the browser keeps the token for (docs/security.md, "What stays in the browser"). */
  const storedUser = (run: Run) => run.page.evaluate(() => JSON.parse(localStorage.getItem("adminUser") ?? "null") as unknown)
  const checkedUser = async (value: string) => (await call(product.server.url, "GET", "/api/admin/auth/check", { token: value })).body.user
  /** A check the server refuses (its session ended), or one that never reaches it. */
  const refusesCheck = (event: EventObject) => (event as unknown as { error: { status?: number } }).error.status === 401
  const endSessionOf = async (run: Run) => {
    const value = await storedToken(run)
    expect((await call(product.server.url, "POST", "/api/admin/auth/logout", { token: value ?? "" })).status).toBe(200)
  }
  const nextHeld = (run: Run) => firstHeld(run.held)
  const release = async (run: Run) => (await nextHeld(run)).route.continue()
  const cutOff = async (run: Run) => (await nextHeld(run)).route.abort("connectionfailed")
  /** Calls held for a state the machine left (by default checks from `confirming`, signed out or expired): they go on, unheard. */
  const passStaleChecks = async (run: Run, ending = "/api/admin/auth/check") => {
    for (const held of run.held.filter((one) => one.request.url().endsWith(ending))) {
      run.held.splice(run.held.indexOf(held), 1)
      await held.route.continue()
    }
  }
  /** A logout held from `signingOut` that a sign-in started on the form overtook: it goes on, unheard. */
  const passStaleLogouts = (run: Run) => passStaleChecks(run, "/api/admin/auth/logout")
  const sessionAnswer = async (value: string | null) =>
    value === null ? 401 : (await call(product.server.url, "GET", "/api/admin/auth/check", { token: value })).status

  const driver: ScreenDriver<Run> = {
    open: async (path) => {
      const email = `model-auth-${nextNumber()}@example.com`
      await product.server.sql(addAdmin(email, "admin"))
      const context = await product.browser.newContext({ viewport: { width: 1280, height: 800 } })
      const input = path.input as { storedToken: string | null; rememberedUser?: unknown }
      if (input.storedToken !== null) {
        // Start-up checks the stored token: a live session's token, or one whose session has ended.
        const live = await signedInAs(product.server, "admin")
        // Who the browser remembers the token for, as the console kept it when the server last confirmed it.
        const remembered = input.rememberedUser === undefined ? null : JSON.stringify(await checkedUser(live))
        const first = path.steps[0]?.event
        if (first?.type === "xstate.error.actor.checkSession" && refusesCheck(first)) {
          expect((await call(product.server.url, "POST", "/api/admin/auth/logout", { token: live })).status).toBe(200)
        }
        await context.addInitScript(
          ([value, user]) => {
            localStorage.setItem("adminToken", value)
            if (user !== null) localStorage.setItem("adminUser", user)
          },
          [live, remembered] as const
        )
      }
      // Start-up's check has answered before the console starts: its answer is let through, and
      // the console's code waits until it is in.
      const checkedAtStart = (path.input as { checkedUser?: unknown }).checkedUser !== undefined
      await context.addInitScript(() => {
        const seen = new MutationObserver(() => {
          if (document.body?.textContent?.includes("Checking your session") === true) Object.assign(window, { sawChecking: true })
        })
        seen.observe(document, { childList: true, subtree: true, characterData: true })
      })
      const page = await context.newPage()
      // What the page says is kept for a failed path's report (tests/support/browser.ts).
      logTo(page)
      // A path that signs in with a passkey: the person has one, on the server and in the browser's
      // virtual authenticator (the DevTools protocol's WebAuthn domain), for this console's address.
      await requireForModerators()
      const stepped = path.steps.some((step) => "output" in step.event && typeof (step.event.output as { step?: unknown } | undefined)?.step === "string")
      const codes = pathHas(path, "SIGN_IN_WITH_PASSKEY") || stepped ? await givePasskey(page, email, stepped) : []
      // Adding the passkey the role asks for: the browser's device makes it.
      if (pathHas(path, "ADD_PASSKEY") && !stepped) await virtualAuthenticator(page)
      // The code step counts the minute between codes down: the driver moves the page's clock past it.
      await page.clock.install()
      const errors: Array<string> = []
      page.on("pageerror", (error) => errors.push(error.message))
      const run: Run = { context, page, errors, email, ip: freshIp(), held: [], wrongCode: false, recoveryCodes: codes, wrongRecovery: false, checks: 0 }
      const checkAnswered = checkedAtStart ? page.waitForResponse("**/api/admin/auth/check") : undefined
      const codeWasHeld = checkAnswered === undefined ? undefined : await holdStartChunk(page, checkAnswered)
      await page.route("**/api/admin/auth**", (route, request) => {
        if (request.url().endsWith("/api/admin/auth/check")) run.checks++
        const held = {
          route: {
            continue: () => route.continue({ headers: { ...request.headers(), "x-forwarded-for": run.ip } }),
            abort: (code?: string) => route.abort(code),
            fulfill: (options) => route.fulfill(options)
          } as Route,
          request
        }
        if (checkedAtStart && run.checks === 1 && request.url().endsWith("/api/admin/auth/check")) void held.route.continue()
        else run.held.push(held)
      })
      await page.goto(`${consoleAddress()}/`)
      codeWasHeld?.()
      return run
    },
    close: closeRun,
    arrange: {
      // The right code; the server's answer is as the account is: a session (an admin: no rule),
      // the second step (a moderator with a passkey), or a passkey due (a moderator with none, new).
      "xstate.done.actor.verifyOtp": async (run, outcome) => {
        run.wrongCode = false
        const output = (outcome as unknown as { output: { step?: string; passkeyDueBy?: string } }).output
        await accountIs(run.email, output.step === undefined && output.passkeyDueBy === undefined ? "admin" : "moderator")
        if (output.passkeyDueBy !== undefined) await dropPasskeys(run.email)
      },
      "xstate.done.actor.stepWithRecoveryCode": (run) => {
        run.wrongRecovery = false
        return Promise.resolve()
      },
      "xstate.error.actor.stepWithRecoveryCode": (run) => {
        run.wrongRecovery = true
        return Promise.resolve()
      },
      "xstate.error.actor.verifyOtp": (run) => {
        run.wrongCode = true
        return Promise.resolve()
      },
      // A check on the way back that the server refuses: the session ended meanwhile.
      "xstate.error.actor.checkSession": async (run, outcome) => {
        if (refusesCheck(outcome)) await endSessionOf(run)
      }
    },
    act: {
      SEND_OTP: async (run) => {
        await run.page.getByLabel("Email").fill(run.email)
        await run.page.getByLabel("Role").selectOption({ label: "Moderator" })
        await run.page.getByRole("button", { name: "Send OTP" }).click()
        await passStaleLogouts(run)
      },
      VERIFY: async (run) => {
        const code = await latestCode(product.server, run.email)
        const wrong = code === "000000" ? "000001" : "000000"
        await run.page.getByPlaceholder("Enter 6-digit code").fill(run.wrongCode ? wrong : code)
        await run.page.getByRole("button", { name: "Verify & Login" }).click()
      },
      RESEND: async (run) => {
        const resend = run.page.getByRole("button", { name: /^Send a new code/ })
        expect(await resend.textContent()).toMatch(/^Send a new code in \d+ s$/)
        expect(await resend.isDisabled()).toBe(true)
        await run.page.clock.fastForward(61_000)
        await run.page.getByRole("button", { name: "Send a new code", exact: true }).click()
      },
      USE_DIFFERENT_EMAIL: async (run) => run.page.getByRole("button", { name: "Use different email" }).click(),
      LOGOUT: async (run) => run.page.getByRole("button", { name: "Logout" }).click(),
      SESSION_EXPIRED: async (run) => {
        // The session ends elsewhere. The console hears it from its change stream (refused once
        // the server has ended it), or from the next call the screen makes: the person opens CEX
        // Addresses, if the sidebar is still there (checked and clicked in one step in the page).
        await endSessionOf(run)
        await run.page.evaluate(() => document.querySelector<HTMLAnchorElement>('nav[aria-label="Main"] a[href="/cex-addresses"]')?.click())
        await run.page.waitForURL("**/login")
        await passStaleChecks(run)
      },
      // The browser's link goes and comes back: its `online` event.
      LINK_BACK: async (run) => {
        await run.context.setOffline(true)
        await run.page.getByRole("status").getByText(linkTexts.offline).waitFor()
        await run.context.setOffline(false)
      },
      [RECHECK]: async (run) => run.page.clock.fastForward(10_000),
      "xstate.done.actor.checkSession": release,
      // Refused by the server (its session ended), or cut off before it: no answer at all.
      "xstate.error.actor.checkSession": async (run, event) => (refusesCheck(event) ? release(run) : cutOff(run)),
      // An answer that sent no code (docs/product-spec.md §8, "OTP request returned false").
      "xstate.done.actor.requestOtp": async (run, event) =>
        (event as unknown as { output: { success: boolean } }).output.success
          ? release(run)
          : (await nextHeld(run)).route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ success: false }) }),
      "xstate.error.actor.requestOtp": cutOff,
      "xstate.done.actor.verifyOtp": release,
      "xstate.error.actor.verifyOtp": release,
      SIGN_IN_WITH_PASSKEY: async (run) => {
        await run.page.getByRole("button", { name: "Sign in with a passkey" }).click()
        await passStaleLogouts(run)
      },
      // The options come, the device answers; then the sign-in goes through, or never reaches the server.
      "xstate.done.actor.passkeySignIn": async (run) => {
        await release(run)
        await release(run)
      },
      "xstate.error.actor.passkeySignIn": async (run) => {
        await release(run)
        await cutOff(run)
      },
      "xstate.done.actor.endSession": release,
      "xstate.error.actor.endSession": cutOff,
      USE_PASSKEY: async (run) => run.page.getByRole("button", { name: "Use my passkey" }).click(),
      // The options come, the device answers; then the step is finished, or the answer never reaches the server.
      "xstate.done.actor.stepWithPasskey": async (run) => {
        await release(run)
        await release(run)
      },
      "xstate.error.actor.stepWithPasskey": async (run) => {
        await release(run)
        await cutOff(run)
      },
      USE_RECOVERY_CODE: async (run) => {
        const lost = run.page.getByRole("button", { name: "Lost your device? Use a recovery code" })
        if ((await lost.count()) > 0) await lost.click()
        const code = run.wrongRecovery ? "zzzz-zzzz-zzzz" : (run.recoveryCodes.shift() ?? "")
        await run.page.getByRole("textbox", { name: "Recovery code" }).fill(code)
        await run.page.getByRole("button", { name: "Sign in with the recovery code" }).click()
      },
      "xstate.done.actor.stepWithRecoveryCode": release,
      "xstate.error.actor.stepWithRecoveryCode": release,
      ADD_PASSKEY: async (run) => {
        await run.page.getByLabel("Passkey name").fill("Phone")
        await run.page.getByRole("button", { name: "Add a passkey" }).click()
      },
      SKIP: async (run) => run.page.getByRole("button", { name: "Later" }).click(),
      // The options come, the device makes the passkey; then it is added, or never reaches the server.
      "xstate.done.actor.addPasskey": async (run) => {
        await release(run)
        await release(run)
      },
      "xstate.error.actor.addPasskey": async (run) => {
        await release(run)
        await cutOff(run)
      }
    },
    see: {
      checking: async (run) => {
        await run.page.getByRole("status").getByText("Checking your session…").waitFor()
        expect((await nextHeld(run).then((held) => (run.held.unshift(held), held))).request.url()).toContain("/api/admin/auth/check")
      },
      unauthenticated: async (run, _snapshot, event) => {
        await run.page.getByRole("button", { name: "Send OTP" }).waitFor()
        await run.page.waitForURL("**/login")
        expect(await storedToken(run)).toBeNull()
        expect(await storedUser(run)).toBeNull()
        if (event?.type === "xstate.error.actor.requestOtp") {
          await run.page.getByRole("alert").getByText("An error occurred while requesting OTP.").waitFor()
        }
        if (event?.type === "xstate.done.actor.requestOtp") {
          await run.page.getByRole("alert").getByText("Failed to send OTP. Please check your email and try again.").waitFor()
        }
        if (event?.type === "USE_DIFFERENT_EMAIL") expect(await run.page.getByLabel("Email").inputValue()).toBe("")
        if (event?.type === "xstate.error.actor.passkeySignIn") {
          await run.page.getByRole("alert").getByText("No passkey was used: your device or browser cancelled it, or the server could not be reached.").waitFor()
        }
      },
      sendingOtp: async (run) => {
        const sending = run.page.getByRole("button", { name: "Sending OTP..." })
        await sending.waitFor()
        expect(await sending.isDisabled()).toBe(true)
      },
      otpSent: async (run, _snapshot, event) => {
        await run.page.getByRole("heading", { name: "Enter OTP Code" }).waitFor()
        // The server has mailed a code to this address.
        expect((await deliveredOutbox(product.server, run.email)).length).toBeGreaterThan(0)
        if (event?.type === "xstate.error.actor.verifyOtp") {
          await run.page.getByRole("alert").getByText("Invalid OTP. Please check your email and try again.").waitFor()
        }
        // A new code asked for from the code step: its refusal is said there, the step stays.
        if (event?.type === "xstate.error.actor.requestOtp") {
          await run.page.getByRole("alert").getByText("An error occurred while requesting OTP.").waitFor()
        }
        if (event?.type === "xstate.done.actor.requestOtp" && !(event as unknown as { output: { success: boolean } }).output.success) {
          await run.page.getByRole("alert").getByText("Failed to send OTP. Please check your email and try again.").waitFor()
        }
      },
      signingInWithPasskey: async (run) => {
        const waiting = run.page.getByRole("button", { name: "Waiting for your passkey…" })
        await waiting.waitFor()
        expect(await waiting.isDisabled()).toBe(true)
        expect((await nextHeld(run).then((held) => (run.held.unshift(held), held))).request.url()).toContain("/api/admin/auth/passkeys/sign-in/options")
      },
      resendingOtp: async (run) => {
        const resending = run.page.getByRole("button", { name: "Sending a new code..." })
        await resending.waitFor()
        expect(await resending.isDisabled()).toBe(true)
      },
      verifying: async (run) => {
        const verifying = run.page.getByRole("button", { name: "Verifying..." })
        await verifying.waitFor()
        expect(await verifying.isDisabled()).toBe(true)
      },
      "authenticated.confirmed": async (run, _snapshot, event) => {
        await run.page.locator("#root").getByText("Welcome back").waitFor()
        await expect.poll(() => storedToken(run).then(sessionAnswer)).toBe(200)
        // The browser keeps who the token is for, as the server answers it.
        const value = await storedToken(run)
        await expect.poll(() => storedUser(run)).toEqual(await checkedUser(value ?? ""))
        await expect(run.page.getByRole("status").getByText(linkTexts.unreachable).count()).resolves.toBe(0)
        if (event === undefined && run.checks > 0) {
          // Started signed in from start-up's answer: no second check, and no spinner shown.
          expect(run.checks).toBe(1)
          expect(await run.page.evaluate(() => "sawChecking" in window)).toBe(false)
        }
      },
      // Signed in as the person this browser remembers; the shell says the server can't be reached.
      "authenticated.unconfirmed": async (run) => {
        const remembered = (await storedUser(run)) as { email: string }
        await run.page.getByText(`Welcome back, ${remembered.email}`).waitFor()
        await run.page.getByRole("status").getByText(linkTexts.unreachable).waitFor()
        await run.page.getByRole("navigation", { name: "Main" }).waitFor()
        expect(await storedToken(run)).not.toBeNull()
      },
      "authenticated.confirming": async (run, _snapshot, event) => {
        if (event === undefined) {
          // A start as the person this browser remembers: their screens before the check has answered.
          const remembered = (await storedUser(run)) as { email: string }
          await run.page.getByText(`Welcome back, ${remembered.email}`).waitFor()
          await run.page.getByRole("navigation", { name: "Main" }).waitFor()
          expect(await run.page.evaluate(() => "sawChecking" in window)).toBe(false)
        } else await run.page.getByRole("status").getByText(linkTexts.unreachable).waitFor()
        const held = await nextHeld(run)
        run.held.unshift(held)
        expect(held.request.url()).toContain("/api/admin/auth/check")
      },
      "secondStep.choosing": async (run, _snapshot, event) => {
        await run.page.getByRole("heading", { name: "Confirm with your passkey" }).waitFor()
        // No session yet: the code alone opened none.
        expect(await storedToken(run)).toBeNull()
        if (event?.type === "xstate.error.actor.stepWithPasskey") {
          await run.page.getByRole("alert").getByText("No passkey was used: your device or browser cancelled it, or the server could not be reached.").waitFor()
        }
        if (event?.type === "xstate.error.actor.stepWithRecoveryCode") {
          await run.page.getByRole("alert").getByText("This recovery code is not one of yours, or it was already used.").waitFor()
        }
      },
      "secondStep.asserting": async (run) => {
        const waiting = run.page.getByRole("button", { name: "Waiting for your passkey…" })
        await waiting.waitFor()
        expect(await waiting.isDisabled()).toBe(true)
        expect((await nextHeld(run).then((held) => (run.held.unshift(held), held))).request.url()).toContain("/api/admin/auth/second-step/options")
      },
      "secondStep.recovering": async (run) => {
        const checking = run.page.getByRole("button", { name: "Checking the code…" })
        await checking.waitFor()
        expect(await checking.isDisabled()).toBe(true)
        expect((await nextHeld(run).then((held) => (run.held.unshift(held), held))).request.url()).toContain("/api/admin/auth/second-step/recovery")
      },
      "passkeyRequired.offered": async (run, _snapshot, event) => {
        await run.page.getByRole("heading", { name: "Add a passkey" }).waitFor()
        await run.page.getByText(/^Your role requires a passkey\. Until /u).waitFor()
        // The session is real and kept: a passkey is added with it.
        await expect.poll(() => storedToken(run).then(sessionAnswer)).toBe(200)
        if (event?.type === "xstate.error.actor.addPasskey") {
          await run.page
            .getByRole("alert")
            .getByText(/^The passkey was not added/u)
            .waitFor()
        }
      },
      "passkeyRequired.adding": async (run) => {
        const waiting = run.page.getByRole("button", { name: "Waiting for your device…" })
        await waiting.waitFor()
        expect(await waiting.isDisabled()).toBe(true)
        expect((await nextHeld(run).then((held) => (run.held.unshift(held), held))).request.url()).toContain("/api/admin/auth/passkeys/options")
      },
      signingOut: async (run) => {
        // The token is gone before the server has answered the logout (held here). A check still
        // held from `confirming` is one the machine no longer waits for: it goes on, unheard.
        await passStaleChecks(run)
        const held = await nextHeld(run)
        run.held.unshift(held)
        expect(held.request.url()).toContain("/api/admin/auth/logout")
        expect(await storedToken(run)).toBeNull()
      }
    }
  }

  drivesEveryPath("auth", model, authTable, driver)
})
