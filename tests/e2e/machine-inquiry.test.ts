import type { BrowserContext, Page, Request, Route } from "playwright-core"
import { describe, expect } from "vitest"
import type { EventObject } from "xstate"
import { inquiryMachine } from "../../machines/inquiry.ts"
import { inquiryTable } from "../spec/machine-tables.ts"
import { call, freshIp } from "../support/http.ts"
import { drivesEveryPath, type MachineModel, type ScreenDriver } from "../support/screen-model.ts"
import { product, token, nextNumber, quiet, firstHeld, pathPage, closeRun, pathHarness } from "../support/machine-screens.ts"
import { linkLive } from "../support/browser.ts"

pathHarness()

/**
 * The inquiry machine's generated paths, executed on the real screen in Chromium against the real
 * server (docs/testing.md, "Machines"), on the shared harness (tests/support/machine-screens.ts).
 */
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

  const card = (run: Run, which: "pending" | "contacted") =>
    run.page
      .getByRole("list", { name: "Advertising Inquiries", includeHidden: true })
      .getByRole("listitem", { includeHidden: true })
      .filter({ hasText: run.names[which] })
  const onServer = async (run: Run, which: "pending" | "contacted") =>
    (
      (await call(product.server.url, "GET", `/api/advertising-inquiries/${run.ids[which]}`, { token })).body.data as {
        inquiry: { status: string; adminNotes: string; version: number }
      }
    ).inquiry
  /** Another admin saves notes on it: a newer version, the same status. */
  const changeElsewhere = async (run: Run, which: "pending" | "contacted") => {
    const inquiry = await onServer(run, which)
    const answer = await call(product.server.url, "PUT", `/api/advertising-inquiries/${run.ids[which]}`, {
      token,
      body: { status: inquiry.status, adminNotes: `elsewhere ${inquiry.version}`, version: inquiry.version }
    })
    expect(answer.status).toBe(200)
  }
  const dialog = (run: Run) => run.page.getByRole("dialog")
  const moveLabel = (status: string) => (status === "contacted" ? "Mark as Contacted" : status === "converted" ? "Mark Converted" : "Reject")

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await pathPage()
      const marker = `inquiry-model-${nextNumber()}`
      const make = async (name: string) => {
        const answer = await call(product.server.url, "POST", "/api/advertising-inquiries", {
          ip: freshIp(),
          body: { companyName: name, contactName: "A", email: "a@example.com", industry: "Other" }
        })
        return (answer.body.data as { _id: string })._id
      }
      const names = { pending: `${marker} pending`, contacted: `${marker} contacted` }
      const ids = { pending: await make(names.pending), contacted: await make(names.contacted) }
      expect(
        (await call(product.server.url, "PUT", `/api/advertising-inquiries/${ids.contacted}`, { token, body: { status: "contacted", version: 1 } })).status
      ).toBe(200)
      const run: Run = { context, page, errors, ids, names, held: [], open: null, notes: "", asked: null }
      await page.route("**/api/advertising-inquiries/*", (route, request) =>
        request.method() === "PUT" ? void run.held.push({ route, request }) : route.continue()
      )
      await page.goto(`${product.server.url}/advertising-inquiries?search=${marker}`)
      await card(run, "contacted").waitFor()
      await card(run, "pending").waitFor()
      // Another admin's change arrives through the console's client once its stream is live
      // (docs/architecture.md, "The browser's store").
      await linkLive(page)
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
        await dialog(run)
          .getByRole("button", { name: moveLabel(status) })
          .click()
      },
      CLOSE: async (run) => {
        await dialog(run).getByRole("button", { name: "Close" }).click()
        run.open = null
      },
      DISMISS: async (run) =>
        run.page
          .getByRole("status")
          .filter({ hasText: /^(Contacted|Converted|Rejected): / })
          .getByRole("button", { name: "Dismiss" })
          .click(),
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
        await run.page
          .getByRole("status")
          .filter({ hasText: `${label}: ${company}` })
          .waitFor()
        await dialog(run).waitFor({ state: "detached" })
        expect(await onServer(run, run.open!)).toMatchObject({ status: run.asked!.status, adminNotes: run.asked!.notes })
        run.open = null
        run.notes = ""
      }
    }
  }

  drivesEveryPath("inquiry", model, inquiryTable, driver)
})
