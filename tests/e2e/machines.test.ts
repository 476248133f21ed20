import type { BrowserContext, Page, Request, Route } from "playwright-core"
import { beforeAll, describe, expect } from "vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { EventObject } from "xstate"
import { addressModalMachine } from "../../machines/address-modal.ts"
import { authMachine } from "../../machines/auth.ts"
import { blogEditorMachine } from "../../machines/blog-editor.ts"
import { listMachine } from "../../machines/list.ts"
import { listingModerationMachine } from "../../machines/listing-moderation.ts"
import { inquiryMachine } from "../../machines/inquiry.ts"
import { scamReportMachine } from "../../machines/scam-report.ts"
import { uploadMachine } from "../../machines/upload.ts"
import { addAdmin } from "../../server/auth/admins.ts"
import { addressModalTable, authTable, blogEditorTable, inquiryTable, listingModerationTable, listTable, scamReportTable, uploadTable } from "../spec/machine-tables.ts"
import { chromiumWithServer, holdStartChunk } from "../support/browser.ts"
import { noisePng } from "../support/images.ts"
import { call, freshIp } from "../support/http.ts"
import { drivesEveryPath, type MachineModel, type MachineSnapshot, type ScreenDriver } from "../support/screen-model.ts"
import { deliveredOutbox, latestCode } from "../support/server.ts"
import { signedInAs } from "../support/session.ts"

/**
 * The machines' generated paths, executed on the real screens in Chromium against the real
 * server (docs/testing.md, "Machines"). Texts are the spec's, written out.
 */
const product = chromiumWithServer()
let token: string
let counter = 0

beforeAll(async () => {
  token = await signedInAs(product.server, "admin")
})

/** A fresh browser context with the session token stored, as after a sign-in. */
const signedInContext = async (): Promise<{ readonly context: BrowserContext; readonly page: Page; readonly errors: Array<string> }> => {
  const context = await product.browser.newContext({ viewport: { width: 1280, height: 800 } })
  await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(error.message))
  return { context, page, errors }
}

/** Resolves at the next animation frame after `settled` stays true for two frames: nothing more is coming from this step. */
const quiet = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))

/** The oldest request a path is holding before the server, once the screen has sent one. */
const firstHeld = async <T>(held: Array<T>): Promise<T> => {
  await expect.poll(() => held.length, { timeout: 10_000 }).toBeGreaterThan(0)
  return held.shift() as T
}

/** Exactly one more request than `before`: the one the step asked for, and none behind it. */
const exactlyOneMore = async (page: Page, count: () => number, before: number) => {
  await expect.poll(count, { timeout: 10_000 }).toBe(before + 1)
  await quiet(page)
  expect(count()).toBe(before + 1)
}

let reused: { readonly context: BrowserContext; readonly page: Page } | undefined

/**
 * The page a path runs on, where nothing of the browser is arranged beyond routes and listeners:
 * one signed-in page for the whole file, reused from path to path. A new context and page cost
 * about 2 s a path on this machine kind against half a second for a load of the same page
 * (docs/testing.md, "Running time"); each path still starts with a full load of its screen, so no
 * state of the last path's console is left, and `closeRun` takes its routes and listeners off.
 */
const pathPage = async (): Promise<{ readonly context: BrowserContext; readonly page: Page; readonly errors: Array<string> }> => {
  if (reused === undefined) {
    const { context, page } = await signedInContext()
    page.removeAllListeners("pageerror")
    // Leaving a screen with unsaved changes asks before unloading: the next path's load goes ahead.
    page.on("dialog", (dialog) => void (dialog.type() === "beforeunload" ? dialog.accept() : dialog.dismiss()))
    reused = { context, page }
  }
  const errors: Array<string> = []
  reused.page.on("pageerror", (error) => errors.push(error.message))
  return { ...reused, errors }
}

/** A path's end: no error was thrown in the page; its browser context goes, or its reused page is emptied. */
const closeRun = async (run: { readonly errors: ReadonlyArray<string>; readonly context: BrowserContext; readonly page: Page }) => {
  try {
    expect(run.errors).toEqual([])
  } finally {
    if (run.page === reused?.page) {
      run.page.removeAllListeners("pageerror")
      run.page.removeAllListeners("request")
      await run.page.unrouteAll({ behavior: "ignoreErrors" })
      await run.page.goto("about:blank")
    } else await run.context.close()
  }
}

