import type { BrowserContext, Page, Request, Route } from "playwright-core"
import { describe, expect } from "vitest"
import type { EventObject } from "xstate"
import { listingModerationMachine } from "../../machines/listing-moderation.ts"
import { listingModerationTable } from "../spec/machine-tables.ts"
import { call } from "../support/http.ts"
import { drivesEveryPath, type MachineModel, type ScreenDriver } from "../support/screen-model.ts"
import { product, token, nextNumber, signedInContext, firstHeld, closeRun, pathHarness } from "../support/machine-screens.ts"

pathHarness()

/**
 * The listing moderation machine's generated paths, executed on the real screen in Chromium against the real
 * server (docs/testing.md, "Machines"), on the shared harness (tests/support/machine-screens.ts).
 */
describe("listing moderation: generated paths on /communities", () => {
  // The model's listings stand for "the next pending card(s)": every change on screen takes fresh
  // pending cards, so each ACT is legal there as it is in the model. The model's command ids are
  // its own; on screen each change is the command the console made for it.
  const one = [{ _id: "one", name: "one", status: "pending", version: 1 }]
  const two = [
    { _id: "two-a", name: "two-a", status: "pending", version: 1 },
    { _id: "two-b", name: "two-b", status: "pending", version: 1 }
  ]
  const model: MachineModel<typeof listingModerationMachine> = {
    machine: listingModerationMachine,
    actorIds: [],
    key: (snapshot) => {
      const context = snapshot.context as { done: { commandId: string } | null; undone: unknown }
      return JSON.stringify([snapshot.value, context.done?.commandId ?? null, context.undone !== null])
    },
    events: () =>
      [
        { type: "ACT", action: "approve", listings: one, commandId: "one" },
        { type: "ACT", action: "reject", listings: two, commandId: "two" },
        { type: "UNDO" },
        { type: "DISMISS" },
        // The server refuses the change just made (a colleague edited the listing first).
        { type: "REFUSED", commandId: "one" },
        { type: "xstate.after.undoWindow.listingModeration.undoable" },
        { type: "xstate.after.undoWindow.listingModeration.undone" }
      ] as ReadonlyArray<EventObject>
  }

  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    /** This path's listings share a prefix no other path uses; the screen is searched for it. */
    readonly prefix: string
    /** Writes the screen sent, held until a step lets them through. */
    readonly held: Array<{ readonly route: Route; readonly request: Request }>
    /** The cards the last change named, by name, and the status they had before it. */
    acted: ReadonlyArray<string>
  }

  const base = "/api/admin/communities"
  const cards = (run: Run) => run.page.getByRole("list", { name: "Community Management" }).getByRole("listitem")
  const card = (run: Run, name: string) => cards(run).filter({ has: run.page.getByText(name, { exact: true }) })
  const toast = (run: Run) => run.page.getByRole("status").filter({ has: run.page.getByRole("button", { name: "Undo (z)" }) })
  const undoneNotice = (run: Run) => run.page.getByRole("status").filter({ hasText: "Undone:" })
  const serverListings = async (run: Run) => {
    const answer = await call(product.server.url, "GET", `${base}/combined?search=${run.prefix}&limit=100`, { token })
    return (answer.body.data as { communities: ReadonlyArray<{ _id: string; name: string; status: string; version: number }> }).communities
  }
  const statusOnServer = async (run: Run, name: string) => (await serverListings(run)).find((listing) => listing.name === name)?.status
  /** The names of the first `count` cards the screen shows as pending, in order. */
  const pendingCards = async (run: Run, count: number) => {
    const names: Array<string> = []
    for (const item of await cards(run).all()) {
      if ((await item.getByText("Pending", { exact: true }).count()) > 0)
        names.push((await item.getAttribute("aria-label")) ?? (await item.locator("[aria-label]").first().getAttribute("aria-label")) ?? "")
      if (names.length === count) break
    }
    return names
  }
  /** Lets every held write through, and those it sends after (an undo goes once its change is answered). */
  const releaseAll = async (run: Run) => {
    for (;;) {
      const next = run.held.shift() ?? (await Promise.race([firstHeld(run.held), new Promise<undefined>((resolve) => setTimeout(resolve, 700))]))
      if (next === undefined) return
      await next.route.continue()
    }
  }
  const focusCard = async (run: Run, name: string) => {
    await card(run, name).focus()
  }

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await signedInContext()
      await context.clock.install()
      const prefix = `moderation-model-${nextNumber()}-`
      for (let index = 1; index <= 12; index++) {
        const made = await call(product.server.url, "POST", base, {
          token,
          body: { name: `${prefix}${String(index).padStart(2, "0")}`, description: "A model listing" }
        })
        expect(made.status).toBe(200)
      }
      const run: Run = { context, page, errors, prefix, held: [], acted: [] }
      await page.route("**/api/admin/listings/**", (route, request) =>
        request.method() === "GET" ? void route.continue() : void run.held.push({ route, request })
      )
      await page.goto(`${product.server.url}/communities?search=${prefix}`)
      await cards(run).nth(11).waitFor()
      // The console's client (its store and outbox) is open once the first screen is quiet.
      await page.locator(".sync-status").waitFor({ state: "attached" })
      return run
    },
    close: closeRun,
    act: {
      ACT: async (run, event) => {
        const { listings } = event as unknown as { listings: ReadonlyArray<unknown> }
        const names = await pendingCards(run, listings.length)
        run.acted = names
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
        const where = before.value === "undone" ? undoneNotice(run) : toast(run)
        await where.getByRole("button", { name: "Dismiss" }).click()
      },
      REFUSED: async (run) => {
        // The change waits in the outbox behind the held writes; a colleague edits its listing
        // first, and the change goes out at the version the person saw.
        const [name] = run.acted
        const listing = (await serverListings(run)).find((found) => found.name === name)
        if (listing === undefined) throw new Error(`${name} is gone`)
        const edited = await call(product.server.url, "PUT", `${base}/${listing._id}`, {
          token,
          body: { name: listing.name, description: "Changed elsewhere", version: listing.version }
        })
        expect(edited.status).toBe(200)
        await releaseAll(run)
        await run.page.getByRole("alert").filter({ hasText: "Failed to update status" }).waitFor()
      },
      "xstate.after.undoWindow.listingModeration.undoable": async (run) => run.context.clock.fastForward(10_000),
      "xstate.after.undoWindow.listingModeration.undone": async (run) => run.context.clock.fastForward(10_000)
    },
    see: {
      idle: async (run) => {
        await toast(run).waitFor({ state: "detached" })
        await undoneNotice(run).waitFor({ state: "detached" })
      },
      undone: async (run) => {
        // Undone, and said: each card is back where it was on screen at once, and on the server
        // once the change and its undo have gone out, in that order.
        const what = run.acted.length === 1 ? `Approved "${run.acted[0]}"` : "Rejected 2 listings"
        await undoneNotice(run)
          .filter({ hasText: `Undone: ${what}, back to Pending` })
          .waitFor()
        await toast(run).waitFor({ state: "detached" })
        for (const name of run.acted) await card(run, name).getByText("Pending", { exact: true }).waitFor()
        await releaseAll(run)
        for (const name of run.acted) await expect.poll(() => statusOnServer(run, name)).toBe("pending")
      },
      undoable: async (run) => {
        // The change shows at once, with its toast, before the server has it.
        const shown = run.acted.length === 1 ? "Approved" : "Rejected"
        await toast(run)
          .getByText(run.acted.length === 1 ? `${shown} "${run.acted[0]}"` : `${shown} 2 listings`)
          .waitFor()
        for (const name of run.acted) {
          await card(run, name).getByText(shown, { exact: true }).waitFor()
          expect(await statusOnServer(run, name)).toBe("pending")
        }
      }
    }
  }

  drivesEveryPath("listing moderation", model, listingModerationTable, driver)
})
