import type { BrowserContext, Page, Request, Route } from "playwright-core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import type { EventObject } from "xstate"
import { confirmAgainMachine } from "../../machines/confirm-again.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { hashToken } from "../../server/platform/secrets.ts"
import { confirmAgainTable } from "../spec/machine-tables.ts"
import { registerPasskey, softAuthenticator, virtualAuthenticator } from "../support/authenticator.ts"
import { closeRun, firstHeld, nextNumber, pathHarness, product } from "../support/machine-screens.ts"
import { drivesEveryPath, type MachineModel, type ScreenDriver } from "../support/screen-model.ts"
import { deliveredOutbox } from "../support/server.ts"
import { signIn } from "../support/session.ts"
import { call } from "../support/http.ts"
import { seriousViolations } from "../support/axe.ts"
import { browserEngines } from "../support/database.ts"

const network = { status: undefined, message: "Failed to fetch" }

/**
 * The confirm-again machine's generated paths (docs/security.md, "Confirm what matters"), executed
 * in Chromium against the real server: a super admin's session asks (the palette's "Confirm it's
 * you"), the server says whether it must confirm and how, and the dialog takes the passkey (the
 * virtual authenticator) or the code mailed.
 */
// On one engine: the API suite stores and reads codes, challenges and confirmations on both.
describe.each(browserEngines)("confirm again: generated paths on the dialog, on $name", (engine) => {
  pathHarness(engine)
  const model: MachineModel<typeof confirmAgainMachine> = {
    machine: confirmAgainMachine,
    actorIds: ["status", "confirmWithPasskey", "sendCode", "verifyCode"],
    key: (snapshot) => {
      const context = snapshot.context as { method: unknown; error: unknown }
      return JSON.stringify([snapshot.value, context.method, context.error !== null])
    },
    events: () =>
      [
        { type: "ASK" },
        { type: "USE_PASSKEY" },
        { type: "RESEND" },
        { type: "VERIFY", code: "123456" },
        { type: "CANCEL" },
        { type: "xstate.done.actor.status", output: { method: "passkey", confirmedUntil: "2030-01-01T00:00:00.000Z" } },
        { type: "xstate.done.actor.status", output: { method: "passkey", confirmedUntil: null } },
        { type: "xstate.done.actor.status", output: { method: "code", confirmedUntil: null } },
        { type: "xstate.error.actor.status", error: network },
        { type: "xstate.done.actor.confirmWithPasskey", output: {} },
        { type: "xstate.error.actor.confirmWithPasskey", error: network },
        { type: "xstate.done.actor.sendCode", output: {} },
        { type: "xstate.error.actor.sendCode", error: network },
        { type: "xstate.done.actor.verifyCode", output: {} },
        { type: "xstate.error.actor.verifyCode", error: { status: 401, message: "Invalid or expired code. Send a new one if needed." } }
      ] as ReadonlyArray<EventObject>
  }

  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    readonly email: string
    readonly token: string
    readonly held: Array<{ readonly route: Route; readonly request: Request }>
    wrongCode: boolean
    /** The codes mailed to this run's person so far. */
    mailed: number
  }

  const consoleAddress = () => `http://localhost:${new URL(product.server.url).port}`
  const sql = (run: Run, statement: (sql: SqlClient, tokenHash: string) => Effect.Effect<unknown, unknown>) =>
    product.server.sql(Effect.flatMap(SqlClient, (client) => statement(client, hashToken(run.token))))
  const nextHeld = (run: Run) => firstHeld(run.held)
  const release = async (run: Run) => (await nextHeld(run)).route.continue()
  const cutOff = async (run: Run) => (await nextHeld(run)).route.abort("connectionfailed")
  const heldUrl = async (run: Run) => {
    const held = await nextHeld(run)
    run.held.unshift(held)
    return held.request.url()
  }
  const dialog = (run: Run) => run.page.getByRole("dialog", { name: "Confirm it's you" })
  /** The confirmation codes mailed to `email`, oldest first (the outbox holds every person's mail). */
  const codes = async (email: string) =>
    (await deliveredOutbox(product.server, email)).filter((mail) => mail.to === email && mail.subject.startsWith("Your confirmation code"))
  const lastCode = async (email: string) => (await codes(email)).at(-1)?.subject.match(/(\d{6})/u)?.[1] ?? ""

  const driver: ScreenDriver<Run> = {
    open: async (path) => {
      const email = `model-confirm-${nextNumber()}@example.com`
      await product.server.sql(addAdmin(email, "super_admin"))
      const token = await signIn(product.server, email, "super_admin")
      const context = await product.browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: "block" })
      await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
      const page = await context.newPage()
      // A path where the server asks for the passkey: the person has one, on the server and in the browser's device.
      const byPasskey = path.steps.some((step) => (step.event as { output?: { method?: string } }).output?.method === "passkey")
      if (byPasskey) {
        const key = softAuthenticator()
        // Added by another session of theirs: a passkey never confirms the session that added it (docs/security.md, "Confirm what matters").
        await registerPasskey(product.server.url, await signIn(product.server, email, "super_admin"), key, consoleAddress(), "Desk key")
        await (await virtualAuthenticator(page)).holds(key, "localhost")
      }
      const errors: Array<string> = []
      page.on("pageerror", (error) => errors.push(error.message))
      const run: Run = { context, page, errors, email, token, held: [], wrongCode: false, mailed: 0 }
      await page.route("**/api/admin/auth/confirm**", (route, request) => void run.held.push({ route, request }))
      await page.goto(`${consoleAddress()}/`)
      await page.getByText("Welcome back").waitFor()
      return run
    },
    close: closeRun,
    arrange: {
      // What the server will say: confirmed a moment ago, or more than ten minutes ago (then by passkey, or with none by code).
      "xstate.done.actor.status": async (run, outcome) => {
        const status = (outcome as unknown as { output: { method: string; confirmedUntil: string | null } }).output
        if (status.confirmedUntil !== null) {
          await sql(run, (client, hash) => client`UPDATE sessions SET confirmed_at = now(), last_passkey_at = now() WHERE token_hash = ${hash}`)
          return
        }
        await sql(
          run,
          (client, hash) => client`UPDATE sessions SET confirmed_at = now() - interval '11 minutes', last_passkey_at = NULL WHERE token_hash = ${hash}`
        )
        if (status.method === "code") {
          await sql(run, (client, hash) => client`DELETE FROM passkeys WHERE admin_id = (SELECT admin_id FROM sessions WHERE token_hash = ${hash})`)
        }
      },
      "xstate.done.actor.verifyCode": (run) => {
        run.wrongCode = false
        return Promise.resolve()
      },
      "xstate.error.actor.verifyCode": (run) => {
        run.wrongCode = true
        return Promise.resolve()
      }
    },
    act: {
      ASK: async (run) => {
        await run.page.keyboard.press("Control+k")
        await run.page.getByPlaceholder("Type a command or search…").fill("Confirm it's you")
        await run.page
          .getByRole("option", { name: "Confirm it’s you", exact: false })
          .or(run.page.getByRole("option").filter({ hasText: "Confirm it" }))
          .first()
          .waitFor()
        await run.page.keyboard.press("Enter")
      },
      USE_PASSKEY: async (run) => dialog(run).getByRole("button", { name: "Use my passkey" }).click(),
      RESEND: async (run) => dialog(run).getByRole("button", { name: "Send a new code" }).click(),
      VERIFY: async (run) => {
        const code = await lastCode(run.email)
        await dialog(run)
          .getByLabel("Confirmation code")
          .fill(run.wrongCode ? (code === "000000" ? "000001" : "000000") : code)
        await dialog(run).getByRole("button", { name: "Confirm", exact: true }).click()
      },
      // A call still held (a code being sent) is one the machine no longer waits for: it goes on, unheard.
      CANCEL: async (run) => {
        await dialog(run).getByRole("button", { name: "Cancel" }).click()
        for (const held of run.held.splice(0)) await held.route.continue()
      },
      "xstate.done.actor.status": release,
      "xstate.error.actor.status": cutOff,
      // The options come, the device answers; then the answer is taken, or never reaches the server.
      "xstate.done.actor.confirmWithPasskey": async (run) => {
        await release(run)
        await release(run)
      },
      "xstate.error.actor.confirmWithPasskey": async (run) => {
        await release(run)
        await cutOff(run)
      },
      "xstate.done.actor.sendCode": release,
      "xstate.error.actor.sendCode": cutOff,
      "xstate.done.actor.verifyCode": release,
      "xstate.error.actor.verifyCode": release
    },
    see: {
      idle: async (run, _snapshot, event) => {
        await dialog(run).waitFor({ state: "hidden" })
        // Confirmed: the server says so for ten minutes.
        if (event?.type === "xstate.done.actor.verifyCode" || event?.type === "xstate.done.actor.confirmWithPasskey") {
          const status = await product.server.sql(
            Effect.flatMap(
              SqlClient,
              (client) =>
                client<{
                  fresh: boolean
                }>`SELECT greatest(confirmed_at, last_passkey_at) > now() - interval '1 minute' AS fresh FROM sessions WHERE token_hash = ${hashToken(run.token)}`
            )
          )
          expect(status[0]?.fresh).toBe(true)
        }
      },
      checking: async (run) => expect(await heldUrl(run)).toMatch(/\/api\/admin\/auth\/confirm$/u),
      "passkey.offered": async (run, _snapshot, event) => {
        await dialog(run).getByText("This change asks for your passkey again", { exact: false }).waitFor()
        if (event?.type === "xstate.error.actor.confirmWithPasskey") {
          await dialog(run)
            .getByRole("alert")
            .getByText("No passkey was used: your device or browser cancelled it, or the server could not be reached.")
            .waitFor()
        }
      },
      "passkey.asserting": async (run) => {
        const waiting = dialog(run).getByRole("button", { name: "Waiting for your passkey…" })
        await waiting.waitFor()
        expect(await waiting.isDisabled()).toBe(true)
        expect(await heldUrl(run)).toContain("/api/admin/auth/confirm/options")
      },
      "code.sending": async (run) => {
        await dialog(run).getByRole("button", { name: "Sending a code…" }).waitFor()
        expect(await heldUrl(run)).toMatch(/\/api\/admin\/auth\/confirm\/code$/u)
      },
      "code.sent": async (run, _snapshot, event) => {
        await dialog(run).getByRole("button", { name: "Confirm", exact: true }).waitFor()
        // A code sent is in the person's mail before they type it (the screen shows the field while it is sent).
        if (event?.type === "xstate.done.actor.sendCode") {
          await expect.poll(async () => (await codes(run.email)).length).toBe(run.mailed + 1)
          run.mailed += 1
        }
        if (event?.type === "xstate.error.actor.sendCode")
          await dialog(run).getByRole("alert").getByText("The server could not be reached. Try again.").waitFor()
        if (event?.type === "xstate.error.actor.verifyCode") {
          await dialog(run).getByRole("alert").getByText("Invalid or expired code. Send a new one if needed.").waitFor()
        }
      },
      "code.verifying": async (run) => {
        await dialog(run).getByRole("button", { name: "Checking…" }).waitFor()
        expect(await heldUrl(run)).toContain("/api/admin/auth/confirm/code/verify")
      }
    }
  }

  drivesEveryPath("confirm again", model, confirmAgainTable, driver)

  it("asks before a change that matters, then sends it: an admin added after the code mailed", async () => {
    const email = `gate-${nextNumber()}@example.com`
    await product.server.sql(addAdmin(email, "super_admin"))
    const token = await signIn(product.server, email, "super_admin")
    // The session's sign-in was more than ten minutes ago.
    await product.server.sql(
      Effect.flatMap(SqlClient, (client) => client`UPDATE sessions SET confirmed_at = now() - interval '11 minutes' WHERE token_hash = ${hashToken(token)}`)
    )
    const context = await product.browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: "block" })
    await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
    const page = await context.newPage()
    const errors: Array<string> = []
    page.on("pageerror", (error) => errors.push(error.message))
    await page.goto(`${consoleAddress()}/settings/admins`)
    await page.getByRole("button", { name: "Add admin" }).first().click()
    const form = page.getByRole("form", { name: "Add an admin" })
    const added = `added-${nextNumber()}@example.com`
    await form.getByLabel("E-mail").fill(added)
    await form
      .getByRole("button", { name: /Add|Create|Save/u })
      .first()
      .click()
    const asking = page.getByRole("dialog", { name: "Confirm it's you" })
    await asking.getByText(`We sent a 6-digit code to ${email}.`, { exact: false }).waitFor()
    // The dialog reads well in both themes (WCAG 2.2 A/AA).
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.mouse.move(0, 0)
      await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"))
      expect(await seriousViolations(page)).toEqual([])
    }
    // Nothing is sent before the person confirms.
    const listed = async () =>
      (
        (await call(product.server.url, "GET", `/api/admin/users?search=${encodeURIComponent(added)}`, { token })).body.data as {
          users: ReadonlyArray<unknown>
        }
      ).users.length
    expect(await listed()).toBe(0)
    await expect.poll(() => lastCode(email)).toMatch(/^\d{6}$/u)
    await asking.getByLabel("Confirmation code").fill(await lastCode(email))
    await page.keyboard.press("Enter")
    await asking.waitFor({ state: "hidden" })
    await page.getByRole("table").getByText(added).waitFor()
    await expect.poll(listed).toBe(1)
    expect(errors).toEqual([])
    await context.close()
  })
})