describe("address modal: generated paths on /generated-addresses", () => {
  const required = ["identifier", "Name"]
  const placeholder = { _id: "row", identifier: "row", Name: "Row", Rank: 0, createdAt: "", updatedAt: "", version: 1 }
  const draft = { identifier: "row", Name: "Row" }
  const model: MachineModel<typeof addressModalMachine> = {
    machine: addressModalMachine,
    actorIds: ["save", "remove"],
    key: (snapshot) => {
      const context = snapshot.context as { address: unknown; draft: Record<string, string> }
      const canSave = required.every((field) => (context.draft[field] ?? "").trim() !== "")
      return JSON.stringify([snapshot.value, context.address === null, canSave])
    },
    events: () => [
      { type: "OPEN_ADD", required },
      { type: "OPEN_VIEW", address: placeholder, draft, required },
      { type: "OPEN_EDIT", address: placeholder, draft, required },
      { type: "OPEN_DELETE", address: placeholder, draft, required },
      { type: "EDIT" },
      { type: "SAVE", draft: { identifier: "NEW", Name: "Renamed" } },
      { type: "SAVE", draft: { identifier: "NEW", Name: " " } },
      { type: "CONFIRM_DELETE" },
      { type: "CLOSE" },
      { type: "xstate.done.actor.save", output: placeholder },
      { type: "xstate.error.actor.save", error: { status: 409, message: "stale" } },
      { type: "xstate.done.actor.remove", output: {} },
      { type: "xstate.error.actor.remove", error: { status: 409, message: "stale" } }
    ] as ReadonlyArray<EventObject>
  }

  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    /** The row every path starts from, made through the API. */
    readonly row: { readonly id: string; readonly identifier: string }
    /** What "NEW" stands for on this path: an identifier no other path uses. */
    readonly newIdentifier: string
    /** Writes the screen sent, held until the step that decides their answer. */
    readonly held: Array<{ readonly route: Route; readonly request: Request }>
    listLoads: number
  }

  const path = "/api/admin/addresses/generated"
  const dialog = (run: Run) => run.page.getByRole("dialog")
  const row = (run: Run) => run.page.getByRole("table", { name: "Generated Addresses" }).getByRole("row").filter({ hasText: run.row.identifier })
  const serverRow = async (run: Run, identifier: string) => {
    const answer = await call(product.server.url, "GET", `${path}?search=${encodeURIComponent(identifier)}`, { token })
    const rows = (answer.body.data as { addresses: ReadonlyArray<{ _id: string; identifier: string; Name: string; version: number }> }).addresses
    return rows.find((found) => found.identifier === identifier)
  }
  const nextHeld = (run: Run) => firstHeld(run.held)
  /** Someone else saves the row first, so the screen's version is stale: the server will answer 409. */
  const changeElsewhere = async (run: Run) => {
    const current = await serverRow(run, run.row.identifier)
    if (current === undefined) throw new Error("the path's row is gone")
    const answer = await call(product.server.url, "PUT", `${path}/${current._id}`, {
      token,
      body: { identifier: current.identifier, Name: `${current.Name} (elsewhere)`, version: current.version }
    })
    expect(answer.status).toBe(200)
  }
  const isNew = (snapshot: MachineSnapshot) => (snapshot.context as { address: unknown }).address === null
  const draftOf = (snapshot: MachineSnapshot) => (snapshot.context as { draft: Record<string, string> }).draft
  /** The list reloads exactly once after a finished save or delete. */
  const reloadedOnce = (run: Run, before: number) => exactlyOneMore(run.page, () => run.listLoads, before)

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await pathPage()
      const identifier = `model-row-${++counter}`
      const made = await call(product.server.url, "POST", path, { token, body: { identifier, Name: "Model row" } })
      expect(made.status).toBe(200)
      const run: Run = {
        context, page, errors,
        row: { id: (made.body.data as { address: { _id: string } }).address._id, identifier },
        newIdentifier: `model-new-${counter}`,
        held: [],
        listLoads: 0
      }
      await page.route(`**${path}**`, async (route, request) => {
        if (request.method() === "GET") {
          run.listLoads++
          await route.continue()
        } else run.held.push({ route, request })
      })
      await page.goto(`${product.server.url}/generated-addresses?search=${identifier}`)
      await row(run).waitFor()
      return run
    },
    close: closeRun,
    act: {
      OPEN_ADD: async (run) => run.page.getByRole("button", { name: "Add Address" }).click(),
      OPEN_VIEW: async (run) => row(run).getByRole("button", { name: "View" }).click(),
      OPEN_EDIT: async (run) => row(run).getByRole("button", { name: "Edit" }).click(),
      OPEN_DELETE: async (run) => row(run).getByRole("button", { name: "Delete" }).click(),
      EDIT: async (run) => dialog(run).getByRole("button", { name: "Edit" }).click(),
      SAVE: async (run, event, before) => {
        const { draft } = event as unknown as { draft: Record<string, string> }
        for (const [field, value] of Object.entries(draft)) {
          // An existing row keeps its identifier, so the path can still find it.
          const typed = value !== "NEW" ? value : isNew(before) ? run.newIdentifier : run.row.identifier
          await dialog(run).locator(`input[name="${field}"]`).fill(typed)
        }
        // Save waits for both fields (§5): with one blank it is disabled, and pressing it does nothing.
        const save = dialog(run).getByRole("button", { name: "Save" })
        if (await save.isEnabled()) await save.click()
      },
      CONFIRM_DELETE: async (run) => dialog(run).getByRole("button", { name: "Delete" }).click(),
      CLOSE: async (run) => run.page.keyboard.press("Escape"),
      "xstate.done.actor.save": async (run) => {
        const loads = run.listLoads
        await (await nextHeld(run)).route.continue()
        await dialog(run).waitFor({ state: "detached" })
        await reloadedOnce(run, loads)
      },
      "xstate.error.actor.save": async (run, _event, before) => {
        const held = await nextHeld(run)
        // A new address: the connection fails. An edit: someone else saved first (409).
        if (isNew(before)) await held.route.abort("connectionfailed")
        else {
          await changeElsewhere(run)
          await held.route.continue()
        }
      },
      "xstate.done.actor.remove": async (run) => {
        const loads = run.listLoads
        await (await nextHeld(run)).route.continue()
        await dialog(run).waitFor({ state: "detached" })
        await reloadedOnce(run, loads)
      },
      "xstate.error.actor.remove": async (run) => {
        const held = await nextHeld(run)
        await changeElsewhere(run)
        await held.route.continue()
      }
    },
    see: {
      closed: async (run, _snapshot, event) => {
        await dialog(run).waitFor({ state: "detached" })
        if (event?.type === "xstate.done.actor.remove") {
          expect(await serverRow(run, run.row.identifier)).toBeUndefined()
          await row(run).waitFor({ state: "detached" })
        }
      },
      viewing: async (run) => {
        await dialog(run).getByRole("heading", { name: "Address Details" }).waitFor()
        await dialog(run).getByText(run.row.identifier, { exact: true }).first().waitFor()
      },
      editing: async (run, snapshot, event) => {
        await dialog(run).getByRole("heading", { name: isNew(snapshot) ? "Add Address" : "Edit Address" }).waitFor()
        const save = dialog(run).getByRole("button", { name: "Save" })
        const fillable = required.every((field) => (draftOf(snapshot)[field] ?? "").trim() !== "")
        await expect.poll(() => save.isEnabled()).toBe(fillable)
        if (event?.type === "xstate.error.actor.save") {
          await dialog(run).getByRole("alert").getByText(isNew(snapshot) ? "Failed to create address" : "Failed to update address").waitFor()
          // Nothing of the refused save reached the server: no new row, or the other admin's change kept.
          if (isNew(snapshot)) expect(await serverRow(run, run.newIdentifier)).toBeUndefined()
          else expect((await serverRow(run, run.row.identifier))?.Name).toMatch(/\(elsewhere\)$/)
        }
      },
      saving: async (run, snapshot) => {
        const saving = dialog(run).getByRole("button", { name: "Saving..." })
        await saving.waitFor()
        expect(await saving.isDisabled()).toBe(true)
        // The request is on its way with what the form shows, and held there.
        const held = await nextHeld(run)
        run.held.unshift(held)
        expect(held.request.method()).toBe(isNew(snapshot) ? "POST" : "PUT")
        expect(held.request.postDataJSON()).toMatchObject({ Name: (await dialog(run).locator('input[name="Name"]').inputValue()).trim() })
      },
      confirmingDelete: async (run, _snapshot, event) => {
        await dialog(run).getByText("Are you sure you want to delete this address? This action cannot be undone.").waitFor()
        if (event?.type === "xstate.error.actor.remove") {
          await dialog(run).getByRole("alert").getByText("Failed to delete address").waitFor()
          expect(await serverRow(run, run.row.identifier)).toBeDefined()
        }
      },
      deleting: async (run) => {
        const deleting = dialog(run).getByRole("button", { name: "Deleting..." })
        await deleting.waitFor()
        expect(await deleting.isDisabled()).toBe(true)
      }
    }
  }

  drivesEveryPath("address modal", model, addressModalTable, driver)
})

describe("auth: generated paths on the sign-in screen and the shell", () => {
  const user = { _id: "u", email: "someone@example.com", role: "admin" }
  const model: MachineModel<typeof authMachine> = {
    machine: authMachine,
    inputs: [{ storedToken: null }, { storedToken: "stored" }, { storedToken: "stored", checkedUser: user }],
    actorIds: ["checkSession", "requestOtp", "verifyOtp", "endSession"],
    key: (snapshot) => JSON.stringify([snapshot.value, (snapshot.context as { token: unknown }).token !== null]),
    events: () => [
      { type: "SEND_OTP", email: "someone@example.com", role: "admin" },
      { type: "VERIFY", otp: "123456" },
      { type: "USE_DIFFERENT_EMAIL" },
      { type: "LOGOUT" },
      { type: "SESSION_EXPIRED" },
      { type: "xstate.done.actor.checkSession", output: user },
      { type: "xstate.error.actor.checkSession", error: { status: 401, message: "Session expired" } },
      { type: "xstate.done.actor.requestOtp", output: { success: true } },
      { type: "xstate.done.actor.requestOtp", output: { success: false } },
      { type: "xstate.error.actor.requestOtp", error: { status: undefined, message: "Failed to fetch" } },
      { type: "xstate.done.actor.verifyOtp", output: { token: "fresh", user } },
      { type: "xstate.error.actor.verifyOtp", error: { status: 401, message: "Invalid OTP" } },
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
    /** The session checks the page asked for; start-up's own check, when it had answered first, is let through. */
    checks: number
  }

  const storedToken = (run: Run) => run.page.evaluate(() => localStorage.getItem("adminToken"))
  const nextHeld = (run: Run) => firstHeld(run.held)
  const release = async (run: Run) => (await nextHeld(run)).route.continue()
  const cutOff = async (run: Run) => (await nextHeld(run)).route.abort("connectionfailed")
  const sessionAnswer = async (value: string | null) =>
    value === null ? 401 : (await call(product.server.url, "GET", "/api/admin/auth/check", { token: value })).status

  const driver: ScreenDriver<Run> = {
    open: async (path) => {
      const email = `model-auth-${++counter}@example.com`
      await product.server.sql(addAdmin(email, "admin"))
      const context = await product.browser.newContext({ viewport: { width: 1280, height: 800 } })
      if ((path.input as { storedToken: string | null }).storedToken !== null) {
        // Start-up checks the stored token: a live session's token, or one whose session has ended.
        const live = await signedInAs(product.server, "admin")
        if (path.steps[0]?.event.type === "xstate.error.actor.checkSession") {
          expect((await call(product.server.url, "POST", "/api/admin/auth/logout", { token: live })).status).toBe(200)
        }
        await context.addInitScript((value) => localStorage.setItem("adminToken", value), live)
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
      const errors: Array<string> = []
      page.on("pageerror", (error) => errors.push(error.message))
      const run: Run = { context, page, errors, email, ip: freshIp(), held: [], wrongCode: false, checks: 0 }
      const checkAnswered = checkedAtStart ? page.waitForResponse("**/api/admin/auth/check") : undefined
      const codeWasHeld = checkAnswered === undefined ? undefined : await holdStartChunk(page, checkAnswered)
      await page.route("**/api/admin/auth**", (route, request) => {
        if (request.url().endsWith("/api/admin/auth/check")) run.checks++
        const held = { route: { continue: () => route.continue({ headers: { ...request.headers(), "x-forwarded-for": run.ip } }), abort: (code?: string) => route.abort(code), fulfill: (options) => route.fulfill(options) } as Route, request }
        if (checkedAtStart && run.checks === 1 && request.url().endsWith("/api/admin/auth/check")) void held.route.continue()
        else run.held.push(held)
      })
      await page.goto(`${product.server.url}/`)
      codeWasHeld?.()
      return run
    },
    close: closeRun,
    arrange: {
      "xstate.done.actor.verifyOtp": async (run) => void (run.wrongCode = false),
      "xstate.error.actor.verifyOtp": async (run) => void (run.wrongCode = true)
    },
    act: {
      SEND_OTP: async (run) => {
        await run.page.getByLabel("Email").fill(run.email)
        await run.page.getByLabel("Role").selectOption({ label: "Admin" })
        await run.page.getByRole("button", { name: "Send OTP" }).click()
      },
      VERIFY: async (run) => {
        const code = await latestCode(product.server, run.email)
        const wrong = code === "000000" ? "000001" : "000000"
        await run.page.getByPlaceholder("Enter 6-digit code").fill(run.wrongCode ? wrong : code)
        await run.page.getByRole("button", { name: "Verify & Login" }).click()
      },
      USE_DIFFERENT_EMAIL: async (run) => run.page.getByRole("button", { name: "Use different email" }).click(),
      LOGOUT: async (run) => run.page.getByRole("button", { name: "Logout" }).click(),
      SESSION_EXPIRED: async (run) => {
        // The session ends elsewhere; the next call the screen makes is refused.
        const value = await storedToken(run)
        expect((await call(product.server.url, "POST", "/api/admin/auth/logout", { token: value ?? "" })).status).toBe(200)
        await run.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "CEX Addresses" }).click()
      },
      "xstate.done.actor.checkSession": release,
      "xstate.error.actor.checkSession": release,
      // An answer that sent no code (docs/product-spec.md §8, "OTP request returned false").
      "xstate.done.actor.requestOtp": async (run, event) => (event as unknown as { output: { success: boolean } }).output.success
        ? release(run)
        : (await nextHeld(run)).route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ success: false }) }),
      "xstate.error.actor.requestOtp": cutOff,
      "xstate.done.actor.verifyOtp": release,
      "xstate.error.actor.verifyOtp": release,
      "xstate.done.actor.endSession": release,
      "xstate.error.actor.endSession": cutOff
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
        if (event?.type === "xstate.error.actor.requestOtp") {
          await run.page.getByRole("alert").getByText("An error occurred while requesting OTP.").waitFor()
        }
        if (event?.type === "xstate.done.actor.requestOtp") {
          await run.page.getByRole("alert").getByText("Failed to send OTP. Please check your email and try again.").waitFor()
        }
        if (event?.type === "USE_DIFFERENT_EMAIL") expect(await run.page.getByLabel("Email").inputValue()).toBe("")
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
      },
      verifying: async (run) => {
        const verifying = run.page.getByRole("button", { name: "Verifying..." })
        await verifying.waitFor()
        expect(await verifying.isDisabled()).toBe(true)
      },
      authenticated: async (run, _snapshot, event) => {
        await run.page.getByText("Welcome back").waitFor()
        await expect.poll(() => storedToken(run).then(sessionAnswer)).toBe(200)
        if (event === undefined && run.checks > 0) {
          // Started signed in from start-up's answer: no second check, and no spinner shown.
          expect(run.checks).toBe(1)
          expect(await run.page.evaluate(() => "sawChecking" in window)).toBe(false)
        }
      },
      signingOut: async (run) => {
        // The token is gone before the server has answered the logout (held here).
        const held = await nextHeld(run)
        run.held.unshift(held)
        expect(held.request.url()).toContain("/api/admin/auth/logout")
        expect(await storedToken(run)).toBeNull()
      }
    }
  }

  drivesEveryPath("auth", model, authTable, driver)
})

