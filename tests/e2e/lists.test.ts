import { getShortestPaths } from "@xstate/graph"
import { initialTransition, transition } from "xstate"
import type { Page, Route } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { type ListContext, type ListEvent, type ListQuery, listMachine } from "../../machines/list.ts"
import { addressTexts as t } from "../spec/texts.ts"
import { blogTexts } from "../spec/texts.ts"
import { listTexts } from "../spec/texts.ts"
import { chromiumWithServer, newPage } from "../support/browser.ts"
import { csvObjects } from "../support/csv.ts"
import { call } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"

const product = chromiumWithServer()
let token: string
const TITLE = "Generated Addresses"
const LIST_PATH = "/api/admin/addresses/generated"

beforeAll(async () => {
  token = await signedInAs(product.server, "admin")
  for (let n = 1; n <= 45; n++) {
    const identifier = n <= 3 ? `pi-star-${n}` : `seed-${String(n).padStart(2, "0")}`
    const answer = await call(product.server.url, "POST", LIST_PATH, { token, body: { identifier, Name: `Seed ${n}`, Rank: n } })
    if (answer.status !== 200) throw new Error(answer.text)
  }
})

/** A page of the console with the admin's token stored, as after an earlier sign-in. */
const withStoredToken = async () => {
  const opened = await newPage(product.browser)
  await opened.context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
  return opened
}

const isListCall = (url: string) => new URL(url).pathname === LIST_PATH

