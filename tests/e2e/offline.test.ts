import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { addressTexts, linkTexts, listTexts } from "../spec/texts.ts"
import { seriousViolations } from "../support/axe.ts"
import { chromiumWithServer, isDark, signInThroughScreen } from "../support/browser.ts"
import { makeCommunity, onServer } from "../support/communities.ts"
import { browserEngines } from "../support/database.ts"
import { call } from "../support/http.ts"
import type { TestServer } from "../support/server.ts"
import { underServiceWorker } from "../support/service-worker.ts"
import { signedInAs } from "../support/session.ts"

/**
 * Offline (docs/console.md, "Offline"): the console's own files are kept by its service worker, so a
 * reload with no link opens the console, still signed in as the person this browser remembers;
 * API answers are never kept; a new build is taken at the next load, never under an open page
 * (docs/decisions.md, "The service worker" and "Signed in with no link"). Real Chromium, its
 * offline mode (`context.setOffline`), no routes: a page's routes would not see what the worker
 * fetches. A new build's arrival is tests/e2e/new-build.test.ts.
 */

const GENERATED = "/api/admin/addresses/generated"
const GENERATED_TITLE = "Generated Addresses"
const CEX_TITLE = "CEX Addresses"

/** The rows of the directory's table (its header row is the first). */
const rows = (page: Page, title: string) => page.getByRole("table", { name: title }).getByRole("row")

/** The shell, signed in as `email`: the sidebar and the greeting. */
const seeShell = async (page: Page, email: string) => {
  await page.getByRole("navigation", { name: "Main" }).waitFor()
  await page.getByText(`Welcome back, ${email}`).waitFor()
}

/** The paths of everything the page's origin holds in its caches. */
const cachedPaths = (page: Page) =>
  page.evaluate(async () => {
    const paths: Array<string> = []
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname)
    }
    return paths
  })

/** Requests the server logged since `from`, the change stream left out (it ends whenever the link does). */
const loggedSince = (server: TestServer, from: number) =>
  server
    .requestLog()
    .slice(from)
    .filter((line) => !line.includes("/api/admin/stream"))