describe("image upload: generated paths on the blog editor's featured image", () => {
  const png = { name: "photo.png", type: "image/png", size: 2_000 }
  const text = { name: "notes.txt", type: "text/plain", size: 20 }
  const huge = { name: "huge.png", type: "image/png", size: 6 * 1024 * 1024 }
  const model: MachineModel<typeof uploadMachine> = {
    machine: uploadMachine,
    inputs: [{ type: "blog" }],
    actorIds: ["upload"],
    key: (snapshot) => JSON.stringify(snapshot.value),
    events: () => [
      { type: "PICK", file: png },
      { type: "PICK", file: text },
      { type: "PICK", file: huge },
      { type: "PROGRESS", loaded: 50, total: 100 },
      { type: "CANCEL" },
      { type: "RESET" },
      { type: "xstate.done.actor.upload", output: { url: "/uploads/blog/x.png" } },
      { type: "xstate.error.actor.upload", error: { status: undefined, message: "Network error" } }
    ] as ReadonlyArray<EventObject>
  }

  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    /** Chromium's network emulation: a slow uplink so an upload can be watched and cancelled, or no network at all. */
    readonly network: (conditions: { readonly offline: boolean; readonly uploadBytesPerSecond: number }) => Promise<void>
    /** Upload requests the page has sent. */
    readonly sent: Array<Request>
    /** An upload held before the server, when the path will have its connection fail. */
    readonly held: Array<Route>
    picked: { readonly name: string; readonly type: string; readonly size: number } | undefined
  }

  /** A 1.9 MB PNG of noise (it does not compress), slow enough to watch over the throttled link. */
  let photo: Buffer
  beforeAll(() => void (photo = Buffer.from(noisePng(700, 700))))

  const urlField = (run: Run) => run.page.getByPlaceholder("https://… or upload a file")
  const progressBar = (run: Run) => run.page.getByRole("progressbar", { name: "Upload progress" })
  const progressOf = async (run: Run) => Number(await progressBar(run).getAttribute("aria-valuenow") ?? 0)
  const SLOW = { offline: false, uploadBytesPerSecond: 400_000 }
  /** The spec's messages for a refused pick, written out (docs/product-spec.md §5, "Image upload"). */
  const refusal = (file: { readonly type: string; readonly size: number }) =>
    !file.type.startsWith("image/") ? "Please select a valid image file" : file.size > 5 * 1024 * 1024 ? "File size must be less than 5MB" : undefined

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await signedInContext()
      const cdp = await context.newCDPSession(page)
      await cdp.send("Network.enable")
      const network = async (conditions: { readonly offline: boolean; readonly uploadBytesPerSecond: number }) =>
        void await cdp.send("Network.emulateNetworkConditions", {
          offline: conditions.offline, latency: 0, downloadThroughput: -1, uploadThroughput: conditions.uploadBytesPerSecond
        })
      const run: Run = { context, page, errors, network, sent: [], held: [], picked: undefined }
      page.on("request", (request) => void (request.url().endsWith("/api/upload/image") && run.sent.push(request)))
      await page.goto(`${product.server.url}/blog/new`)
      await urlField(run).waitFor()
      await network(SLOW)
      return run
    },
    close: closeRun,
    act: {
      PICK: async (run, event) => {
        const file = (event as unknown as { file: { name: string; type: string; size: number } }).file
        run.picked = file
        const buffer = file === png ? photo : Buffer.alloc(file.size, 0x61)
        await run.page.getByTestId("featured-image-file").setInputFiles({ name: file.name, mimeType: file.type, buffer })
      },
      // The browser reports the bytes sent; a person watches the bar move.
      PROGRESS: async (run) => expect.poll(() => progressOf(run)).toBeGreaterThan(0),
      CANCEL: async (run) => run.page.getByRole("button", { name: "Cancel upload" }).click(),
      RESET: async (run, _event, before) =>
        run.page.getByRole("button", { name: before.value === "done" ? "Remove" : "Dismiss" }).click(),
      "xstate.done.actor.upload": async (run) => {
        await run.network({ offline: false, uploadBytesPerSecond: -1 })
        await progressBar(run).waitFor({ state: "detached" })
        await run.network(SLOW)
      },
      "xstate.error.actor.upload": async (run) => {
        // The connection drops before the server has answered.
        await expect.poll(() => run.held.length).toBeGreaterThan(0)
        await run.held.shift()?.abort("connectionfailed")
        await run.page.unroute("**/api/upload/image")
      }
    },
    arrange: {
      "xstate.error.actor.upload": async (run) =>
        void await run.page.route("**/api/upload/image", (route) => void run.held.push(route))
    },
    see: {
      idle: async (run, _snapshot, event) => {
        await progressBar(run).waitFor({ state: "detached" })
        await run.page.getByRole("alert").waitFor({ state: "detached" })
        await run.page.getByRole("button", { name: "Upload", exact: true }).waitFor()
        if (event?.type === "RESET" || event?.type === "CANCEL") expect(await urlField(run).inputValue()).toBe("")
        if (event?.type === "CANCEL") {
          // The request was given up before the server answered it.
          await expect.poll(() => run.sent.at(-1)?.failure()?.errorText).toBe("net::ERR_ABORTED")
        }
      },
      uploading: async (run) => {
        await progressBar(run).waitFor()
        const value = await progressOf(run)
        expect(value).toBeGreaterThanOrEqual(0)
        expect(value).toBeLessThanOrEqual(90)
        expect(await run.page.getByRole("button", { name: "Uploading…" }).isDisabled()).toBe(true)
      },
      done: async (run) => {
        await expect.poll(() => urlField(run).inputValue()).toMatch(/\/uploads\/blog\/[\w-]+\.png$/)
        // The server holds the picture at the URL the field shows.
        const stored = await fetch(await urlField(run).inputValue())
        expect(stored.status).toBe(200)
        expect(stored.headers.get("content-type")).toBe("image/png")
        expect((await stored.arrayBuffer()).byteLength).toBeGreaterThan(0)
      },
      failed: async (run, _snapshot, event) => {
        const expected = event?.type === "PICK" && run.picked !== undefined ? refusal(run.picked) : "Upload failed: Network error"
        await run.page.getByRole("alert").getByText(expected ?? "", { exact: true }).waitFor()
        await progressBar(run).waitFor({ state: "detached" })
        expect(await urlField(run).inputValue()).toBe("")
        // A refused pick sends nothing.
        if (event?.type === "PICK") expect(run.sent.filter((request) => request.failure() === null && request.postDataBuffer()?.length === run.picked?.size)).toEqual([])
      }
    }
  }

  drivesEveryPath("image upload", model, uploadTable, driver)
})