describe("the list pattern in Chromium", () => {
  it("asks for each query once: the first page, a search, a page and back again", async () => {
    const { page, errors } = await withStoredToken()
    const asked: Array<string> = []
    page.on("request", (request) => isListCall(request.url()) && asked.push(new URL(request.url()).search))
    await page.goto(`${product.server.url}/generated-addresses`)
    await page.getByRole("table", { name: TITLE }).getByRole("row").nth(20).waitFor()
    await page.waitForTimeout(300)
    expect(asked).toEqual([""])

    await page.getByRole("searchbox", { name: t.searchLabel }).fill("seed")
    await page.waitForURL(/search=seed/)
    await page.waitForFunction(() => document.querySelector("[aria-busy]")?.getAttribute("aria-busy") === "false")
    await page.getByRole("button", { name: listTexts.next }).click()
    await page.getByText(listTexts.page(2, 3)).waitFor()
    expect(asked).toEqual(["", "?search=seed", "?search=seed&page=2"])
    expect(new URL(page.url()).search).toBe("?search=seed&page=2")

    await page.goBack()
    await page.getByText(listTexts.page(1, 3)).waitFor()
    await expect(page.getByRole("searchbox", { name: t.searchLabel }).inputValue()).resolves.toBe("seed")
    await page.goForward()
    await page.getByText(listTexts.page(2, 3)).waitFor()
    await page.waitForTimeout(300)
    expect(asked).toHaveLength(5)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("keeps the focused row focused when the list reloads under it", async () => {
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/generated-addresses?sort=rank&order=asc`)
    const rows = page.getByRole("table", { name: TITLE }).getByRole("row")
    await rows.nth(5).waitFor()
    await rows.nth(1).focus()
    await page.keyboard.press("j")
    await page.keyboard.press("j")
    await page.keyboard.press("ArrowDown")
    await expect(rows.nth(4).evaluate((row) => row === document.activeElement)).resolves.toBe(true)
    await page.keyboard.press("Control+k")
    await page.getByPlaceholder("Type a command or search…").fill("Reload the addresses")
    await page.keyboard.press("Enter")
    await page.waitForFunction(() => document.querySelector("[aria-busy]")?.getAttribute("aria-busy") === "false")
    await expect(rows.nth(4).evaluate((row) => row === document.activeElement)).resolves.toBe(true)
    await expect(rows.nth(4).innerText()).resolves.toContain("seed-04")
    await page.context().close()
  })

  it("exports what the filters match as a CSV file from the button and the palette", async () => {
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/generated-addresses?search=pi-star`)
    await page.getByRole("table", { name: TITLE }).getByRole("row").nth(3).waitFor()
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: listTexts.exportCsv }).click()])
    expect(download.suggestedFilename()).toMatch(/^generated-addresses-\d{4}-\d{2}-\d{2}\.csv$/)
    const text = await download.path().then((path) => import("node:fs").then((fs) => fs.readFileSync(path, "utf8")))
    expect(csvObjects(text).map((row) => row.identifier).sort()).toEqual(["pi-star-1", "pi-star-2", "pi-star-3"])

    await page.keyboard.press("Control+k")
    await page.getByPlaceholder("Type a command or search…").fill("Export addresses")
    const [again] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")])
    expect(csvObjects(await again.path().then((path) => import("node:fs").then((fs) => fs.readFileSync(path, "utf8"))))).toHaveLength(3)
    await page.context().close()
  })

  it("opens a post far down the blog list from its page", async () => {
    for (let n = 1; n <= 60; n++) {
      const published = new Date(Date.now() - n * 60_000).toISOString()
      const answer = await call(product.server.url, "POST", "/api/blog/admin/posts", {
        token,
        body: { title: `Archive post ${n}`, content: `<p>Body ${n}</p>`, status: "scheduled", scheduledAt: published }
      })
      if (answer.status !== 200) throw new Error(answer.text)
    }
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/blog?status=scheduled&page=3`)
    await page.getByText(listTexts.page(3, 3)).waitFor()
    const row = page.getByRole("row").filter({ hasText: "Archive post 55" })
    await row.focus()
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Edit Post" }).waitFor()
    await expect(page.getByLabel("Title").inputValue()).resolves.toBe("Archive post 55")
    await page.context().close()
  })
})

// ---------------------------------------------------------------------------
// Paths generated from the list machine, each event a person's action or the server's answer
// ---------------------------------------------------------------------------

const searches = ["pi-star"] as const
const queryOf = (search: string): ListQuery => ({ search, page: 1, sort: undefined, order: undefined, filters: {} })
const modelEvents: ReadonlyArray<{ readonly type: string; readonly [key: string]: unknown }> = [
  ...searches.map((search): ListEvent => ({ type: "LOAD", query: queryOf(search) })),
  { type: "RELOAD" },
  { type: "xstate.done.actor.fetchPage", output: { rows: [], pagination: { page: 1, limit: 20, total: 0, pages: 1 } } },
  { type: "xstate.error.actor.fetchPage", error: { status: undefined, message: "net::ERR_FAILED" } }
]

type ModelEvent = (typeof modelEvents)[number]

/** A snapshot as a person tells it apart: the state, whether rows are shown, the search. */
const serialize = (snapshot: { value: unknown; context: ListContext }) =>
  JSON.stringify([snapshot.value, snapshot.context.page === null, snapshot.context.query.search])

/** The (state, event, state) steps a path takes, replayed on the machine's pure transition function. */
const stepsOf = (events: ReadonlyArray<ModelEvent>): ReadonlyArray<string> => {
  let [snapshot] = initialTransition(listMachine, { query: queryOf("") })
  return events.filter((event) => event.type !== "xstate.init").map((event) => {
    const before = serialize(snapshot)
    ;[snapshot] = transition(listMachine, snapshot, event as never)
    return `${before} --${event.type}--> ${serialize(snapshot)}`
  })
}

/**
 * Shortest paths to each distinct snapshot, each extended by every event; then as few of them
 * as cover every step any of them takes (greedy), so each path in Chromium earns its time.
 */
const generatedPaths = () => {
  const shortest = getShortestPaths(listMachine, {
    input: { query: queryOf("") },
    events: modelEvents as never,
    serializeState: serialize as never
  }).map((path) => path.steps.map((step) => step.event as ModelEvent))
  const candidates = shortest.flatMap((events) => modelEvents.map((event) => [...events, event]))
  const uncovered = new Set(candidates.flatMap(stepsOf))
  const chosen: Array<ReadonlyArray<ModelEvent>> = []
  while (uncovered.size > 0) {
    const best = candidates
      .map((events) => ({ events, gain: stepsOf(events).filter((step) => uncovered.has(step)).length }))
      .sort((a, b) => b.gain - a.gain || a.events.length - b.events.length)[0]
    if (best === undefined || best.gain === 0) break
    chosen.push(best.events)
    for (const step of stepsOf(best.events)) uncovered.delete(step)
  }
  return { paths: chosen, steps: new Set(candidates.flatMap(stepsOf)).size }
}

/** The list's requests, held until the path says how the server answers. */
class HeldRequests {
  private readonly held: Array<Route> = []
  private waiters: Array<() => void> = []
  constructor(page: Page) {
    void page.route((url) => isListCall(url.toString()), (route) => {
      this.held.push(route)
      for (const wake of this.waiters) wake()
      this.waiters = []
    })
  }
  get count() {
    return this.held.length
  }
  async next(count: number) {
    while (this.held.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve))
  }
  /** The newest request gets `answer`; older ones (superseded) are let through and ignored. */
  async settle(answer: "continue" | "abort") {
    const newest = this.held.pop()
    for (const older of this.held.splice(0)) await older.continue()
    if (newest === undefined) throw new Error("no request in flight")
    await (answer === "continue" ? newest.continue() : newest.abort("failed"))
  }
}

/** What a person sees in each state of the list machine. */
const expectSeen = async (page: Page, seen: { state: string; pageShown: boolean }) => {
  const table = page.getByRole("table", { name: TITLE })
  const alert = page.getByRole("alert").filter({ hasText: `${t.loadFailed}:` })
  if (seen.state === "loading" && !seen.pageShown) {
    await page.getByRole("status").filter({ hasText: t.loading }).waitFor()
    await table.waitFor({ state: "detached" })
  }
  if (seen.state === "loading" && seen.pageShown) {
    await page.waitForFunction(() => document.querySelector("[aria-busy]")?.getAttribute("aria-busy") === "true")
  }
  if (seen.state === "ready") {
    await page.waitForFunction(() => document.querySelector("[aria-busy]")?.getAttribute("aria-busy") === "false")
    await alert.waitFor({ state: "detached" })
  }
  if (seen.state === "failed") {
    await alert.waitFor()
    await alert.getByRole("button", { name: listTexts.retry }).waitFor()
    await expect(table.count()).resolves.toBe(seen.pageShown ? 1 : 0)
  }
}

describe("list machine paths through the real screen", () => {
  const { paths, steps } = generatedPaths()

  it(`drives ${paths.length} generated paths covering all ${steps} steps, and sees every state`, { timeout: 240_000 }, async () => {
    const visited = new Set<string>()
    for (const events of paths) {
      const { page, errors } = await withStoredToken()
      const held = new HeldRequests(page)
      await page.goto(`${product.server.url}/generated-addresses`)
      let seen = { state: "loading", pageShown: false, search: "" }
      await held.next(1)
      await expectSeen(page, seen)
      for (const event of events) {
        if (event.type === "xstate.init") continue
        const before = held.count
        if (event.type === "LOAD") {
          const { search } = (event as Extract<ListEvent, { type: "LOAD" }>).query
          await page.getByRole("searchbox", { name: t.searchLabel }).fill(search)
          if (search !== seen.search) {
            await held.next(before + 1)
            seen = { ...seen, state: "loading", search }
          } else {
            await page.waitForTimeout(400)
            expect(held.count).toBe(before)
          }
        } else if (event.type === "RELOAD") {
          await page.keyboard.press("Control+k")
          await page.getByPlaceholder("Type a command or search…").fill("Reload the addresses")
          await page.keyboard.press("Enter")
          await held.next(before + 1)
          seen = { ...seen, state: "loading" }
        } else if (seen.state === "loading") {
          const ok = event.type === "xstate.done.actor.fetchPage"
          await held.settle(ok ? "continue" : "abort")
          seen = { ...seen, state: ok ? "ready" : "failed", pageShown: seen.pageShown || ok }
        } else continue
        await expectSeen(page, seen)
        visited.add(seen.state)
      }
      expect(errors).toEqual([])
      await page.context().close()
    }
    expect([...visited].sort()).toEqual(["failed", "loading", "ready"])
  })
})

describe("the blog list", () => {
  it("searches excerpts and tags as its placeholder says", async () => {
    const answer = await call(product.server.url, "POST", "/api/blog/admin/posts", {
      token,
      body: { title: "Tagged", excerpt: "about mainnet", content: "<p>x</p>", status: "draft", tags: ["kyc-news"] }
    })
    expect(answer.status).toBe(200)
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/blog`)
    const search = page.getByRole("searchbox", { name: blogTexts.searchLabel })
    await search.fill("kyc-news")
    await page.getByRole("row").filter({ hasText: "Tagged" }).waitFor()
    await search.fill("mainnet")
    await page.getByRole("row").filter({ hasText: "Tagged" }).waitFor()
    await page.context().close()
  })
})