describe.each(browserEngines)("the console with no link, on $name", (engine) => {
  const product = chromiumWithServer(engine)
  let email: string
  let token: string
  const contexts: Array<BrowserContext> = []

  const freshPage = async () => {
    const context = await product.browser.newContext({ viewport: { width: 1280, height: 800 } })
    contexts.push(context)
    const page = await context.newPage()
    const errors: Array<string> = []
    page.on("pageerror", (error) => errors.push(error.message))
    return { context, page, errors }
  }

  beforeAll(async () => {
    email = `offline-${engine.name}@example.com`
    await product.server.sql(addAdmin(email, "admin"))
    token = await signedInAs(product.server, "admin")
    for (let n = 1; n <= 25; n++) {
      const answer = await call(product.server.url, "POST", GENERATED, { token, body: { identifier: `offline-${n}`, Name: `Offline ${n}`, Rank: n } })
      expect(answer.status).toBe(200)
    }
  })
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined)
  })

  it("keeps the console's files for the next load though the person never stops working", async () => {
    const { page, errors } = await freshPage()
    await page.addInitScript((value) => localStorage.setItem("adminToken", value), token)
    await page.goto(`${product.server.url}/generated-addresses`)
    await rows(page, GENERATED_TITLE).nth(20).waitFor()
    const shownAt = Date.now()
    // A key every 300 ms: never a quiet second, in which the worker would otherwise be registered.
    let registered = false
    while (!registered && Date.now() - shownAt < 9_000) {
      await page.keyboard.press("j")
      await page.waitForTimeout(300)
      registered = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()) !== undefined)
    }
    expect(registered).toBe(true)
    // At the latest 5 s after the first screen; not in its first seconds while keys keep coming.
    expect(Date.now() - shownAt).toBeGreaterThan(4_000)
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
    expect(errors).toEqual([])
  })

  it("serves a first visit's page from its worker once it runs: a dialog never opened before opens with no link", async () => {
    const { context, page, errors } = await freshPage()
    await page.addInitScript((value) => localStorage.setItem("adminToken", value), token)
    await page.goto(`${product.server.url}/generated-addresses`)
    await rows(page, GENERATED_TITLE).nth(1).waitFor()
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
    // Taken by the worker without a reload (nothing older served it).
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await context.setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await rows(page, GENERATED_TITLE).nth(1).getByRole("button", { name: addressTexts.view }).click()
    await page.getByRole("dialog").getByRole("button", { name: addressTexts.edit }).waitFor()
    await context.setOffline(false)
    expect(errors).toEqual([])
  })

  it("opens signed in on a reload and on another path with no link, says so, and confirms the session when the link is back", async () => {
    const { context, page, errors } = await freshPage()
    await signInThroughScreen(page, product.server, email, "Admin")
    await page.goto(`${product.server.url}/generated-addresses`)
    await rows(page, GENERATED_TITLE).nth(20).waitFor()
    await underServiceWorker(page)
    await rows(page, GENERATED_TITLE).nth(20).waitFor()
    // The browser keeps who the token is for, as the server answered it.
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("adminUser") ?? "null") as { email?: string } | null)
    expect(kept?.email).toBe(email)

    await context.setOffline(true)
    const before = product.server.requestLog().length
    const reloaded = await page.reload()
    expect(reloaded?.fromServiceWorker()).toBe(true)
    await seeShell(page, email)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    // The list's answer is not kept by any cache: the read fails, and the rows this browser keeps
    // show, said once to be kept ones and when they were read, with no failure in red.
    await page.getByRole("status").getByText(listTexts.keptOffline).waitFor()
    await rows(page, GENERATED_TITLE).nth(20).waitFor()
    expect(await page.getByRole("alert").getByText(addressTexts.loadFailed, { exact: false }).count()).toBe(0)

    // Another console path, opened as a new page load: the same console, still signed in.
    const other = await page.goto(`${product.server.url}/cex-addresses`)
    expect(other?.fromServiceWorker()).toBe(true)
    await seeShell(page, email)
    await page.getByRole("heading", { name: CEX_TITLE }).waitFor()
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    expect(new URL(page.url()).pathname).toBe("/cex-addresses")
    expect(loggedSince(product.server, before)).toEqual([])

    // The link back: the session is checked, the status goes, and the list reads again by itself
    // (it follows the browser's store, which the remembered person's load opened: no Retry).
    const checked = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/admin/auth/check")
    await context.setOffline(false)
    expect((await checked).status()).toBe(200)
    await expect.poll(() => page.getByRole("status").getByText(linkTexts.offline).count()).toBe(0)
    await expect.poll(() => page.getByRole("status").getByText(linkTexts.unreachable).count()).toBe(0)
    await rows(page, CEX_TITLE).first().waitFor()
    expect(await page.getByRole("button", { name: listTexts.retry }).count()).toBe(0)
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Generated Addresses" }).click()
    await rows(page, GENERATED_TITLE).nth(20).waitFor()
    expect(await page.evaluate(() => localStorage.getItem("adminToken"))).not.toBeNull()
    expect(errors).toEqual([])
  })

  it("keeps a decision made with no link through a closed tab: a new tab shows it waiting, and the link back sends it once", async () => {
    const name = `offline-decision-${engine.name}`
    await makeCommunity(product.server, token, name)
    const cardOf = (page: Page) => page.getByRole("list", { name: "Community Management" }).getByRole("listitem").filter({ hasText: name })
    const waiting = "1 change is waiting: they are sent, in order, when the connection is back."
    const { context, page } = await freshPage()
    await signInThroughScreen(page, product.server, email, "Admin")
    await page.goto(`${product.server.url}/communities?search=${name}`)
    await cardOf(page).waitFor()
    // A console used before: its worker has kept its files and served a load.
    await underServiceWorker(page)
    await cardOf(page).waitFor()
    await page.locator(".sync-status").waitFor({ state: "attached" })
    await context.setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await cardOf(page).focus()
    await page.keyboard.press("a")
    await page.getByRole("status").getByText(waiting).waitFor()
    await page.close()

    // A new tab, the link still cut: the console opens from its worker and shows the decision waiting.
    const next = await context.newPage()
    const errors: Array<string> = []
    next.on("pageerror", (error) => errors.push(error.message))
    const reopened = await next.goto(`${product.server.url}/communities?search=${name}`)
    expect(reopened?.fromServiceWorker()).toBe(true)
    await next.getByRole("status").getByText(waiting).waitFor()
    await cardOf(next).getByText("Approved").waitFor()
    await cardOf(next).getByText(listTexts.waiting).waitFor()
    const before = await onServer(product.server, token, name)
    expect(before).toMatchObject({ status: "pending", version: 1 })

    // The link back: the decision reaches the server once, and the card shows it confirmed.
    await context.setOffline(false)
    await expect.poll(() => onServer(product.server, token, name), { timeout: 20_000 }).toMatchObject({ status: "approved", version: 2 })
    await cardOf(next).getByText(listTexts.waiting).waitFor({ state: "detached" })
    await cardOf(next).getByText("Approved").waitFor()
    await next.getByRole("status").getByText(waiting).waitFor({ state: "detached" })
    // Found by the person's e-mail: a super admin's filter, as only they read other staff's e-mails.
    const history = await call(product.server.url, "GET", `/api/admin/activity-logs?record=${before?.id ?? ""}&username=${encodeURIComponent(email)}`, {
      token: await signedInAs(product.server, "super_admin")
    })
    expect((history.body.data as { logs: ReadonlyArray<unknown> }).logs).toHaveLength(1)
    expect(errors).toEqual([])
  })

  it("keeps an address edited with no link that a colleague changed meanwhile: it names them and when, outlives a reload, and y applies it", async () => {
    const identifier = `GCONFLICT${engine.name.toUpperCase()}`
    const made = await call(product.server.url, "POST", "/api/admin/addresses/cex", { token, body: { identifier, name: "Conflict Exchange" } })
    expect(made.status, made.text).toBe(200)
    const id = (made.body.data as { address: { _id: string } }).address._id
    const onServerNow = async () =>
      (
        (await call(product.server.url, "GET", `/api/admin/addresses/cex?search=${identifier}`, { token })).body.data as {
          addresses: ReadonlyArray<{ version: number; category: string }>
        }
      ).addresses[0]
    const { context, page, errors } = await freshPage()
    await signInThroughScreen(page, product.server, email, "Admin")
    await page.goto(`${product.server.url}/cex-addresses?search=${identifier}`)
    const row = rows(page, CEX_TITLE).filter({ hasText: identifier })
    await row.waitFor()
    // A console used before: its worker keeps the files the form needs.
    await underServiceWorker(page)
    await row.waitFor()
    await page.locator('.sync-status[data-link="online"]').waitFor({ state: "attached" })
    await context.setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await row.getByRole("button", { name: addressTexts.edit }).click()
    const form = page.getByRole("dialog", { name: addressTexts.editTitle })
    await form.getByLabel("Category").fill("Typed with no link")
    await form.getByRole("button", { name: addressTexts.save }).click()
    // Kept in the browser, the form closes as after a save.
    await form.waitFor({ state: "detached" })
    await page.getByRole("status").getByText("1 change is waiting", { exact: false }).waitFor()

    // A colleague changes the same address meanwhile.
    const colleague = await signedInAs(product.server, "super_admin")
    const theirs = await call(product.server.url, "PUT", `/api/admin/addresses/cex/${id}`, {
      token: colleague,
      body: { identifier, name: "Conflict Exchange", category: "Their category", version: 1 }
    })
    expect(theirs.status, theirs.text).toBe(200)
    await context.setOffline(false)
    const conflict = page.getByRole("alert").filter({ hasText: "Failed to update address: Conflict Exchange. super_admin-" })
    await conflict.waitFor()
    await expect.poll(() => conflict.textContent()).toMatch(/changed it at \d{4}-\d{2}-\d{2} \d{2}:\d{2}; your change is kept here\./)
    expect(await conflict.textContent()).not.toMatch(/reload/i)
    expect(await onServerNow()).toMatchObject({ version: 2, category: "Their category" })
    expect(await seriousViolations(page)).toEqual([])

    // A reload keeps it (scanned again in the dark theme); y sends the person's change at the
    // version the address is at now.
    await page.emulateMedia({ colorScheme: "dark" })
    await page.reload()
    await conflict.waitFor()
    expect(await isDark(page)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    await row.waitFor()
    await page.locator('.sync-status[data-link="online"]').waitFor({ state: "attached" })
    await page.keyboard.press("y")
    await expect.poll(onServerNow).toMatchObject({ version: 3, category: "Typed with no link" })
    await conflict.waitFor({ state: "detached" })
    await page.reload()
    await row.waitFor()
    await page.locator('.sync-status[data-link="online"]').waitFor({ state: "attached" })
    expect(await page.getByRole("alert").count()).toBe(0)
    expect(errors).toEqual([])
  })

  it("serves the worker's script as script, asked again on every load", async () => {
    const worker = await call(product.server.url, "GET", "/service-worker.js")
    expect(worker.status).toBe(200)
    expect(worker.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(worker.headers.get("cache-control")).toBe("no-cache")
    // The build's list is in it: every built file but the page.
    expect(worker.text).toContain('"url":"assets/')
    expect(worker.text).not.toContain('"url":"index.html"')
  })

  it("never answers the API from a cache: with no link a call fails, and no cache holds an API path", async () => {
    const { context, page, errors } = await freshPage()
    await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
    await page.goto(`${product.server.url}/generated-addresses`)
    await rows(page, GENERATED_TITLE).nth(20).waitFor()
    await underServiceWorker(page)
    await rows(page, GENERATED_TITLE).nth(20).waitFor()
    const ask = () =>
      page.evaluate(
        ([path, value]) =>
          fetch(path, { headers: { authorization: `Bearer ${value}` } }).then(
            (response) => `answered ${response.status}`,
            (error: unknown) => `failed: ${String(error)}`
          ),
        [GENERATED, token] as const
      )
    expect(await ask()).toBe("answered 200")
    await context.setOffline(true)
    expect(await ask()).toMatch(/^failed: TypeError/)
    // The same page loaded again with no link: its first page is asked again, and fails; the rows
    // shown are the ones this browser keeps, and the list says so.
    await page.reload()
    await page.getByRole("status").getByText(listTexts.keptOffline).waitFor()
    const cached = await cachedPaths(page)
    expect(cached.filter((path) => path.startsWith("/api/"))).toEqual([])
    // What is kept: the page under its one key, and the built files.
    expect(cached).toContain("/")
    expect(cached.filter((path) => path !== "/" && !path.startsWith("/assets/"))).toEqual([])
    expect(errors).toEqual([])
    // The API's own pages are not the console's: no link, no page.
    await expect(page.goto(`${product.server.url}/api/docs`)).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/)
  })
})
