import { createHash } from "node:crypto"
import type { BrowserContext, Page } from "playwright-core"
import { afterEach, describe, expect, it } from "vitest"
import { addAdmin, setAdminDisabled } from "../../server/admin-users/repository.ts"
import { allowIp, clearAllowedIps } from "../../server/allowed-ips/repository.ts"
import { commandLine } from "../../server/platform/record-writes.ts"
import { linkTexts } from "../spec/texts.ts"
import { chromiumWithServer, newPage, signInThroughScreen, visitInApp } from "../support/browser.ts"
import { makeCommunity, onServer } from "../support/communities.ts"
import { browserEngines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { signedInAs, signIn } from "../support/session.ts"
import { storeContents } from "../support/store-page.ts"

/**
 * What the browser keeps once a session is over (docs/security.md, "What stays in the browser"):
 * a session the server ended (signed out elsewhere, the admin disabled) leaves none of the records
 * the console read in IndexedDB, and only the commands the person made wait for their own next
 * sign-in; a sign-out made with no link keeps only the token's hash, and ends the session with it
 * the next time the link is back. Real Chromium against the real server; the session ends through
 * the API, as it does elsewhere.
 */
describe.each(browserEngines)("what the browser keeps after a session ends, on $name", (engine) => {
  const product = chromiumWithServer(engine)
  let serial = 0
  const contexts: Array<BrowserContext> = []
  afterEach(async () => {
    await product.server.sql(clearAllowedIps)
    for (const context of contexts.splice(0)) await context.close().catch(() => undefined)
  })

  const newAdmin = async (role: "super_admin" | "admin") => {
    const email = `ends-${engine.name}-${++serial}-${process.pid}@example.com`
    await product.server.sql(addAdmin(email, role))
    return email
  }
  const opened = async () => {
    const made = await newPage(product.browser)
    contexts.push(made.context)
    return made
  }
  /** The console's client is open: its status line is in the page. */
  const clientOpen = (page: Page) => page.locator(".sync-status").waitFor({ state: "attached" })
  /** The session check's status for `token`, asked from elsewhere. */
  const checked = async (token: string) => (await call(product.server.url, "GET", "/api/admin/auth/check", { token })).status
  /** Everything the store holds, as text (absent: empty). */
  const storeText = async (page: Page) => JSON.stringify((await storeContents(page)) ?? {})
  /** The records the store holds (none once it is gone). */
  const heldRecords = async (page: Page) => ((await storeContents(page))?.records as ReadonlyArray<unknown> | undefined)?.length ?? 0

  /**
   * A super admin signed in through the screen who read the admin users and the allowed addresses:
   * the store holds a colleague's e-mail and an address of the list.
   */
  const readOthersRecords = async () => {
    const colleague = await newAdmin("super_admin")
    for (const [ip, why] of [
      ["0.0.0.0/0", "Every IPv4 address"],
      ["::/0", "Every IPv6 address"],
      ["203.0.113.0/24", "Branch office"]
    ] as const)
      await product.server.sql(allowIp(ip, why, commandLine))
    const email = await newAdmin("super_admin")
    const { context, page, errors } = await opened()
    await signInThroughScreen(page, product.server, email, "Super Admin")
    await clientOpen(page)
    await visitInApp(page, "/settings/admins")
    await page.getByRole("table").getByText(colleague).waitFor()
    await visitInApp(page, "/settings/ips")
    await page.getByRole("table").getByText("203.0.113.0/24").waitFor()
    // The store keeps what these screens read, while the session lasts.
    await expect.poll(() => storeText(page)).toContain(colleague)
    await expect.poll(() => storeText(page)).toContain("203.0.113.0/24")
    return { context, page, errors, email, colleague }
  }
  /** None of what the screens read remains in IndexedDB, once the console has forgotten it. */
  const nothingOfOthers = async (page: Page, colleague: string) => {
    await expect.poll(() => heldRecords(page)).toBe(0)
    const text = await storeText(page)
    expect(text).not.toContain(colleague)
    expect(text).not.toContain("203.0.113.0/24")
    expect(text).not.toContain("lastEventId")
  }

  it("forgets every record it read when the session is signed out everywhere else, learning it from the stream alone", async () => {
    const { page, errors, email, colleague } = await readOthersRecords()
    const elsewhere = await signIn(product.server, email, "super_admin")
    const ended = await call(product.server.url, "POST", "/api/admin/sessions/end-others", { token: elsewhere })
    expect(ended.status, ended.text).toBe(200)
    // Nobody touches the console: its change stream ends and is refused, and it signs out.
    await page.getByLabel("Email").waitFor({ timeout: 15_000 })
    await nothingOfOthers(page, colleague)
    expect(await page.evaluate(() => [localStorage.getItem("adminToken"), localStorage.getItem("adminUser")])).toEqual([null, null])
    expect(errors).toEqual([])
  })

  it("forgets every record it read when the next load's session check is refused (the admin was disabled meanwhile)", async () => {
    const { context, page, errors, email, colleague } = await readOthersRecords()
    await page.close()
    await product.server.sql(setAdminDisabled(email, true))
    const next = await context.newPage()
    next.on("pageerror", (error) => errors.push(error.message))
    await next.goto(`${product.server.url}/settings/admins`)
    await next.getByLabel("Email").waitFor()
    await nothingOfOthers(next, colleague)
    expect(errors).toEqual([])
  })

  it("keeps a change made with the link cut for the person's next sign-in when the session ended meanwhile, says so, and sends it then", async () => {
    const email = await newAdmin("admin")
    const maker = await signedInAs(product.server, "admin")
    const name = `kept-${engine.name}-${process.pid}`
    await makeCommunity(product.server, maker, name)
    const decided = () => onServer(product.server, maker, name)
    const { page, errors } = await opened()
    await signInThroughScreen(page, product.server, email, "Admin")
    await clientOpen(page)
    await visitInApp(page, `/communities?search=${name}`)
    const card = page.getByRole("list", { name: "Community Management" }).getByRole("listitem").first()
    await card.waitFor()
    await page.context().setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await card.focus()
    await page.keyboard.press("a")
    await page.getByRole("status").getByText("1 change is waiting: they are sent, in order, when the connection is back.").waitFor()
    // The session ends elsewhere while the link is down; the link back tells the console.
    const elsewhere = await signIn(product.server, email, "admin")
    expect((await call(product.server.url, "POST", "/api/admin/sessions/end-others", { token: elsewhere })).status).toBe(200)
    await page.context().setOffline(false)
    await page
      .getByText(
        "Your session ended before 1 change you made reached the server. It is kept in this browser: sign in again to send it. Signing in as someone else deletes it."
      )
      .waitFor()
    await expect.poll(() => heldRecords(page)).toBe(0)
    const held = await storeContents(page)
    expect(held?.outbox).toHaveLength(1)
    expect(await decided()).toMatchObject({ status: "pending", version: 1 })
    // The same person signs in again: the change goes out, once.
    await signInThroughScreen(page, product.server, email, "Admin")
    await expect.poll(decided, { timeout: 20_000 }).toMatchObject({ status: "approved", version: 2 })
    await page.goto(`${product.server.url}/login`)
    expect(await page.getByText(/Your session ended before/).count()).toBe(0)
    expect(errors).toEqual([])
  })

  /** What the page's storage holds, as text: `localStorage` and `sessionStorage`. */
  const storedText = (page: Page) => page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]))
  /** The token's SHA-256 in hex, as the server stores sessions (docs/security.md, "Sessions"). */
  const hashOf = (token: string) => createHash("sha256").update(token).digest("hex")

  /**
   * Signs in through the screen, cuts the link and signs out: the token it held, which the server
   * never heard end. Chromium's offline mode now and then let the logout reach the local server
   * though the page saw it fail (ERR_INTERNET_DISCONNECTED): while the link is cut, the context
   * also fails every request at its own network layer, so none reaches the server. The browser
   * then keeps the token's hash to end the session with, and not the token.
   */
  const signOutWithNoLink = async (page: Page) => {
    const email = await newAdmin("admin")
    await signInThroughScreen(page, product.server, email, "Admin")
    await clientOpen(page)
    const token = (await page.evaluate(() => localStorage.getItem("adminToken"))) ?? ""
    expect(token).not.toBe("")
    await page.context().route("**/api/**", (route) => route.abort("internetdisconnected"))
    await page.context().setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await page.getByRole("button", { name: "Logout" }).click()
    await page.getByLabel("Email").waitFor()
    await expect.poll(() => storedText(page)).toContain(hashOf(token))
    expect(await storedText(page)).not.toContain(token)
    expect(await checked(token)).toBe(200)
    return token
  }

  it("keeps no token after a sign-out with no link, and ends the session by its hash once the link is back", async () => {
    const { page, errors } = await opened()
    const token = await signOutWithNoLink(page)
    await page.context().unrouteAll()
    await page.context().setOffline(false)
    await expect.poll(() => checked(token), { timeout: 15_000 }).toBe(401)
    await expect.poll(() => storedText(page)).not.toContain(hashOf(token))
    expect(errors).toEqual([])
  })

  it("tries again, later, when the server refuses the first try once the link is back", async () => {
    const { page, errors } = await opened()
    const token = await signOutWithNoLink(page)
    await page.context().unrouteAll()
    const sent: Array<{ body: string | null; bearer: string | undefined; answered: number }> = []
    await page.context().route("**/api/admin/auth/revoke", async (route) => {
      const request = route.request()
      const answered = sent.length === 0 ? 503 : 204
      sent.push({ body: request.postData(), bearer: request.headers().authorization, answered })
      if (answered === 503) await route.fulfill({ status: 503, contentType: "application/json", body: '{"success":false,"error":"busy"}' })
      else await route.continue()
    })
    await page.context().setOffline(false)
    await expect.poll(() => sent.length).toBe(1)
    expect(await checked(token)).toBe(200)
    await expect.poll(() => checked(token), { timeout: 20_000 }).toBe(401)
    expect(sent.slice(0, 2)).toEqual([
      { body: JSON.stringify({ tokenHash: hashOf(token) }), bearer: undefined, answered: 503 },
      { body: JSON.stringify({ tokenHash: hashOf(token) }), bearer: undefined, answered: 204 }
    ])
    await expect.poll(() => storedText(page)).not.toContain(hashOf(token))
    expect(errors).toEqual([])
  })

  it("ends a session signed out of with no link at the console's next load, the browser closed meanwhile, having stored no token", async () => {
    const { context, page, errors } = await opened()
    const token = await signOutWithNoLink(page)
    // The browser closes with the link still down (nothing of its pages runs to hear it come back),
    // and opens again later with what it stored: the hash, not the token.
    const stored = await context.storageState()
    expect(JSON.stringify(stored)).not.toContain(token)
    expect(JSON.stringify(stored)).toContain(hashOf(token))
    await context.close()
    expect(await checked(token)).toBe(200)
    const again = await newPage(product.browser, { storageState: stored })
    contexts.push(again.context)
    await again.page.goto(`${product.server.url}/login`)
    await expect.poll(() => checked(token), { timeout: 15_000 }).toBe(401)
    await expect.poll(() => storedText(again.page)).not.toContain(hashOf(token))
    expect([...errors, ...again.errors]).toEqual([])
  })
})
