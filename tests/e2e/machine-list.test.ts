import type { BrowserContext, Page, Request, Route } from "playwright-core"
import { describe, expect } from "vitest"
import type { EventObject } from "xstate"
import { listMachine } from "../../machines/list.ts"
import { listTable } from "../spec/machine-tables.ts"
import { holdStartChunk, linkLive } from "../support/browser.ts"
import { call } from "../support/http.ts"
import { drivesEveryPath, type MachineModel, type ScreenDriver } from "../support/screen-model.ts"
import { product, token, nextNumber, firstHeld, exactlyOneMore, pathPage, closeRun, pathHarness, heardEverything } from "../support/machine-screens.ts"

pathHarness()

/**
 * The list machine's generated paths, executed on the real screen in Chromium against the real
 * server (docs/testing.md, "Machines"), on the shared harness (tests/support/machine-screens.ts).
 */
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
    events: (snapshot) =>
      [
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
    table(run)
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((row) => row.querySelector("td")?.textContent ?? ""))
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
      const prefix = `list-model-${nextNumber()}-`
      const arrivedFirst = (modelPath.input as { page?: unknown }).page !== undefined
      for (let index = 1; index <= 25; index++) {
        const made = await call(product.server.url, "POST", path, {
          token,
          body: { identifier: `${prefix}${String(index).padStart(2, "0")}`, Name: `List row ${index}` }
        })
        expect(made.status).toBe(200)
      }
      await heardEverything(page)
      const run: Run = { context, page, errors, prefix, held: [], requests: 0 }
      await page.route(`**${path}?**`, (route, request) => {
        run.requests++
        // Start-up's request for the first page is answered at once when the path starts with it.
        if (arrivedFirst && run.requests === 1) void route.continue()
        else run.held.push({ route, request })
      })
      const codeWasHeld = arrivedFirst
        ? await holdStartChunk(
            page,
            page.waitForResponse((answer) => new URL(answer.url()).pathname === path)
          )
        : undefined
      await page.goto(`${product.server.url}/generated-addresses?search=${prefix}`)
      codeWasHeld?.()
      // Live before the first step: a stream going live late retries a failed read by itself.
      await linkLive(page)
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
        // The step's answer is given; a read the store starts after it (the stream going live late
        // on a loaded machine reads the rows again) is not the model's and goes through.
        await expect
          .poll(async () => {
            for (const held of run.held.splice(0)) await held.route.continue()
            return busy(run)
          })
          .toBe("false")
        await run.page.getByRole("alert").waitFor({ state: "detached" })
        // The rows are the server's answer for the query in the address bar.
        await expect.poll(() => shownIdentifiers(run)).toEqual(await serverIdentifiers(run))
      },
      failed: async (run, snapshot) => {
        await run.page.getByRole("alert").getByText("Failed to fetch addresses").waitFor()
        await run.page.getByRole("button", { name: "Retry" }).waitFor()
        // A failure keeps what was shown.
        if ((snapshot.context as { page: unknown }).page !== null) expect((await shownIdentifiers(run)).length).toBeGreaterThan(0)
      }
    }
  }

  // KEPT is the browser's own IndexedDB answering, neither a person nor the network: no step can
  // hold it back, so these paths leave it out and tests/e2e/event-sourced.test.ts drives it through
  // the real screen (a queue seen before shows its kept rows while the server is held).
  drivesEveryPath(
    "list",
    model,
    listTable.filter((transition) => !transition.includes("KEPT")),
    driver
  )
})
