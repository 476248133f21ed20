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
  // pending cards, so each ACT is legal there as it is in the model.
  const one = [{ _id: "one", name: "one", status: "pending", version: 1 }]
  const two = [
    { _id: "two-a", name: "two-a", status: "pending", version: 1 },
    { _id: "two-b", name: "two-b", status: "pending", version: 1 }
  ]
  const moved = { action: "approve", moves: [{ _id: "one", name: "one", from: "pending", to: "approved", version: 2, eventId: "1" }] }
  const model: MachineModel<typeof listingModerationMachine> = {
    machine: listingModerationMachine,
    actorIds: ["move", "undo"],
    key: (snapshot) => {
      const context = snapshot.context as { change: { listings: ReadonlyArray<unknown> } | null; done: unknown; error: unknown }
      return JSON.stringify([snapshot.value, context.change?.listings.length ?? 0, context.done !== null, context.error !== null])
    },
    events: () =>
      [
        { type: "ACT", action: "approve", listings: one },
        { type: "ACT", action: "reject", listings: two },
        { type: "UNDO" },
        { type: "DISMISS" },
        { type: "xstate.after.undoWindow.listingModeration.undoable" },
        { type: "xstate.after.undoWindow.listingModeration.undone" },
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
  /** Someone else changes a listing first: the screen's version is stale, so the server refuses. */
  const changeElsewhere = async (run: Run, name: string) => {
    const listing = (await serverListings(run)).find((found) => found.name === name)
    if (listing === undefined) throw new Error(`${name} is gone`)
    const answer = await call(product.server.url, "PUT", `${base}/${listing._id}`, {
      token,
      body: { name: listing.name, description: "Changed elsewhere", version: listing.version }
    })
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
      const prefix = `moderation-model-${nextNumber()}-`
      for (let index = 1; index <= 12; index++) {
        const made = await call(product.server.url, "POST", base, {
          token,
          body: { name: `${prefix}${String(index).padStart(2, "0")}`, description: "A model listing" }
        })
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
        const where = before.value === "failed" ? run.page.getByRole("alert") : before.value === "undone" ? undoneNotice(run) : toast(run)
        await where.getByRole("button", { name: "Dismiss" }).click()
      },
      "xstate.after.undoWindow.listingModeration.undoable": async (run) => run.context.clock.fastForward(10_000),
      "xstate.after.undoWindow.listingModeration.undone": async (run) => run.context.clock.fastForward(10_000),
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
      idle: async (run) => {
        await toast(run).waitFor({ state: "detached" })
        await undoneNotice(run).waitFor({ state: "detached" })
        await run.page.getByRole("alert").waitFor({ state: "detached" })
      },
      undone: async (run) => {
        // Undone, and said: each card is back where it was, on the server and on screen.
        const what = run.acted.length === 1 ? `Approved "${run.acted[0]}"` : "Rejected 2 listings"
        await undoneNotice(run)
          .filter({ hasText: `Undone: ${what}, back to Pending` })
          .waitFor()
        await toast(run).waitFor({ state: "detached" })
        for (const name of run.acted) {
          await expect.poll(() => statusOnServer(run, name)).toBe("pending")
          await card(run, name).getByText("Pending", { exact: true }).waitFor()
        }
      },
      moving: async (run) => {
        // The change shows at once, before the server answers, and no other action is offered.
        const shown = run.acted.length === 1 ? "Approved" : "Rejected"
        for (const name of run.acted) {
          await card(run, name).getByText(shown, { exact: true }).waitFor()
          expect(
            await card(run, name)
              .getByRole("button", { name: /^(Approve|Reject|Set Pending)$/ })
              .count()
          ).toBe(0)
        }
        const held = await nextHeld(run)
        run.held.unshift(held)
        expect(held.request.url()).toContain(run.acted.length === 1 ? "/api/admin/listings/" : "/api/admin/listings/bulk")
      },
      undoable: async (run) => {
        const shown = run.acted.length === 1 ? "Approved" : "Rejected"
        await toast(run)
          .getByText(run.acted.length === 1 ? `${shown} "${run.acted[0]}"` : `${shown} 2 listings`)
          .waitFor()
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