describe("list: generated paths on a directory's list", () => {
  const first = { search: "", page: 1, filters: {} }
  const narrow = { search: "-0", page: 1, filters: {} }
  const second = { search: "", page: 2, filters: {} }
  const model: MachineModel<typeof listMachine> = {
    machine: listMachine,
    // The screen opened cold, or with start-up's answer for its first page already in (the
    // console's code is held until it is, below).
    inputs: [{ query: first }, { query: first, page: { rows: [], pagination: { page: 1, limit: 20, total: 0, pages: 1 } } }],
    actorIds: ["fetchPage"],
    key: (snapshot) => {
      const context = snapshot.context as { query: { search: string; page: number }; page: unknown; error: unknown }
      return JSON.stringify([snapshot.value, context.query.search, context.query.page, context.page !== null, context.error !== null])
    },
    // The pager is there once a page is: before that, a person can only search.
    events: (snapshot) => [
      { type: "LOAD", query: narrow },
      ...((snapshot.context as { page: unknown }).page === null ? [] : [{ type: "LOAD", query: second }]),
      { type: "RELOAD" },
      { type: "xstate.done.actor.fetchPage", output: { rows: [], pagination: { page: 1, limit: 20, total: 0, pages: 1 } } },
      { type: "xstate.error.actor.fetchPage", error: { status: undefined, message: "Failed to fetch" } }
    ] as ReadonlyArray<EventObject>
  }

  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    /** This path's 25 rows share a prefix no other path uses; the list is searched for it. */
    readonly prefix: string
    /** Page loads the screen asked for, held until the step that decides their answer. */
    readonly held: Array<{ readonly route: Route; readonly request: Request }>
    requests: number
  }

  const path = "/api/admin/addresses/generated"
  const table = (run: Run) => run.page.getByRole("table", { name: "Generated Addresses" })
  /** The list's table frame says whether a page is on its way (aria-busy). */
  const busy = (run: Run) => run.page.locator("[aria-busy]").first().getAttribute("aria-busy")
  const nextHeld = (run: Run) => firstHeld(run.held)
  const newestHeld = async (run: Run) => {
    const newest = await nextHeld(run)
    const all = [newest, ...run.held.splice(0)]
    for (const older of all.slice(0, -1)) await older.route.continue()
    return all.at(-1) as { readonly route: Route; readonly request: Request }
  }
  const shownIdentifiers = (run: Run) =>
    table(run).locator("tbody tr").evaluateAll((rows) => rows.map((row) => row.querySelector("td")?.textContent ?? ""))
  /** What the server answers for the query the address bar shows. */
  const serverIdentifiers = async (run: Run) => {
    const url = new URL(run.page.url())
    const answer = await call(product.server.url, "GET", `${path}${url.search}`, { token })
    return (answer.body.data as { addresses: ReadonlyArray<{ identifier: string }> }).addresses.map((row) => row.identifier)
  }
  /** Each query is asked for once: the step's one request, and no second one behind it. */
  const oneRequest = (run: Run, before: number) => exactlyOneMore(run.page, () => run.requests, before)

  const driver: ScreenDriver<Run> = {
    open: async (modelPath) => {
      const { context, page, errors } = await pathPage()
      const prefix = `list-model-${++counter}-`
      const arrivedFirst = (modelPath.input as { page?: unknown }).page !== undefined
      for (let index = 1; index <= 25; index++) {
        const made = await call(product.server.url, "POST", path, { token, body: { identifier: `${prefix}${String(index).padStart(2, "0")}`, Name: `List row ${index}` } })
        expect(made.status).toBe(200)
      }
      const run: Run = { context, page, errors, prefix, held: [], requests: 0 }
      await page.route(`**${path}?**`, (route, request) => {
        run.requests++
        // Start-up's request for the first page is answered at once when the path starts with it.
        if (arrivedFirst && run.requests === 1) void route.continue()
        else run.held.push({ route, request })
      })
      const codeWasHeld = arrivedFirst
        ? await holdStartChunk(page, page.waitForResponse((answer) => new URL(answer.url()).pathname === path))
        : undefined
      await page.goto(`${product.server.url}/generated-addresses?search=${prefix}`)
      codeWasHeld?.()
      return run
    },
    close: closeRun,
    act: {
      LOAD: async (run, event) => {
        const query = (event as unknown as { query: { search: string; page: number } }).query
        const before = run.requests
        if (query.page === 2) await run.page.getByRole("navigation", { name: "Pages" }).getByRole("button", { name: "Next" }).click()
        else await run.page.getByRole("searchbox", { name: "Search addresses" }).fill(`${run.prefix}${query.search.replace("-", "")}`)
        await oneRequest(run, before)
      },
      RELOAD: async (run, _event, before) => {
        const requests = run.requests
        if (before.value === "failed") await run.page.getByRole("button", { name: "Retry" }).click()
        else {
          await run.page.keyboard.press("Control+k")
          await run.page.keyboard.type("Reload the addresses")
          await run.page.keyboard.press("Enter")
        }
        await oneRequest(run, requests)
      },
      // The answer that counts is the newest request's; older ones, given up by the screen, go through unheeded.
      "xstate.done.actor.fetchPage": async (run) => (await newestHeld(run)).route.continue(),
      "xstate.error.actor.fetchPage": async (run) => (await newestHeld(run)).route.abort("connectionfailed")
    },
    see: {
      loading: async (run, snapshot) => {
        const shown = (snapshot.context as { page: unknown }).page !== null
        if (!shown) await run.page.getByRole("status").getByText("Loading addresses...").waitFor()
        else {
          // The last page stays on screen while the next one loads.
          await expect.poll(() => busy(run)).toBe("true")
          expect((await shownIdentifiers(run)).length).toBeGreaterThan(0)
        }
      },
      ready: async (run) => {
        await expect.poll(() => busy(run)).toBe("false")
        await run.page.getByRole("alert").waitFor({ state: "detached" })
        // The rows are the server's answer for the query in the address bar.
        await expect.poll(() => shownIdentifiers(run)).toEqual(await serverIdentifiers(run))
      },
      failed: async (run, snapshot) => {
        await run.page.getByRole("alert").getByText("Could not load addresses").waitFor()
        await run.page.getByRole("button", { name: "Retry" }).waitFor()
        // A failure keeps what was shown.
        if ((snapshot.context as { page: unknown }).page !== null) expect((await shownIdentifiers(run)).length).toBeGreaterThan(0)
      }
    }
  }

  drivesEveryPath("list", model, listTable, driver)
})

