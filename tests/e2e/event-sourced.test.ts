import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Page, Route } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { chromiumWithServer, launchChromium, newPage, openSignedIn, linkLive, requestsInFlight } from "../support/browser.ts"
import { freePort } from "../support/nginx.ts"
import { signInFirstAdmin, startProduct } from "../support/product.ts"
import { browserEngines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"
import { LINK_RETRY_MS } from "../../machines/sync.ts"
import { linkTexts, listingTexts, listTexts, openRecordTexts } from "../spec/texts.ts"

/**
 * The console as an event-sourced client (docs/architecture.md, "The browser's store"),
 * on a moderation queue in Chromium against the real server: a decision shows the moment its key
 * is pressed, keys pressed while the server is slow all act, the link cut and back loses nothing,
 * a lost answer is sent again and applied once, a colleague's change arrives on the open queue,
 * a queue seen before shows at once, a refusal puts the card back and says why.
 */
describe.each(browserEngines)("the event-sourced console on $name", (engine) => {
  const product = chromiumWithServer(engine)
  let admin: string
  let colleague: string
  let serial = 0

  beforeAll(async () => {
    admin = await signedInAs(product.server, "admin")
    colleague = await signedInAs(product.server, "moderator")
  })

  interface Listing {
    readonly _id: string
    readonly name: string
    readonly status: string
    readonly version: number
  }

  /** `count` pending communities under a prefix no other test uses, named prefix-01… in the queue's order. */
  const seed = async (count: number) => {
    const prefix = `es-${engine.name}-${++serial}-`
    for (let index = 1; index <= count; index++) {
      const made = await call(product.server.url, "POST", "/api/admin/communities", {
        token: admin,
        body: { name: `${prefix}${String(index).padStart(2, "0")}`, description: "Waiting for a decision" }
      })
      expect(made.status, made.text).toBe(200)
    }
    return prefix
  }
  const onServer = async (prefix: string): Promise<ReadonlyArray<Listing>> => {
    const answer = await call(product.server.url, "GET", `/api/admin/communities/combined?search=${prefix}&limit=100`, { token: admin })
    return [...(answer.body.data as { communities: ReadonlyArray<Listing> }).communities].sort((a, b) => a.name.localeCompare(b.name))
  }
  /** An admin elsewhere edits the listing at the version it has: a change the console did not make. */
  const editElsewhere = async (listing: Listing) => {
    const edited = await call(product.server.url, "PUT", `/api/admin/communities/${listing._id}`, {
      token: admin,
      body: { name: listing.name, description: "Edited elsewhere", version: listing.version }
    })
    expect(edited.status, edited.text).toBe(200)
  }
  /** Each listing's status on the server, by name. */
  const statuses = async (prefix: string) => Object.fromEntries((await onServer(prefix)).map((listing) => [listing.name, listing.status]))
  const cards = (page: Page) => page.getByRole("list", { name: "Community Management" }).getByRole("listitem")
  const card = (page: Page, name: string) => cards(page).filter({ has: page.getByText(name, { exact: true }) })
  /** The cards in the order shown, each with the status it shows. */
  const shown = (page: Page) =>
    cards(page).evaluateAll((items) =>
      items.map((item) => {
        const text = item.textContent ?? ""
        return {
          name: item.querySelector("[aria-label]")?.getAttribute("aria-label") ?? "",
          status: /Approved/.test(text) ? "approved" : /Rejected/.test(text) ? "rejected" : "pending"
        }
      })
    )
  /** The statuses the cards show, by name. */
  const shownStatuses = async (page: Page) => Object.fromEntries((await shown(page)).map((one) => [one.name, one.status]))
  /** Names in the order shown, given statuses in that order. */
  const inOrder = (names: ReadonlyArray<string>, statusesInOrder: ReadonlyArray<string>) =>
    Object.fromEntries(names.map((name, at) => [name, statusesInOrder[at]]))
  const pendingCount = async (page: Page) =>
    Number((await page.getByRole("group", { name: "Listings by status" }).getByRole("button").nth(1).textContent())?.replace(/\D+/g, ""))
  /** The console's client is open (its status line is in the page) once the first screen is quiet. */
  const clientOpen = (page: Page) => page.locator(".sync-status").waitFor({ state: "attached" })
  const open = async (prefix: string, before?: (page: Page) => Promise<unknown>) => {
    const { page, errors } = await openSignedIn(product, admin, `/communities?search=${prefix}`, { before })
    await cards(page).first().waitFor()
    await clientOpen(page)
    return { page, errors }
  }
  const slowWrites = (page: Page, ms: number) =>
    page.route("**/api/admin/listings/**", async (route: Route) => {
      if (route.request().method() !== "GET") await new Promise((resolve) => setTimeout(resolve, ms))
      await route.continue()
    })

  it("applies five keys pressed 50 ms apart on a queue whose writes take 300 ms, each at once, each once", async () => {
    const prefix = await seed(8)
    const { page, errors } = await open(prefix)
    await slowWrites(page, 300)
    const before = await pendingCount(page)
    const names = (await shown(page)).map((one) => one.name)
    const decided = inOrder(names, [...Array(5).fill("approved"), ...Array(3).fill("pending")])
    await cards(page).first().focus()
    const sent: Array<string> = []
    page.on("request", (request) => void (request.method() === "PUT" && sent.push(request.headers()["idempotency-key"] ?? "")))
    for (let press = 0; press < 5; press++) {
      await page.keyboard.press("a")
      await page.waitForTimeout(50)
    }
    // Before the first write can have come back, all five show, and the count has moved.
    expect(await shownStatuses(page)).toEqual(decided)
    expect(await pendingCount(page)).toBe(before - 5)
    await page
      .getByRole("status")
      .getByText(/Saving \d changes?…/)
      .waitFor()
    await expect.poll(() => statuses(prefix), { timeout: 15_000 }).toEqual(decided)
    // Each decision made one version, sent with its own key.
    expect((await onServer(prefix)).map((listing) => listing.version).sort()).toEqual([1, 1, 1, 2, 2, 2, 2, 2])
    expect(new Set(sent).size).toBe(5)
    await page.getByText(/Saving \d changes?…/).waitFor({ state: "detached" })
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("keeps deciding with the link cut, says so with the count waiting, and sends them in order when it is back", async () => {
    const prefix = await seed(4)
    const { page, errors } = await open(prefix)
    const decided = inOrder(
      (await shown(page)).map((one) => one.name),
      ["approved", "rejected", "approved", "pending"]
    )
    await cards(page).first().focus()
    await page.context().setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await page.keyboard.press("a")
    await page.keyboard.press("r")
    await page.keyboard.press("a")
    await page.getByRole("status").getByText("3 changes are waiting: they are sent, in order, when the connection is back.").waitFor()
    expect(await shownStatuses(page)).toEqual(decided)
    expect(Object.values(await statuses(prefix))).toEqual(["pending", "pending", "pending", "pending"])
    await page.context().setOffline(false)
    await expect.poll(() => statuses(prefix), { timeout: 20_000 }).toEqual(decided)
    await page.getByText(linkTexts.offline).waitFor({ state: "detached" })
    expect(errors).toEqual([])
    await page.context().close()
  })

  // Away for a moment, and away past the console's own tries of the link (every LINK_RETRY_MS
  // offline): a try while the browser has no link is not the link back, and the link back is
  // heard after it.
  it.each([
    ["after a moment", 0],
    ["after longer than the console's own tries of the link", 2 * LINK_RETRY_MS]
  ])("reads a list that failed for the lost link again when the link is back %s, without Retry", async (_, away) => {
    const prefix = await seed(1)
    // The page's clock runs as ever; the absence is a jump of it, not a wait.
    let reads: ReturnType<typeof requestsInFlight> | undefined
    const { page, errors } = await open(prefix, (tab) => ((reads = requestsInFlight(tab)), tab.clock.install()))
    await page.context().setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Influencers" }).click()
    await page.getByRole("alert").filter({ hasText: "Failed to fetch influencers" }).waitFor()
    if (away > 0) {
      // Then past a list's wait before it reads again, and until what that asked for has answered.
      await page.clock.fastForward(away)
      await page.clock.fastForward(1_000)
      await reads?.quiet()
    }
    await page.context().setOffline(false)
    await page.getByRole("alert").filter({ hasText: "Failed to fetch influencers" }).waitFor({ state: "detached", timeout: 20_000 })
    await page.getByText(linkTexts.offline).waitFor({ state: "detached" })
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("runs one stream for the browser's tabs: both show a colleague's change, and the other tab leads once the first closes", async () => {
    const prefix = await seed(2)
    const first = await open(prefix)
    // The second tab's own streams (the first may reconnect its own meanwhile).
    const streams: Array<string> = []
    const second = await first.page.context().newPage()
    second.on("request", (request) => void (new URL(request.url()).pathname === "/api/admin/stream" && streams.push(request.url())))
    await second.goto(`${product.server.url}/communities?search=${prefix}`)
    await cards(second).first().waitFor()
    await clientOpen(second)
    await second.waitForTimeout(500)
    // The second tab listens through the first: it opened no stream of its own.
    expect(streams).toEqual([])
    const [one, two] = await onServer(prefix)
    const moved = await call(product.server.url, "PUT", `/api/admin/listings/${one!._id}`, { token: colleague, body: { action: "approve", version: 1 } })
    expect(moved.status, moved.text).toBe(200)
    for (const page of [first.page, second]) await card(page, one!.name).getByText("Approved", { exact: true }).waitFor()
    // The leader goes: the other tab takes the stream, from the store's last event.
    await first.page.close()
    await expect.poll(() => streams.length, { timeout: 10_000 }).toBeGreaterThan(0)
    const again = await call(product.server.url, "PUT", `/api/admin/listings/${two!._id}`, { token: colleague, body: { action: "reject", version: 1 } })
    expect(again.status, again.text).toBe(200)
    await card(second, two!.name).getByText("Rejected", { exact: true }).waitFor()
    expect(first.errors).toEqual([])
    await second.context().close()
  })

  it("sends a command again when its answer was lost, and the server applies it once", async () => {
    const prefix = await seed(2)
    const { page, errors } = await open(prefix)
    let first = true
    await page.route("**/api/admin/listings/**", async (route) => {
      if (route.request().method() !== "PUT" || !first) return route.continue()
      first = false
      // The server gets it and applies it; the answer never reaches the browser.
      await route.fetch()
      await route.abort("connectionfailed")
    })
    const [top] = await shown(page)
    await cards(page).first().focus()
    await page.keyboard.press("a")
    await expect.poll(async () => (await statuses(prefix))[top!.name], { timeout: 15_000 }).toBe("approved")
    // Sent again with the same key (the link tried again within 5 s): one version, one event.
    await page.getByText(/Saving \d changes?…|waiting: they are sent|The server can't be reached/).waitFor({ state: "detached", timeout: 15_000 })
    expect((await onServer(prefix)).map((listing) => listing.version).sort()).toEqual([1, 2])
    expect(await page.getByRole("alert").count()).toBe(0)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("shows a colleague's decision on the open queue without a reload, its count with it", async () => {
    const prefix = await seed(3)
    const { page, errors } = await open(prefix)
    const before = await pendingCount(page)
    const [target] = await onServer(prefix)
    const moved = await call(product.server.url, "PUT", `/api/admin/listings/${target!._id}`, { token: colleague, body: { action: "reject", version: 1 } })
    expect(moved.status, moved.text).toBe(200)
    await card(page, target!.name).getByText("Rejected", { exact: true }).waitFor()
    await expect.poll(() => pendingCount(page)).toBe(before - 1)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("shows a colleague's decision made between the first rows and the stream going live, on a first visit", async () => {
    const prefix = await seed(3)
    const [target] = await onServer(prefix)
    // The stream's request waits until the colleague has decided: from the server's now, it never carries that change.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const { page, errors } = await openSignedIn(product, admin, `/communities?search=${prefix}`, {
      before: (page) =>
        page.route("**/api/admin/stream", async (route) => {
          await held
          await route.continue()
        })
    })
    await cards(page).first().waitFor()
    const before = await pendingCount(page)
    const moved = await call(product.server.url, "PUT", `/api/admin/listings/${target!._id}`, { token: colleague, body: { action: "reject", version: 1 } })
    expect(moved.status, moved.text).toBe(200)
    release()
    await linkLive(page)
    await expect.poll(() => pendingCount(page), { timeout: 10_000 }).toBe(before - 1)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("shows a colleague's change in an open address, edits from it, and says when a form's record changed or went", async () => {
    const path = "/api/admin/addresses/generated"
    const identifier = `open-record-${engine.name}-${Date.now()}`
    const other = await signedInAs(product.server, "admin")
    const made = await call(product.server.url, "POST", path, { token: admin, body: { identifier, Name: "First name" } })
    expect(made.status, made.text).toBe(200)
    const id = (made.body.data as { address: { _id: string } }).address._id
    const change = async (Name: string, version: number) => {
      const answer = await call(product.server.url, "PUT", `${path}/${id}`, { token: other, body: { identifier, Name, version } })
      expect(answer.status, answer.text).toBe(200)
    }
    const { page, errors } = await openSignedIn(product, admin, `/generated-addresses?search=${identifier}`)
    const row = page.getByRole("table", { name: "Generated Addresses" }).getByRole("row").filter({ hasText: identifier })
    await row.waitFor()
    await linkLive(page)
    await row.getByRole("button", { name: "View" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByText("First name", { exact: true }).waitFor()
    // The view follows, says so, and its Edit starts from the colleague's version.
    await change("Second name", 1)
    await dialog.getByText("Second name", { exact: true }).waitFor()
    await dialog.getByRole("status").getByText(openRecordTexts.changed("address"), { exact: true }).waitFor()
    await dialog.getByRole("button", { name: "Edit" }).click()
    const name = dialog.locator('input[name="Name"]')
    expect(await name.inputValue()).toBe("Second name")
    expect(await dialog.getByText(openRecordTexts.changed("address"), { exact: true }).count()).toBe(0)
    // A form keeps what was typed and says a save would be refused; then that the address went.
    await name.fill("Mine")
    await change("Third name", 2)
    await dialog.getByRole("status").getByText(openRecordTexts.changedWhileEditing("address"), { exact: true }).waitFor()
    expect(await name.inputValue()).toBe("Mine")
    const gone = await call(product.server.url, "DELETE", `${path}/${id}?version=3`, { token: other })
    expect(gone.status, gone.text).toBe(200)
    await dialog.getByRole("status").getByText(openRecordTexts.gone("address"), { exact: true }).waitFor()
    expect(await name.inputValue()).toBe("Mine")
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("shows a queue seen before from the browser's store while the server is still asked (KEPT)", async () => {
    const prefix = await seed(3)
    const { page, errors } = await open(prefix)
    // The page is kept once it has come: give the store its moment, then leave and come back with the server held.
    await page.waitForTimeout(300)
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click()
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
    const held: Array<Route> = []
    await page.route("**/api/admin/communities/combined**", (route) => void held.push(route))
    await page.goBack()
    await card(page, `${prefix}03`).waitFor()
    // The rows may paint from the store before the list's call has left (a slow machine): it still goes.
    await expect.poll(() => held.length).toBeGreaterThan(0)
    expect(await page.getByRole("list", { name: "Community Management" }).getAttribute("aria-busy")).toBe("true")
    for (const route of held) await route.continue()
    await expect.poll(() => page.getByRole("list", { name: "Community Management" }).getAttribute("aria-busy")).toBe("false")
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("paints a reloaded queue from the tab's own copy before IndexedDB opens, and keeps none after sign-out", async () => {
    const prefix = await seed(3)
    // Its own session: this test signs out.
    const own = await signedInAs(product.server, "admin")
    const { page, errors } = await openSignedIn(product, own, `/communities?search=${prefix}`)
    await cards(page).first().waitFor()
    await clientOpen(page)
    const held: Array<Route> = []
    await page.route("**/api/admin/communities/combined**", (route) => void held.push(route))
    // Another writer holds the browser's store in the reloaded page (as another tab may): it can't
    // open until released, so the rows can come from the tab alone.
    await page.addInitScript(() => {
      const opening = indexedDB.open("console-store")
      opening.onsuccess = () => {
        const db = opening.result
        const meta = db.transaction([...db.objectStoreNames], "readwrite").objectStore("meta")
        const spin = () => {
          if ((window as unknown as { releaseStore?: boolean }).releaseStore !== true) meta.get("owner").onsuccess = spin
        }
        spin()
      }
    })
    await page.reload()
    await card(page, `${prefix}03`).waitFor()
    expect(await page.locator(".sync-status").count()).toBe(0)
    expect(await page.getByRole("list", { name: "Community Management" }).getAttribute("aria-busy")).toBe("true")
    await page.evaluate(() => Object.assign(window, { releaseStore: true }))
    await page.locator(".sync-status").waitFor({ state: "attached" })
    // Read once: the copy is gone from the tab, and the server's answer replaces it.
    expect(await page.evaluate(() => sessionStorage.getItem("list-snapshot"))).toBe(null)
    await expect.poll(() => held.length).toBeGreaterThan(0)
    // Every read goes through, a later one too (the stream going live late on a loaded machine
    // reads the rows again): the list settles on the server's answer.
    await expect
      .poll(async () => {
        for (const route of held.splice(0)) await route.continue()
        return page.getByRole("list", { name: "Community Management" }).getAttribute("aria-busy")
      })
      .toBe("false")
    // Leaving keeps the page shown; signing out forgets it.
    await page.unrouteAll({ behavior: "ignoreErrors" })
    await page.evaluate(() => dispatchEvent(new PageTransitionEvent("pagehide")))
    expect(await page.evaluate(() => sessionStorage.getItem("list-snapshot"))).toContain(`${prefix}03`)
    await page.getByRole("button", { name: "Logout" }).click()
    await page.getByLabel("Email").waitFor()
    expect(await page.evaluate(() => sessionStorage.getItem("list-snapshot"))).toBe(null)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("paints a reloaded queue from the tab's copy before the console's code has run, inert, until the console shows its own", async () => {
    const prefix = await seed(3)
    // No service worker: the page's own routes see every file it asks for.
    const { page, errors } = await newPage(product.browser, { serviceWorkers: "block" })
    await page.context().addInitScript((token) => localStorage.setItem("adminToken", token), admin)
    await page.goto(`${product.server.url}/communities?search=${prefix}`)
    await cards(page).first().waitFor()
    await clientOpen(page)
    // The page goes while its rows are read again (a colleague's change): what it shows is still this query's.
    const reads: Array<Route> = []
    await page.route("**/api/admin/communities/combined**", (route) => void (reads.length === 0 ? reads.push(route) : route.continue()))
    await editElsewhere((await onServer(prefix))[0]!)
    await expect.poll(() => page.getByRole("list", { name: "Community Management" }).getAttribute("aria-busy")).toBe("true")
    // The signed-in screens' code is held: nothing of the console's own can show the rows.
    const held: Array<Route> = []
    await page.route("**/assets/signed-in-*.js", (route) => void held.push(route))
    await page.reload({ waitUntil: "commit" })
    const kept = page.locator("#kept-page")
    await kept.getByText(`${prefix}03`, { exact: true }).waitFor()
    await expect.poll(() => held.length).toBeGreaterThan(0)
    // A picture of the page: no key or click reaches it, screen readers skip it, its list says it is loading.
    expect(await kept.evaluate((layer) => [(layer as HTMLElement).inert, layer.getAttribute("aria-hidden")])).toEqual([true, "true"])
    expect(await kept.locator("[aria-busy]").first().getAttribute("aria-busy")).toBe("true")
    expect(await page.getByRole("list", { name: "Community Management" }).count()).toBe(0)
    for (const route of held.splice(0)) await route.continue()
    // The console's own rows, and the picture gone.
    await card(page, `${prefix}03`).waitFor()
    await expect.poll(() => kept.count()).toBe(0)
    // Another address in the same tab: the copy was of another page, so nothing is painted.
    await page.goto(`${product.server.url}/communities?search=${prefix}0`, { waitUntil: "commit" })
    await expect.poll(() => held.length).toBeGreaterThan(0)
    await page.waitForFunction(() => document.readyState !== "loading")
    expect(await kept.count()).toBe(0)
    // No longer held: a second ask for the chunk (a preload, then the import) goes through too.
    await page.unroute("**/assets/signed-in-*.js")
    for (const route of held.splice(0)) await route.continue()
    await card(page, `${prefix}03`).waitFor()
    expect(await kept.count()).toBe(0)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("opens a queue seen before from the store on a reload, before the server has answered the session check or the list", async () => {
    const prefix = await seed(3)
    const { page, errors } = await open(prefix)
    await page.waitForTimeout(300)
    const held: Array<Route> = []
    await page.route("**/api/admin/communities/combined**", (route) => void held.push(route))
    await page.route("**/api/admin/auth/check", (route) => void held.push(route))
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (document.body?.textContent?.includes("Checking your session") === true) Object.assign(window, { sawChecking: true })
      }).observe(document, { childList: true, subtree: true, characterData: true })
    })
    await page.reload()
    // The person this browser remembers, their queue's rows from the store: the server has said nothing yet.
    await card(page, `${prefix}03`).waitFor()
    await page.getByRole("navigation", { name: "Main" }).waitFor()
    expect(await page.evaluate(() => "sawChecking" in window)).toBe(false)
    // The list asks the server too (its call may leave after the rows showed); neither has answered.
    await expect
      .poll(() => held.map((route) => new URL(route.request().url()).pathname).sort())
      .toEqual(["/api/admin/auth/check", "/api/admin/communities/combined"])
    expect(await page.getByRole("list", { name: "Community Management" }).getAttribute("aria-busy")).toBe("true")
    await card(page, `${prefix}03`).waitFor()
    for (const route of held) await route.continue()
    await expect.poll(() => page.getByRole("list", { name: "Community Management" }).getAttribute("aria-busy")).toBe("false")
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("puts a refused decision back as the server has it and says why, with the record's history", async () => {
    const prefix = await seed(2)
    const { page, errors } = await open(prefix)
    // The decision is on its way for a second and a half; a colleague edits the listing meanwhile.
    await slowWrites(page, 1500)
    const [top] = await shown(page)
    const target = (await onServer(prefix)).find((listing) => listing.name === top!.name)!
    await cards(page).first().focus()
    await page.keyboard.press("a")
    await card(page, target.name).getByText("Approved", { exact: true }).waitFor()
    await editElsewhere(target)
    // It names the decision and who changed the listing when, and keeps the decision to apply again.
    const alert = page.getByRole("alert").filter({ hasText: `Failed to update status: Approved "${target.name}". admin-` })
    await alert.waitFor()
    await expect.poll(() => alert.textContent()).toMatch(/changed it at \d{4}-\d{2}-\d{2} \d{2}:\d{2}; your change is kept here\./)
    await card(page, target.name).getByText("Pending", { exact: true }).waitFor()
    expect(Object.values(await statuses(prefix))).toEqual(["pending", "pending"])
    await alert.getByRole("button", { name: "Compare in history" }).click()
    await page.getByRole("dialog").waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })

  /** Two animation frames: what the last answer changes is on screen. */
  const quietFrames = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))

  /** The commands this browser's outbox holds in IndexedDB (what a reload finds). */
  const outboxed = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const opening = indexedDB.open("console-store")
          opening.onerror = () => reject(new Error("no store"))
          opening.onsuccess = () => {
            const counting = opening.result.transaction("outbox").objectStore("outbox").count()
            counting.onsuccess = () => {
              resolve(counting.result)
              opening.result.close()
            }
          }
        })
    )

  it("makes every change a command: a form saved with the link cut closes, shows its change, outlives a reload and goes out once, after the decision before it", async () => {
    const prefix = await seed(2)
    const { page, errors } = await open(prefix)
    const keys: Array<string | undefined> = []
    page.on("request", (request) => {
      if (request.method() !== "GET" && new URL(request.url()).pathname.startsWith("/api/admin/")) keys.push(request.headers()["idempotency-key"])
    })
    // The console's files are kept by its service worker once it runs (a reload with no link opens it).
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
    await page.reload()
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await cards(page).first().waitFor()
    await clientOpen(page)
    const [first, second] = await shown(page)
    const form = page.getByRole("dialog")
    await page.context().setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await card(page, first!.name).focus()
    await page.keyboard.press("a")
    await card(page, second!.name).focus()
    await page.keyboard.press("e")
    await form.getByLabel("Description").fill("Edited with the link cut")
    await form.getByRole("button", { name: "Save" }).click()
    await page.getByRole("status").getByText("2 changes are waiting: they are sent, in order, when the connection is back.").waitFor()
    // Kept in the browser, the save is done for the person: the form closes and the card shows it, waiting.
    await form.waitFor({ state: "detached" })
    const editedCard = card(page, second!.name)
    await editedCard.getByText("Edited with the link cut").waitFor()
    await editedCard.getByText(listTexts.waiting).waitFor()
    await expect.poll(() => outboxed(page)).toBe(2)
    // Edited again before the link is back: the second save names the version the first leads to.
    await editedCard.focus()
    await page.keyboard.press("e")
    expect(await form.getByLabel("Description").inputValue()).toBe("Edited with the link cut")
    await form.getByLabel("Description").fill("Edited twice with the link cut")
    await form.getByRole("button", { name: "Save" }).click()
    await form.waitFor({ state: "detached" })
    await editedCard.getByText("Edited twice with the link cut").waitFor()
    await expect.poll(() => outboxed(page)).toBe(3)
    await page.reload()
    await cards(page).first().waitFor()
    await page.getByRole("status").getByText("3 changes are waiting: they are sent, in order, when the connection is back.").waitFor()
    await card(page, second!.name).getByText("Edited twice with the link cut").waitFor()
    expect(Object.values(await statuses(prefix))).toEqual(["pending", "pending"])
    await page.context().setOffline(false)
    await expect
      .poll(async () => (await onServer(prefix)).map(({ name, status, version }) => ({ name, status, version })), { timeout: 20_000 })
      .toEqual(
        [
          { name: first!.name, status: "approved", version: 2 },
          { name: second!.name, status: "pending", version: 3 }
        ].sort((a, b) => a.name.localeCompare(b.name))
      )
    const edited = (await onServer(prefix)).find((listing) => listing.name === second!.name) as Listing & { readonly description: string }
    expect(edited.description).toBe("Edited twice with the link cut")
    await page.getByText(/waiting: they are sent/).waitFor({ state: "detached" })
    // Every write carried a key made in the browser: three commands, three keys, however often each was tried.
    expect(keys.length).toBeGreaterThanOrEqual(3)
    expect(keys.every((key) => key !== undefined && /^[A-Za-z0-9_-]{16,100}$/u.test(key))).toBe(true)
    expect(new Set(keys).size).toBe(3)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("says a form's refusal in the shell, in the form's words, when the form closed with its save kept for the link", async () => {
    const prefix = await seed(1)
    const { page, errors } = await openSignedIn(product, admin, "/")
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
    await page.evaluate((search) => {
      history.pushState(null, "", `/communities?search=${search}`)
      dispatchEvent(new PopStateEvent("popstate"))
    }, prefix)
    await cards(page).first().waitFor()
    await clientOpen(page)
    const [target] = await onServer(prefix)
    await page.context().setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await card(page, target!.name).focus()
    await page.keyboard.press("e")
    const form = page.getByRole("dialog")
    await form.getByLabel("Description").fill("Saved, then left")
    await form.getByRole("button", { name: "Save" }).click()
    await page
      .getByRole("status")
      .getByText(/1 change is waiting/)
      .waitFor()
    await form.waitFor({ state: "detached" })
    // The browser's Back: the screen goes too.
    await page.goBack()
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
    // A colleague edits it meanwhile: the save, at the version the form read, is refused.
    await editElsewhere(target!)
    await page.context().setOffline(false)
    await page.getByRole("alert").filter({ hasText: listingTexts.saveFailed }).waitFor({ timeout: 20_000 })
    expect(((await onServer(prefix))[0] as Listing & { readonly description: string }).description).toBe("Edited elsewhere")
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("deletes a row at once while its write is on its way, and puts one back with the reason when the server refuses", async () => {
    const prefix = await seed(2)
    const { page, errors } = await open(prefix)
    const [first, second] = await onServer(prefix)
    // The first delete is held before the server until the row's going has been seen.
    const held: Array<Route> = []
    await page.route("**/api/admin/communities/**", (route: Route) =>
      route.request().method() === "DELETE" && held.length === 0 ? void held.push(route) : route.continue()
    )
    const confirm = async (name: string) => {
      await card(page, name).focus()
      await page.keyboard.press("Delete")
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click()
    }
    await confirm(first!.name)
    await card(page, first!.name).waitFor({ state: "detached" })
    // Gone from the queue while the server still has it; then gone there too.
    await expect.poll(() => held.length).toBe(1)
    expect((await onServer(prefix)).map((listing) => listing.name)).toContain(first!.name)
    await held[0]!.continue()
    await expect.poll(async () => (await onServer(prefix)).map((listing) => listing.name)).toEqual([second!.name])
    // Deleted with the link cut while a colleague edits it: the server refuses, the row comes back, and the console says why.
    await page.context().setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await confirm(second!.name)
    await card(page, second!.name).waitFor({ state: "detached" })
    await editElsewhere(second!)
    await page.context().setOffline(false)
    await page.getByRole("alert").filter({ hasText: "Failed to delete listing" }).waitFor({ timeout: 20_000 })
    await card(page, second!.name).waitFor()
    expect((await onServer(prefix)).map((listing) => listing.name)).toEqual([second!.name])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("moves the dashboard's pending figures with a decision still on its way, and keeps them once it is answered", async () => {
    const prefix = await seed(2)
    const { page, errors } = await open(prefix)
    const serverPending = async () => {
      const answer = await call(product.server.url, "GET", "/api/admin/analytics?period=7d", { token: admin })
      const { pending } = answer.body.data as { pending: { listings: ReadonlyArray<{ type: string; count: number }> } }
      return pending.listings.find((part) => part.type === "community")?.count ?? 0
    }
    const before = await serverPending()
    // The decision is held before the server until the dashboard has shown it.
    const held: Array<Route> = []
    await page.route("**/api/admin/listings/**", (route: Route) => (route.request().method() === "PUT" ? void held.push(route) : route.continue()))
    await cards(page).first().focus()
    await page.keyboard.press("a")
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click()
    const communities = page.getByRole("list", { name: "Pending reviews by list" }).getByRole("link", { name: /^Communities: / })
    await communities.getByText(`Communities: ${before - 1}`).waitFor()
    // Still on its way: the server has not counted it yet.
    await expect.poll(() => held.length).toBe(1)
    expect(await serverPending()).toBe(before)
    // Answered, and the figures read again after it: the figure stays where the decision put it.
    const readAgain = page.waitForResponse((response) => response.url().includes("/api/admin/analytics"))
    await held[0]!.continue()
    await readAgain
    await page.getByText(/Saving \d changes?…/).waitFor({ state: "detached", timeout: 15_000 })
    expect(await serverPending()).toBe(before - 1)
    await quietFrames(page)
    expect(await communities.textContent()).toBe(`Communities: ${before - 1}`)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("shows a colleague's change on the open activity log without a reload", async () => {
    const { page, errors } = await openSignedIn(product, admin, "/activity")
    await page.getByRole("table").waitFor()
    await clientOpen(page)
    await linkLive(page)
    const prefix = await seed(1)
    await page.getByRole("table").getByText(`${prefix}01`).first().waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("asks before a sign-out would drop changes still waiting, and deletes the store after", async () => {
    const prefix = await seed(1)
    const { page, errors } = await open(prefix)
    await page.context().setOffline(true)
    await cards(page).first().focus()
    await page.keyboard.press("a")
    await page
      .getByRole("status")
      .getByText(/1 change is waiting/)
      .waitFor()
    await page.getByRole("button", { name: "Logout" }).click()
    const asking = page.getByRole("alertdialog", { name: "Sign out with changes waiting?" })
    await asking.getByText("1 change has not reached the server yet.", { exact: false }).waitFor()
    await asking.getByRole("button", { name: "Stay signed in" }).click()
    await card(page, `${prefix}01`).waitFor()
    await page.getByRole("button", { name: "Logout" }).click()
    await asking.getByRole("button", { name: "Sign out anyway" }).click()
    await page.locator("input[name=email]").waitFor()
    await expect.poll(() => page.evaluate(async () => (await indexedDB.databases()).map((database) => database.name))).not.toContain("console-store")
    expect(errors).toEqual([])
    await page.context().close()
  })
})

/**
 * The server killed (SIGKILL) in the middle of sending a queue's decisions and started again on
 * the same address: the console keeps them, tries the link again, and the server applies each
 * once (the product as `npm start` runs it, PGlite in its data directory).
 */
describe("the event-sourced console through a server crash", () => {
  it("sends every decision once after the server was killed in the middle of sending and came back", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "console-crash-"))
    const port = String(await freePort())
    let server = await startProduct({ PORT: port }, dataDir)
    const browser = await launchChromium()
    try {
      const token = await signInFirstAdmin(server.url, dataDir)
      const prefix = "crash-"
      for (let index = 1; index <= 6; index++) {
        const made = await call(server.url, "POST", "/api/admin/communities", {
          token,
          body: { name: `${prefix}${String(index).padStart(2, "0")}`, description: "Waiting" }
        })
        expect(made.status, made.text).toBe(200)
      }
      const onServer = async () =>
        (
          (await call(server.url, "GET", `/api/admin/communities/combined?search=${prefix}`, { token })).body.data as {
            communities: ReadonlyArray<{ status: string; version: number }>
          }
        ).communities
      const { page, errors } = await newPage(browser)
      await page.context().addInitScript((value) => localStorage.setItem("adminToken", value), token)
      await page.goto(`${server.url}/communities?search=${prefix}`)
      const cards = page.getByRole("list", { name: "Community Management" }).getByRole("listitem")
      await cards.nth(5).waitFor()
      await page.locator(".sync-status").waitFor({ state: "attached" })
      // Each write takes 400 ms on its way, so the server dies with decisions still to send.
      await page.route("**/api/admin/listings/**", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 400))
        await route.continue().catch(() => undefined)
      })
      await cards.first().focus()
      for (let press = 0; press < 6; press++) await page.keyboard.press("a")
      await expect.poll(async () => (await onServer()).filter((listing) => listing.status === "approved").length, { timeout: 10_000 }).toBeGreaterThan(0)
      await server.kill()
      expect((await cards.allTextContents()).filter((text) => text.includes("Approved"))).toHaveLength(6)
      server = await startProduct({ PORT: port }, dataDir)
      await expect.poll(async () => (await onServer()).map((listing) => listing.status), { timeout: 30_000 }).toEqual(Array(6).fill("approved"))
      expect((await onServer()).map((listing) => listing.version)).toEqual(Array(6).fill(2))
      await page.getByText(/Saving \d changes?…|waiting: they are sent|The server can't be reached/).waitFor({ state: "detached", timeout: 15_000 })
      expect(errors).toEqual([])
      await page.context().close()
    } finally {
      await browser.close()
      await server.kill()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
