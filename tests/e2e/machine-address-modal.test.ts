import type { BrowserContext, Page, Request, Route } from "playwright-core"
import { describe, expect } from "vitest"
import type { EventObject } from "xstate"
import { addressModalMachine } from "../../machines/address-modal.ts"
import { addressModalTable } from "../spec/machine-tables.ts"
import { linkLive } from "../support/browser.ts"
import { call } from "../support/http.ts"
import { openRecordTexts } from "../spec/texts.ts"
import { drivesEveryPath, type MachineModel, type MachineSnapshot, type ScreenDriver } from "../support/screen-model.ts"
import {
  product,
  token,
  nextNumber,
  firstHeld,
  pathPage,
  closeRun,
  pathHarness,
  serverFails,
  SERVER_FAILED,
  heardEverything
} from "../support/machine-screens.ts"

pathHarness()

/**
 * The address modal machine's generated paths, executed on the real screen in Chromium against the real
 * server (docs/testing.md, "Machines"), on the shared harness (tests/support/machine-screens.ts).
 */
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
    events: () =>
      [
        { type: "OPEN_ADD", required },
        { type: "OPEN_VIEW", address: placeholder, draft, required },
        { type: "OPEN_EDIT", address: placeholder, draft, required },
        { type: "OPEN_DELETE", address: placeholder, draft, required },
        // Someone else saves the address shown: the browser's store brings the newer copy.
        { type: "REFRESH", address: { ...placeholder, version: 2 }, draft },
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
  /**
   * The list reloads after a finished save or delete (the dialog's `reloadList`). Not "exactly
   * once": the store reads a list again for news of a record the rows shown lack (a new address
   * outside the search) once 400 ms pass with no read in flight, and on a loaded machine the
   * dialog's own read can start after that (docs/testing.md, "No test fails by chance"); the
   * list machine's paths (tests/e2e/machine-list.test.ts) count each read.
   */
  const reloaded = (run: Run, before: number) => expect.poll(() => run.listLoads, { timeout: 10_000 }).toBeGreaterThan(before)

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await pathPage()
      const number = nextNumber()
      const identifier = `model-row-${number}`
      const made = await call(product.server.url, "POST", path, { token, body: { identifier, Name: "Model row" } })
      expect(made.status).toBe(200)
      await heardEverything(page)
      const run: Run = {
        context,
        page,
        errors,
        row: { id: (made.body.data as { address: { _id: string } }).address._id, identifier },
        newIdentifier: `model-new-${number}`,
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
      // The rows can show before the store opens (start-up's page); the store opening reads a list
      // still waiting again. Live before the first step, as on the list's paths.
      await linkLive(page)
      return run
    },
    close: closeRun,
    act: {
      OPEN_ADD: async (run) => run.page.getByRole("button", { name: "Add Address" }).click(),
      OPEN_VIEW: async (run) => row(run).getByRole("button", { name: "View" }).click(),
      OPEN_EDIT: async (run) => row(run).getByRole("button", { name: "Edit" }).click(),
      OPEN_DELETE: async (run) => row(run).getByRole("button", { name: "Delete" }).click(),
      EDIT: async (run) => dialog(run).getByRole("button", { name: "Edit" }).click(),
      REFRESH: async (run) => changeElsewhere(run),
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
        await reloaded(run, loads)
      },
      "xstate.error.actor.save": async (run, _event, before) => {
        const held = await nextHeld(run)
        // A new address: the server fails. An edit: someone else saved first (409).
        if (isNew(before)) await serverFails(held.route)
        else {
          await changeElsewhere(run)
          await held.route.continue()
        }
      },
      "xstate.done.actor.remove": async (run) => {
        const loads = run.listLoads
        await (await nextHeld(run)).route.continue()
        await dialog(run).waitFor({ state: "detached" })
        await reloaded(run, loads)
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
          await expect.poll(() => serverRow(run, run.row.identifier)).toBeUndefined()
          await row(run).waitFor({ state: "detached" })
        }
      },
      viewing: async (run, _snapshot, event) => {
        await dialog(run).getByRole("heading", { name: "Address Details" }).waitFor()
        await dialog(run).getByText(run.row.identifier, { exact: true }).first().waitFor()
        if (event?.type === "REFRESH") {
          // The view shows the other admin's version, and says so.
          await dialog(run).getByText("Model row (elsewhere)", { exact: true }).waitFor()
          await dialog(run).getByRole("status").getByText(openRecordTexts.changed("address"), { exact: true }).waitFor()
        }
      },
      editing: async (run, snapshot, event) => {
        await dialog(run)
          .getByRole("heading", { name: isNew(snapshot) ? "Add Address" : "Edit Address" })
          .waitFor()
        const save = dialog(run).getByRole("button", { name: "Save" })
        const fillable = required.every((field) => (draftOf(snapshot)[field] ?? "").trim() !== "")
        await expect.poll(() => save.isEnabled()).toBe(fillable)
        if (event?.type === "xstate.error.actor.save") {
          await dialog(run)
            .getByRole("alert")
            // A new address says the server's own words (the spec's rule); an update names the failure.
            .getByText(isNew(snapshot) ? SERVER_FAILED : "Failed to update address")
            .waitFor()
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