describe("blog editor: generated paths on /blog/new and a post's edit screen", () => {
  interface EditorContext {
    readonly post: unknown
    readonly draft: { readonly title: string; readonly content: string; readonly status: string }
    readonly baseline: unknown
    readonly tab: string
    readonly errors: Record<string, string>
    readonly error: string | null
    readonly leaveTo: string | null
  }
  const contextOf = (snapshot: MachineSnapshot) => snapshot.context as EditorContext
  const dirtyOf = (context: EditorContext) => JSON.stringify(context.draft) !== JSON.stringify(context.baseline)
  const stored = {
    _id: "p", title: "TITLE", slug: "title", excerpt: "", content: "<p>Body</p>", featuredImage: "", categories: [], tags: [],
    status: "draft", publishedAt: null, scheduledAt: null, seoTitle: "", seoDescription: "", seoKeywords: [], isSponsored: false,
    isFeatured: false, isEditorsChoice: false, isTrending: false, isResearch: false, isReview: false, sponsorInfo: null, views: 0,
    readingTime: 1, author: { username: "Ada" }, createdAt: "2026-11-22T08:00:00.000Z", updatedAt: "2026-11-22T08:00:00.000Z", version: 1
  }
  const model: MachineModel<typeof blogEditorMachine> = {
    machine: blogEditorMachine,
    inputs: [{ post: null }, { post: stored }],
    actorIds: ["save"],
    // Told apart by what the guards read (valid, dirty) and what the screen shows differently
    // (a stored post or a new one, an error); the tab is one step away from anywhere.
    key: (snapshot) => {
      const context = contextOf(snapshot)
      const valid = context.draft.title.trim() !== "" && context.draft.content !== ""
      return JSON.stringify([snapshot.value, dirtyOf(context), valid, context.error !== null, context.post === null])
    },
    // The title and body are on the Content tab: a person types there only while it is shown.
    events: (snapshot) => [
      ...(contextOf(snapshot).tab === "content"
        ? [
          { type: "CHANGE", patch: { title: "  " } },
          { type: "CHANGE", patch: { title: "TITLE" } },
          ...(contextOf(snapshot).draft.content === "" ? [{ type: "CHANGE", patch: { content: "<p>Body</p>" } }] : [])
        ]
        : [{ type: "SET_TAB", tab: "content" }]),
      { type: "SET_TAB", tab: "settings" },
      { type: "SAVE" },
      { type: "PUBLISH" },
      { type: "LEAVE", to: "/blog" },
      { type: "CONFIRM_LEAVE" },
      { type: "STAY" },
      { type: "DISMISS_ERROR" },
      { type: "xstate.done.actor.save", output: { ...stored, version: 2 } },
      { type: "xstate.error.actor.save", error: { status: 409, message: "stale" } }
    ] as ReadonlyArray<EventObject>
  }

  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    /** What "TITLE" stands for on this path: a title (and so a slug) no other path uses. */
    readonly title: string
    /** The post this path edits, when it starts from a stored one. */
    readonly slug: string | null
    readonly held: Array<{ readonly route: Route; readonly request: Request }>
  }

  const heading = (run: Run, name: string) => run.page.getByRole("heading", { level: 1, name })
  const titleField = (run: Run) => run.page.getByLabel("Title", { exact: true })
  const nextHeld = (run: Run) => firstHeld(run.held)
  const serverPost = async (slug: string) => {
    const answer = await call(product.server.url, "GET", `/api/blog/posts/${slug}`, { token })
    return answer.status === 200 ? (answer.body as { post: { title: string; status: string; version: number } }).post : undefined
  }

  const driver: ScreenDriver<Run> = {
    open: async (path) => {
      const { context, page, errors } = await pathPage()
      const title = `Model post ${++counter}`
      let slug: string | null = null
      if ((path.input as { post: unknown }).post !== null) {
        const made = await call(product.server.url, "POST", "/api/blog/admin/posts", { token, body: { title, content: "<p>Body</p>", status: "draft" } })
        expect(made.status).toBe(200)
        slug = (made.body as { post: { slug: string } }).post.slug
      }
      const run: Run = { context, page, errors, title, slug, held: [] }
      await page.route("**/api/blog/admin/posts**", (route, request) =>
        request.method() === "GET" ? void route.continue() : void run.held.push({ route, request }))
      await page.goto(`${product.server.url}${slug === null ? "/blog/new" : `/blog/${slug}/edit`}`)
      await heading(run, slug === null ? "Create New Post" : "Edit Post").waitFor()
      await run.page.getByRole("textbox", { name: "Content" }).waitFor()
      return run
    },
    close: closeRun,
    act: {
      SET_TAB: async (run, event) =>
        run.page.getByRole("tab", { name: (event as unknown as { tab: string }).tab === "settings" ? "Settings" : "Content" }).click(),
      CHANGE: async (run, event) => {
        const patch = (event as unknown as { patch: { title?: string; content?: string } }).patch
        if (patch.title !== undefined) await titleField(run).fill(patch.title === "TITLE" ? run.title : patch.title)
        else {
          await run.page.getByRole("textbox", { name: "Content" }).click()
          await run.page.keyboard.type("Body")
        }
      },
      SAVE: async (run) => run.page.getByRole("button", { name: "Save", exact: true }).click(),
      PUBLISH: async (run) => {
        await run.page.keyboard.press("Control+k")
        await run.page.keyboard.type("Publish")
        await run.page.getByRole("option").filter({ hasText: /^Publish/ }).first().waitFor()
        await run.page.keyboard.press("Enter")
      },
      LEAVE: async (run) => run.page.getByRole("button", { name: "Cancel" }).click(),
      CONFIRM_LEAVE: async (run) => run.page.getByRole("alertdialog").getByRole("button", { name: "Leave" }).click(),
      STAY: async (run) => run.page.getByRole("alertdialog").getByRole("button", { name: "Keep editing" }).click(),
      DISMISS_ERROR: async (run) => run.page.getByRole("alert").getByRole("button", { name: "Dismiss" }).click(),
      "xstate.done.actor.save": async (run) => (await nextHeld(run)).route.continue(),
      "xstate.error.actor.save": async (run, _event, before) => {
        const held = await nextHeld(run)
        if (contextOf(before).post === null) await held.route.abort("connectionfailed")
        else {
          // Someone else saves the post first: the screen's version is stale.
          const slug = decodeURIComponent(new URL(run.page.url()).pathname.split("/")[2] ?? "")
          const current = await serverPost(slug)
          const answer = await call(product.server.url, "PUT", `/api/blog/admin/posts/${slug}`, {
            token, body: { title: current?.title ?? run.title, content: "<p>Body elsewhere</p>", status: "draft", version: current?.version }
          })
          expect(answer.status).toBe(200)
          await held.route.continue()
        }
      }
    },
    see: {
      editing: async (run, snapshot, event) => {
        const context = contextOf(snapshot)
        await heading(run, context.post === null ? "Create New Post" : "Edit Post").waitFor()
        await run.page.getByRole("alertdialog").waitFor({ state: "detached" })
        await expect.poll(() => run.page.getByRole("tab", { name: context.tab === "settings" ? "Settings" : "Content" }).getAttribute("aria-selected")).toBe("true")
        const unsaved = run.page.getByText("Unsaved changes", { exact: true })
        await expect.poll(() => unsaved.isVisible()).toBe(dirtyOf(context))
        // The errors are on the Content tab: seen there, kept while another tab is shown.
        const shown = context.tab === "content" ? "visible" : "attached"
        if (context.errors.title !== undefined) await run.page.getByText("Title is required", { exact: true }).waitFor({ state: shown })
        if (context.errors.content !== undefined) await run.page.getByText("Content is required", { exact: true }).waitFor({ state: shown })
        if (context.error === null) await run.page.getByRole("alert").filter({ hasText: "Error saving post" }).waitFor({ state: "detached" })
        if (event?.type === "xstate.error.actor.save") {
          const expected = context.post === null
            ? "Error saving post: Failed to fetch"
            : "Error saving post: This post was changed by someone else. Reload and try again."
          await run.page.getByRole("alert").getByText(expected).waitFor()
        }
        if (event?.type === "xstate.done.actor.save") {
          // The server holds what was saved, at the address the screen moved to.
          // "Saved" shows on the same editor: the first save of a new post does not reopen it.
          await run.page.getByRole("status").filter({ hasText: /^Saved$/ }).waitFor()
          await run.page.waitForURL((url) => /^\/blog\/[^/]+\/edit$/.test(url.pathname))
          const slug = decodeURIComponent(new URL(run.page.url()).pathname.split("/")[2] ?? "")
          expect((await serverPost(slug))?.title).toBe(run.title)
        }
      },
      saving: async (run, snapshot) => {
        const saving = run.page.getByRole("button", { name: "Saving..." })
        await saving.waitFor()
        expect(await saving.isDisabled()).toBe(true)
        const held = await nextHeld(run)
        run.held.unshift(held)
        // What is sent is what the form shows, with the status a Publish asks for.
        expect(held.request.postDataJSON()).toMatchObject({ title: run.title, status: contextOf(snapshot).draft.status })
      },
      confirmingLeave: async (run) => {
        await run.page.getByRole("alertdialog").getByRole("heading", { name: "Leave without saving?" }).waitFor()
      },
      left: async (run) => {
        await run.page.waitForURL((url) => url.pathname === "/blog")
        await run.page.getByRole("heading", { level: 1, name: "Blog Management" }).waitFor()
      }
    }
  }

  drivesEveryPath("blog editor", model, blogEditorTable, driver, 600_000)
})

describe("listing moderation: generated paths on /communities", () => {
  // The model's listings stand for "the next pending card(s)": every change on screen takes fresh
  // pending cards, so each ACT is legal there as it is in the model.
  const one = [{ _id: "one", name: "one", status: "pending", version: 1 }]
  const two = [{ _id: "two-a", name: "two-a", status: "pending", version: 1 }, { _id: "two-b", name: "two-b", status: "pending", version: 1 }]
  const moved = { action: "approve", moves: [{ _id: "one", name: "one", from: "pending", to: "approved", version: 2, eventId: "1" }] }
  const model: MachineModel<typeof listingModerationMachine> = {
    machine: listingModerationMachine,
    actorIds: ["move", "undo"],
    key: (snapshot) => {
      const context = snapshot.context as { change: { listings: ReadonlyArray<unknown> } | null; done: unknown; error: unknown }
      return JSON.stringify([snapshot.value, context.change?.listings.length ?? 0, context.done !== null, context.error !== null])
    },
    events: () => [
      { type: "ACT", action: "approve", listings: one },
      { type: "ACT", action: "reject", listings: two },
      { type: "UNDO" },
      { type: "DISMISS" },
      { type: "xstate.after.undoWindow.listingModeration.undoable" },
      { type: "xstate.done.actor.move", output: moved },
      { type: "xstate.error.actor.move", error: { status: 409, message: "stale" } },
      { type: "xstate.done.actor.undo", output: {} },
      { type: "xstate.error.actor.undo", error: { status: 409, message: "changed" } }
    ] as ReadonlyArray<EventObject>
  }

  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    /** This path's listings share a prefix no other path uses; the screen is searched for it. */
    readonly prefix: string
    /** Writes the screen sent, held until the step that decides their answer. */
    readonly held: Array<{ readonly route: Route; readonly request: Request }>
    /** The cards the last change named, by name. */
    acted: ReadonlyArray<string>
    /** Their status before it. */
    from: string
  }

  const base = "/api/admin/communities"
  const cards = (run: Run) => run.page.getByRole("list", { name: "Community Management" }).getByRole("listitem")
  const card = (run: Run, name: string) => cards(run).filter({ has: run.page.getByText(name, { exact: true }) })
  const toast = (run: Run) => run.page.getByRole("status").filter({ hasText: "Undo" })
  const serverListings = async (run: Run) => {
    const answer = await call(product.server.url, "GET", `${base}/combined?search=${run.prefix}&limit=100`, { token })
    return (answer.body.data as { communities: ReadonlyArray<{ _id: string; name: string; status: string; version: number }> }).communities
  }
  const statusOnServer = async (run: Run, name: string) => (await serverListings(run)).find((listing) => listing.name === name)?.status
  /** The names of the first `count` cards the screen shows as pending, in order. */
  const pendingCards = async (run: Run, count: number) => {
    const names: Array<string> = []
    for (const item of await cards(run).all()) {
      if (await item.getByText("Pending", { exact: true }).count() > 0) names.push((await item.getAttribute("aria-label")) ?? (await item.locator("[aria-label]").first().getAttribute("aria-label")) ?? "")
      if (names.length === count) break
    }
    return names
  }
  /** Someone else changes a listing first: the screen's version is stale, so the server refuses. */
  const changeElsewhere = async (run: Run, name: string) => {
    const listing = (await serverListings(run)).find((found) => found.name === name)
    if (listing === undefined) throw new Error(`${name} is gone`)
    const answer = await call(product.server.url, "PUT", `${base}/${listing._id}`, { token, body: { name: listing.name, description: "Changed elsewhere", version: listing.version } })
    expect(answer.status).toBe(200)
  }
  const nextHeld = (run: Run) => firstHeld(run.held)
  const focusCard = async (run: Run, name: string) => {
    await card(run, name).focus()
  }

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await signedInContext()
      await context.clock.install()
      const prefix = `moderation-model-${++counter}-`
      for (let index = 1; index <= 12; index++) {
        const made = await call(product.server.url, "POST", base, { token, body: { name: `${prefix}${String(index).padStart(2, "0")}`, description: "A model listing" } })
        expect(made.status).toBe(200)
      }
      const run: Run = { context, page, errors, prefix, held: [], acted: [], from: "pending" }
      await page.route("**/api/admin/listings/**", (route, request) => void run.held.push({ route, request }))
      await page.goto(`${product.server.url}/communities?search=${prefix}`)
      await cards(run).nth(11).waitFor()
      return run
    },
    close: closeRun,
    act: {
      ACT: async (run, event) => {
        const { listings } = event as unknown as { listings: ReadonlyArray<unknown> }
        const names = await pendingCards(run, listings.length)
        run.acted = names
        run.from = "pending"
        await focusCard(run, names[0]!)
        if (names.length === 1) await run.page.keyboard.press("a")
        else {
          await run.page.keyboard.press("x")
          await run.page.keyboard.press("Shift+J")
          await run.page.getByText("2 selected").waitFor()
          await run.page.keyboard.press("r")
        }
      },
      UNDO: async (run) => {
        await focusCard(run, run.acted[0]!)
        await run.page.keyboard.press("z")
      },
      DISMISS: async (run, _event, before) => {
        const where = before.value === "failed" ? run.page.getByRole("alert") : toast(run)
        await where.getByRole("button", { name: "Dismiss" }).click()
      },
      "xstate.after.undoWindow.listingModeration.undoable": async (run) => run.context.clock.fastForward(10_000),
      "xstate.done.actor.move": async (run) => (await nextHeld(run)).route.continue(),
      "xstate.error.actor.move": async (run) => {
        const held = await nextHeld(run)
        await changeElsewhere(run, run.acted[0]!)
        await held.route.continue()
      },
      "xstate.done.actor.undo": async (run) => {
        for (const _name of run.acted) await (await nextHeld(run)).route.continue()
      },
      "xstate.error.actor.undo": async (run) => {
        const held = [] as Array<{ readonly route: Route; readonly request: Request }>
        for (const _name of run.acted) held.push(await nextHeld(run))
        await changeElsewhere(run, run.acted[0]!)
        for (const request of held) await request.route.continue()
      }
    },
    see: {
      idle: async (run, _snapshot, event) => {
        await toast(run).waitFor({ state: "detached" })
        await run.page.getByRole("alert").waitFor({ state: "detached" })
        if (event?.type === "xstate.done.actor.undo") {
          // Undone: each card is back where it was, on the server and on screen.
          for (const name of run.acted) {
            await expect.poll(() => statusOnServer(run, name)).toBe("pending")
            await card(run, name).getByText("Pending", { exact: true }).waitFor()
          }
        }
      },
      moving: async (run) => {
        // The change shows at once, before the server answers, and no other action is offered.
        const shown = run.acted.length === 1 ? "Approved" : "Rejected"
        for (const name of run.acted) {
          await card(run, name).getByText(shown, { exact: true }).waitFor()
          expect(await card(run, name).getByRole("button", { name: /^(Approve|Reject|Set Pending)$/ }).count()).toBe(0)
        }
        const held = await nextHeld(run)
        run.held.unshift(held)
        expect(held.request.url()).toContain(run.acted.length === 1 ? "/api/admin/listings/" : "/api/admin/listings/bulk")
      },
      undoable: async (run) => {
        const shown = run.acted.length === 1 ? "Approved" : "Rejected"
        await toast(run).getByText(run.acted.length === 1 ? `${shown} "${run.acted[0]}"` : `${shown} 2 listings`).waitFor()
        for (const name of run.acted) await expect.poll(() => statusOnServer(run, name)).toBe(shown.toLowerCase())
      },
      undoing: async (run) => {
        await toast(run).waitFor({ state: "detached" })
        const held = await nextHeld(run)
        run.held.unshift(held)
        expect(held.request.url()).toMatch(/\/undo$/)
      },
      failed: async (run, _snapshot, event) => {
        const text = event?.type === "xstate.error.actor.undo" ? "Failed to undo" : "Failed to update status"
        await run.page.getByRole("alert").filter({ hasText: text }).waitFor()
        if (event?.type === "xstate.error.actor.move") {
          // Rolled back: nothing moved on the server, and the cards show it.
          for (const name of run.acted) {
            expect(await statusOnServer(run, name)).toBe("pending")
            await card(run, name).getByText("Pending", { exact: true }).waitFor()
          }
        }
      }
    }
  }

  drivesEveryPath("listing moderation", model, listingModerationTable, driver)
})

describe("scam-report triage: generated paths on /scam-reports", () => {
  // Each SET names a report no earlier step named (the model's ids count up), as each key press
  // on screen takes the next untouched card: every SET is a change in both. While the details
  // are open the cards are behind the modal, so the paths set nothing and dismiss nothing then
  // (the machine allows it; tests/unit/scam-report-machine.test.ts takes those paths).
  const model: MachineModel<typeof scamReportMachine> = {
    machine: scamReportMachine,
    actorIds: ["change", "saveNotes"],
    key: (snapshot) => {
      const context = snapshot.context as { queue: ReadonlyArray<{ field: string }>; notesOf: unknown; error: unknown; notesError: unknown }
      // One change waiting or more than one (the re-entry), not which: the driver knows which it sent.
      return JSON.stringify([snapshot.value, Math.min(context.queue.length, 2), context.error !== null, context.notesError !== null])
    },
    events: (snapshot) => {
      const context = snapshot.context as { queue: ReadonlyArray<unknown>; answered: Record<string, unknown> }
      const open = (snapshot.value as { notes: string }).notes !== "closed"
      const serial = context.queue.length + Object.keys(context.answered).length
      const ref = (id: string) => ({ _id: id, status: "new", priority: "normal", adminNotes: "", version: 1 })
      const answer = { _id: "x", status: "resolved", priority: "normal", adminNotes: "", version: 2 }
      return [
        ...(open ? [] : [
          { type: "SET", change: { field: "status", value: "resolved", report: ref(`s${serial}`) } },
          { type: "SET", change: { field: "priority", value: "urgent", report: ref(`p${serial}`) } },
          { type: "DISMISS" }
        ]),
        { type: "OPEN_NOTES", report: ref("notes") },
        { type: "SAVE_NOTES", notes: "Checked" },
        { type: "CLOSE" },
        { type: "xstate.done.actor.change", output: answer },
        { type: "xstate.error.actor.change", error: { status: 409, message: "stale" } },
        { type: "xstate.done.actor.saveNotes", output: answer },
        { type: "xstate.error.actor.saveNotes", error: { status: 409, message: "stale" } }
      ] as ReadonlyArray<EventObject>
    }
  }

  interface Acted { readonly id: string; readonly field: "status" | "priority" }
  interface Held { readonly route: Route; readonly request: Request }
  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    /** Status and priority changes the screen sent, held until the step that decides their answer. */
    readonly heldChanges: Array<Held>
    /** Saves of the notes, likewise. */
    readonly heldNotes: Array<Held>
    /** Reports no step has touched yet, newest first (the screen's order). */
    readonly untouched: Array<string>
    /** The changes sent or waiting, in order, as the machine's queue has them. */
    queue: Array<Acted>
    /** The change whose refusal the last failure showed. */
    refused: Acted | null
    notesOf: string | null
  }

  const titleOf = (id: string) => `Report #${id.slice(-8)}`
  const card = (run: Run, id: string) => run.page.getByRole("list", { name: "Scam Reports Management", includeHidden: true }).getByRole("listitem", { includeHidden: true })
    .filter({ has: run.page.getByLabel(titleOf(id), { exact: true }) })
  const select = (run: Run, id: string, field: "status" | "priority") =>
    card(run, id).getByLabel(`${field === "status" ? "Status" : "Priority"} of ${titleOf(id)}`)
  /** The banner of a failed change (behind the details' modal when they are open). */
  const banner = (run: Run) => run.page.getByRole("alert", { includeHidden: true }).filter({ hasText: /Failed to update report/ })
  const onServer = async (id: string) =>
    ((await call(product.server.url, "GET", `/api/report-scam/${id}`, { token })).body.data as { report: { status: string; priority: string; adminNotes: string; version: number } }).report
  /** Someone else changes the report first: the screen's version is stale, so the server refuses. */
  const changeElsewhere = async (id: string) => {
    const report = await onServer(id)
    expect((await call(product.server.url, "PATCH", `/api/report-scam/${id}`, { token, body: { notes: `Elsewhere ${report.version}`, version: report.version } })).status).toBe(200)
  }
  const take = (run: Run) => {
    const id = run.untouched.shift()
    if (id === undefined) throw new Error("the path used every seeded report")
    return id
  }
  const press = async (run: Run, id: string, key: string) => {
    await card(run, id).focus()
    await run.page.keyboard.press(key)
  }
  const shownValue = (field: "status" | "priority") => (field === "status" ? "resolved" : "urgent")
  const formerValue = (field: "status" | "priority") => (field === "status" ? "new" : "normal")

  const seeChanges: Record<string, (run: Run, event: EventObject | undefined) => Promise<void>> = {
    idle: async (run) => {
      await banner(run).waitFor({ state: "detached" })
      // Nothing waits, and no change is on its way.
      await quiet(run.page)
      expect(run.heldChanges).toEqual([])
    },
    changing: async (run) => {
      // Every change made shows at once; the first is the one held before the server.
      for (const change of run.queue) await expect.poll(() => select(run, change.id, change.field).inputValue()).toBe(shownValue(change.field))
      const held = await firstHeld(run.heldChanges)
      run.heldChanges.unshift(held)
      expect(held.request.url()).toContain(run.queue[0]!.id)
      expect(JSON.parse(held.request.postData() ?? "{}")).toMatchObject(run.queue[0]!.field === "status" ? { status: "resolved" } : { priority: "urgent" })
    },
    failed: async (run) => {
      const refused = run.refused!
      await banner(run).filter({ hasText: refused.field === "status" ? "Failed to update report status" : "Failed to update report priority" }).waitFor({ state: "attached" })
      // Rolled back: the card shows what the server has, which the refused change did not touch.
      const server = await onServer(refused.id)
      expect(server[refused.field]).toBe(formerValue(refused.field))
      await expect.poll(() => select(run, refused.id, refused.field).inputValue()).toBe(formerValue(refused.field))
    }
  }
  const seeNotes: Record<string, (run: Run, event: EventObject | undefined) => Promise<void>> = {
    closed: async (run, event) => {
      await run.page.getByRole("dialog").waitFor({ state: "detached" })
      if (event?.type === "xstate.done.actor.saveNotes") {
        await expect.poll(async () => (await onServer(run.notesOf!)).adminNotes).toBe("Checked")
        run.notesOf = null
      }
      expect(run.heldNotes).toEqual([])
    },
    open: async (run, event) => {
      const dialog = run.page.getByRole("dialog")
      await dialog.getByText(titleOf(run.notesOf!)).first().waitFor()
      if (event?.type === "xstate.error.actor.saveNotes") await dialog.getByRole("alert").filter({ hasText: "Failed to add admin notes" }).waitFor()
      else expect(await dialog.getByRole("alert").count()).toBe(0)
    },
    saving: async (run) => {
      await run.page.getByRole("dialog").getByRole("button", { name: "Saving…" }).waitFor()
      const held = await firstHeld(run.heldNotes)
      run.heldNotes.unshift(held)
      expect(JSON.parse(held.request.postData() ?? "{}")).toMatchObject({ notes: "Checked" })
    }
  }

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await pathPage()
      const marker = `triage-model-${++counter}`
      // Seeded in one statement (the public POST is tested elsewhere), newest first as the screen lists them.
      const rows = await product.server.sql(Effect.flatMap(SqlClient, (sql) => sql<{ id: string }>`
        INSERT INTO scam_reports (id, scam_type, description, created_at)
        SELECT gen_random_uuid(), 'other', ${marker} || ' ' || i, now() - make_interval(secs => i)
        FROM generate_series(1, 14) AS i RETURNING id::text AS id`))
      const run: Run = { context, page, errors, heldChanges: [], heldNotes: [], untouched: rows.map((row) => row.id), queue: [], refused: null, notesOf: null }
      const ids = run.untouched.slice()
      await page.route("**/api/report-scam/*", (route, request) => {
        if (request.method() !== "PATCH") return route.continue()
        const notes = (JSON.parse(request.postData() ?? "{}") as { notes?: unknown }).notes !== undefined
        ;(notes ? run.heldNotes : run.heldChanges).push({ route, request })
      })
      await page.goto(`${product.server.url}/scam-reports?search=${marker}`)
      await card(run, ids[0]!).waitFor()
      return run
    },
    close: closeRun,
    act: {
      SET: async (run, event) => {
        const field = (event as unknown as { change: { field: "status" | "priority" } }).change.field
        const id = take(run)
        run.queue.push({ id, field })
        await press(run, id, field === "status" ? "3" : "Shift+Digit4")
      },
      OPEN_NOTES: async (run) => {
        const id = take(run)
        run.notesOf = id
        await press(run, id, "n")
      },
      SAVE_NOTES: async (run) => {
        await run.page.getByLabel("Admin Notes").fill("Checked")
        await run.page.getByRole("dialog").getByRole("button", { name: "Save notes" }).click()
      },
      CLOSE: async (run) => {
        await run.page.getByRole("dialog").getByRole("button", { name: "Close" }).click()
        run.notesOf = null
      },
      DISMISS: async (run) => banner(run).getByRole("button", { name: "Dismiss" }).click(),
      "xstate.done.actor.change": async (run) => {
        run.queue.shift()
        await (await firstHeld(run.heldChanges)).route.continue()
      },
      "xstate.error.actor.change": async (run) => {
        const held = await firstHeld(run.heldChanges)
        run.refused = run.queue[0]!
        // The rest of the queue is dropped by the screen: their requests are never sent.
        run.queue = []
        await changeElsewhere(run.refused.id)
        await held.route.continue()
      },
      "xstate.done.actor.saveNotes": async (run) => (await firstHeld(run.heldNotes)).route.continue(),
      "xstate.error.actor.saveNotes": async (run) => {
        const held = await firstHeld(run.heldNotes)
        await changeElsewhere(run.notesOf!)
        await held.route.continue()
      }
    },
    // Each combination of the two regions: the changes' banner and cards, then the details.
    see: Object.fromEntries(Object.keys(seeChanges).flatMap((changes) => Object.keys(seeNotes).map((notes) => [
      `changes.${changes}|notes.${notes}`,
      async (run: Run, _snapshot: MachineSnapshot, event: EventObject | undefined) => {
        await seeChanges[changes]!(run, event)
        await seeNotes[notes]!(run, event)
      }
    ])))
  }

  drivesEveryPath("scam-report triage", model, scamReportTable, driver)
})

describe("inquiry: generated paths on /advertising-inquiries", () => {
  // The model's two inquiries stand for a pending one and a contacted one on the screen: each
  // path seeds its own, so every move the model makes is legal there as it is in the model.
  const pending = { _id: "pending", companyName: "pending", status: "pending", adminNotes: "", version: 1 }
  const contacted = { _id: "contacted", companyName: "contacted", status: "contacted", adminNotes: "", version: 2 }
  const model: MachineModel<typeof inquiryMachine> = {
    machine: inquiryMachine,
    actorIds: ["update"],
    key: (snapshot) => {
      const context = snapshot.context as { inquiry: { _id: string; version: number } | null; error: unknown }
      // Which inquiry is open, whether another admin's copy replaced it, whether a failure shows; notes change within a state (EDIT), covered once.
      return JSON.stringify([snapshot.value, context.inquiry?._id ?? null, (context.inquiry?.version ?? 0) > 2, context.error !== null])
    },
    events: (snapshot) => {
      const context = snapshot.context as { inquiry: { _id: string; version: number } | null }
      return [
        { type: "OPEN", inquiry: pending },
        { type: "OPEN", inquiry: contacted },
        // Two texts: whichever notes a state was reached with, one of them is a change.
        { type: "EDIT", notes: "Called on Monday" },
        { type: "EDIT", notes: "Sent the deck" },
        { type: "MOVE", status: "contacted" },
        { type: "MOVE", status: "converted" },
        { type: "CLOSE" },
        { type: "DISMISS" },
        // Another admin changes the open inquiry: the screen hears it and takes the newer copy.
        ...(context.inquiry === null ? [] : [{ type: "REFRESH", inquiry: { ...(context.inquiry._id === "pending" ? pending : contacted), version: 9 } }]),
        { type: "xstate.done.actor.update", output: { ...pending, status: "contacted", version: 2 } },
        { type: "xstate.error.actor.update", error: { status: 409, message: "stale" } }
      ] as ReadonlyArray<EventObject>
    }
  }

  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    /** The screen's inquiries by the model's names. */
    readonly ids: Readonly<Record<"pending" | "contacted", string>>
    readonly names: Readonly<Record<"pending" | "contacted", string>>
    readonly held: Array<{ readonly route: Route; readonly request: Request }>
    open: "pending" | "contacted" | null
    /** The notes typed in the modal now. */
    notes: string
    /** The status the last move asked for, and its notes. */
    asked: { readonly status: string; readonly notes: string } | null
  }

  const card = (run: Run, which: "pending" | "contacted") => run.page.getByRole("list", { name: "Advertising Inquiries", includeHidden: true })
    .getByRole("listitem", { includeHidden: true }).filter({ hasText: run.names[which] })
  const onServer = async (run: Run, which: "pending" | "contacted") =>
    ((await call(product.server.url, "GET", `/api/advertising-inquiries/${run.ids[which]}`, { token })).body.data as { inquiry: { status: string; adminNotes: string; version: number } }).inquiry
  /** Another admin saves notes on it: a newer version, the same status. */
  const changeElsewhere = async (run: Run, which: "pending" | "contacted") => {
    const inquiry = await onServer(run, which)
    const answer = await call(product.server.url, "PUT", `/api/advertising-inquiries/${run.ids[which]}`, {
      token, body: { status: inquiry.status, adminNotes: `elsewhere ${inquiry.version}`, version: inquiry.version }
    })
    expect(answer.status).toBe(200)
  }
  const dialog = (run: Run) => run.page.getByRole("dialog")
  const moveLabel = (status: string) => (status === "contacted" ? "Mark as Contacted" : status === "converted" ? "Mark Converted" : "Reject")

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await pathPage()
      const marker = `inquiry-model-${++counter}`
      const make = async (name: string) => {
        const answer = await call(product.server.url, "POST", "/api/advertising-inquiries", { ip: freshIp(), body: { companyName: name, contactName: "A", email: "a@example.com", industry: "Other" } })
        return (answer.body.data as { _id: string })._id
      }
      const names = { pending: `${marker} pending`, contacted: `${marker} contacted` }
      const ids = { pending: await make(names.pending), contacted: await make(names.contacted) }
      expect((await call(product.server.url, "PUT", `/api/advertising-inquiries/${ids.contacted}`, { token, body: { status: "contacted", version: 1 } })).status).toBe(200)
      const run: Run = { context, page, errors, ids, names, held: [], open: null, notes: "", asked: null }
      await page.route("**/api/advertising-inquiries/*", (route, request) => request.method() === "PUT" ? void run.held.push({ route, request }) : route.continue())
      await page.goto(`${product.server.url}/advertising-inquiries?search=${marker}`)
      await card(run, "contacted").waitFor()
      await card(run, "pending").waitFor()
      return run
    },
    close: closeRun,
    act: {
      OPEN: async (run, event) => {
        const which = (event as unknown as { inquiry: { _id: "pending" | "contacted" } }).inquiry._id
        run.open = which
        const server = await onServer(run, which)
        run.notes = server.adminNotes
        await card(run, which).getByRole("button", { name: "View" }).click()
      },
      EDIT: async (run, event) => {
        run.notes = (event as unknown as { notes: string }).notes
        await dialog(run).getByLabel("Admin Notes").fill(run.notes)
      },
      MOVE: async (run, event) => {
        const status = (event as unknown as { status: string }).status
        run.asked = { status, notes: run.notes }
        await dialog(run).getByRole("button", { name: moveLabel(status) }).click()
      },
      CLOSE: async (run) => {
        await dialog(run).getByRole("button", { name: "Close" }).click()
        run.open = null
      },
      DISMISS: async (run) => run.page.getByRole("status").filter({ hasText: /^(Contacted|Converted|Rejected): / }).getByRole("button", { name: "Dismiss" }).click(),
      REFRESH: async (run) => {
        const before = (await onServer(run, run.open!)).version
        await changeElsewhere(run, run.open!)
        // The screen reloads on the notice (the card shows the other admin's notes); a move made now names the new version.
        await card(run, run.open!).getByText(`Notes: elsewhere ${before}`).waitFor({ state: "attached" })
      },
      "xstate.done.actor.update": async (run) => (await firstHeld(run.held)).route.continue(),
      "xstate.error.actor.update": async (run) => {
        const held = await firstHeld(run.held)
        await changeElsewhere(run, run.open!)
        await held.route.continue()
      }
    },
    see: {
      closed: async (run) => {
        await dialog(run).waitFor({ state: "detached" })
        await quiet(run.page)
        expect(run.held).toEqual([])
      },
      viewing: async (run) => {
        await dialog(run).getByRole("heading", { name: run.names[run.open!] }).waitFor()
        expect(await dialog(run).getByLabel("Admin Notes").inputValue()).toBe(run.notes)
        const server = await onServer(run, run.open!)
        // The buttons are the funnel's next steps from the status it has.
        const expected = server.status === "contacted" ? ["Mark Converted", "Reject"] : ["Mark as Contacted"]
        await expect.poll(async () => (await dialog(run).getByRole("button").allTextContents()).filter((text) => /^(Mark|Reject)/.test(text))).toEqual(expected)
        expect(await dialog(run).getByRole("alert").count()).toBe(0)
      },
      updating: async (run) => {
        await dialog(run).getByRole("button", { name: "Updating..." }).waitFor()
        const held = await firstHeld(run.held)
        run.held.unshift(held)
        expect(JSON.parse(held.request.postData() ?? "{}")).toMatchObject({ status: run.asked!.status, adminNotes: run.asked!.notes })
      },
      failed: async (run) => {
        await dialog(run).getByRole("alert").filter({ hasText: "Failed to update inquiry" }).waitFor()
        expect(await dialog(run).getByLabel("Admin Notes").inputValue()).toBe(run.notes)
        // Refused: the server still has the status the move was made from.
        expect((await onServer(run, run.open!)).status).not.toBe(run.asked!.status)
      },
      done: async (run) => {
        const company = run.names[run.open!]
        const label = run.asked!.status === "contacted" ? "Contacted" : run.asked!.status === "converted" ? "Converted" : "Rejected"
        await run.page.getByRole("status").filter({ hasText: `${label}: ${company}` }).waitFor()
        await dialog(run).waitFor({ state: "detached" })
        expect(await onServer(run, run.open!)).toMatchObject({ status: run.asked!.status, adminNotes: run.asked!.notes })
        run.open = null
        run.notes = ""
      }
    }
  }

  drivesEveryPath("inquiry", model, inquiryTable, driver)
})
