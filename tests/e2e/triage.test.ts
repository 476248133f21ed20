import type { Page, Route } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { chromiumWithServer, fieldMessage, linkLive, openSignedIn, pointerEventsOf } from "../support/browser.ts"
import { browserEngines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"

/**
 * The triage desk in Chromium (docs/console.md, "The triage desk"): a moderator's day worked from
 * the dashboard with the keyboard alone, keys counted; a decision made in one console leaves the
 * other's desk, and a new submission arrives on it, without a reload.
 */
describe.each(browserEngines)("the triage desk on $name", (engine) => {
  const product = chromiumWithServer(engine)
  let moderator: string
  let admin: string
  let serial = 0

  beforeAll(async () => {
    moderator = await signedInAs(product.server, "moderator")
    admin = await signedInAs(product.server, "admin")
  })

  const posted = async (path: string, body: Record<string, unknown>) => {
    const answer = await call(product.server.url, "POST", path, { ip: freshIp(), body })
    expect(answer.status, answer.text).toBe(200)
    const data = answer.body.data as { _id?: string; listing?: { _id: string } }
    return data._id ?? data.listing?._id ?? ""
  }
  const listing = (name: string, type = "community") => posted(`/api/listings/${type}`, { name, description: `About ${name}` })
  const report = (description: string, walletAddress: string, evidence = "") =>
    posted("/api/report-scam", { scamType: "phishing", description, walletAddress, ...(evidence === "" ? {} : { evidence }) })
  const inquiry = (companyName: string) =>
    posted("/api/advertising-inquiries", { companyName, contactName: "Grace", email: "grace@example.com", industry: "Gaming" })
  const record = async (path: string) => (await call(product.server.url, "GET", path, { token: admin })).body.data as Record<string, Record<string, unknown>>
  const statusOf = async (area: "listing" | "report" | "inquiry", id: string) => {
    if (area === "report") return (await record(`/api/report-scam/${id}`)).report?.status
    const desk = (await call(product.server.url, "GET", `/api/admin/triage?limit=100`, { token: admin })).body.data as {
      items: ReadonlyArray<{ _id: string; status: string }>
    }
    return desk.items.find((item) => item._id === id)?.status ?? "decided"
  }

  /** The keys a task takes: each press (a chord is one) and each character typed, apart. */
  const keyboard = (page: Page) => {
    const counted = { keys: 0, typed: 0 }
    return {
      press: async (key: string, times = 1) => {
        for (let n = 0; n < times; n++) {
          counted.keys++
          await page.keyboard.press(key)
        }
      },
      type: async (text: string) => {
        counted.typed += text.length
        await page.keyboard.type(text)
      },
      counted
    }
  }
  const desk = (page: Page) => page.getByRole("list", { name: "Triage" })
  const current = (page: Page) => desk(page).locator('[aria-current="true"] .triage-card')
  /** Makes the item showing `text` current, as a click on it would. */
  const focusItem = (page: Page, text: string) => desk(page).getByRole("listitem").filter({ hasText: text }).focus()
  const currentIs = (page: Page, title: string) => expect.poll(() => current(page).getAttribute("aria-label")).toBe(title)
  /** `z` after approving the listing `title`: said undone, current again, pending on the server. */
  const undoneBack = async (page: Page, title: string, id: string) => {
    await page.keyboard.press("z")
    await page
      .getByRole("status")
      .filter({ hasText: `Undone: Approve: ${title}. It is current again.` })
      .waitFor()
    await currentIs(page, title)
    await expect.poll(() => statusOf("listing", id)).toBe("pending")
  }
  /** The desk has read its items again: an item further down, past the first page before, shows. */
  const settled = (page: Page, coming: string) => desk(page).locator(`.triage-card[aria-label="${coming}"]`).first().waitFor({ timeout: 10_000 })

  it("shows every waiting kind in one list with its counts, and refuses nothing a moderator may do", async () => {
    const prefix = `Desk ${engine.name} ${++serial}`
    await listing(`${prefix} club`)
    await report(`${prefix} phishing`, `G${prefix.replace(/\W/g, "")}WALLET`, "See https://evil.example/phish and javascript:alert(1)")
    await inquiry(`${prefix} Co`)
    const { page, errors } = await openSignedIn(product, moderator, "/triage")
    await desk(page).getByText(`${prefix} club`, { exact: true }).waitFor()
    await desk(page).getByText(`${prefix} Co`).waitFor()
    // Evidence: the http(s) address is a link that opens apart; the rest is plain text.
    const link = desk(page).getByRole("link", { name: "https://evil.example/phish" })
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer")
    expect(await desk(page).getByRole("link").filter({ hasText: "javascript" }).count()).toBe(0)
    await page.getByRole("group", { name: "Waiting items by kind" }).waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("reads at a glance at 1280 × 800: each card its whole title, kind and type, three lines of text; the current item in full in view", async () => {
    const prefix = `Glance ${engine.name} ${++serial}`
    const wallet = `G${"GLANCE".repeat(9)}${serial}`.slice(0, 56)
    await listing(`${prefix} club`)
    await report(`${prefix} giveaway. ${"Sent 100 Pi for a promised 200 and heard nothing back. ".repeat(85)}`, wallet)
    const { page, errors } = await openSignedIn(product, moderator, "/triage?order=newest")
    const cardOf = (title: string) => desk(page).locator(`.triage-card[aria-label="${title}"]`)
    await cardOf(wallet).waitFor()
    await cardOf(`${prefix} club`).waitFor()
    // Its kind and type, its whole name on one line (a wallet too long for the card ends in an ellipsis).
    await cardOf(wallet).getByText("Scam report · Phishing Attempt").waitFor()
    await cardOf(`${prefix} club`).getByText("Listing · community").waitFor()
    const title = (card: string) =>
      cardOf(card)
        .locator(".triage-title")
        .evaluate((element) => ({ shown: element.clientWidth, whole: element.scrollWidth, height: element.getBoundingClientRect().height }))
    expect((await title(`${prefix} club`)).whole).toBeLessThanOrEqual((await title(`${prefix} club`)).shown)
    expect((await title(wallet)).shown).toBeGreaterThan(200)
    // A 4,800-character description is three lines on its card.
    const box = await cardOf(wallet).boundingBox()
    expect(box?.height ?? 1000).toBeLessThan(260)
    // The current item (the newest, the report) in full, beside the desk, begins in view.
    await focusItem(page, `${prefix} giveaway`)
    const detail = page.getByRole("complementary", { name: "The current item" })
    await detail.getByRole("heading", { name: wallet }).waitFor()
    const shown = await detail.getByRole("heading", { name: wallet }).boundingBox()
    expect(shown === null ? 9999 : shown.y + shown.height).toBeLessThan(800)
    expect(errors).toEqual([])
  })

  it("works a moderator's day from the dashboard with the keyboard alone: 15 listings, 10 reports, 5 inquiries, ≤ 45 keys", async () => {
    const day = `Day ${engine.name} ${++serial}`
    // Oldest first: the order they arrive in is the desk's.
    const listings: Array<string> = []
    for (let n = 1; n <= 15; n++) listings.push(await listing(`${day} listing ${String(n).padStart(2, "0")}`, n % 3 === 0 ? "influencer" : "community"))
    const reports: Array<string> = []
    for (let n = 1; n <= 10; n++)
      reports.push(await report(`${day} report ${String(n).padStart(2, "0")}`, n >= 9 ? `G${serial}SAMEWALLET` : `G${serial}WALLET${n}`))
    const inquiries: Array<string> = []
    for (let n = 1; n <= 5; n++) inquiries.push(await inquiry(`${day} inquiry ${n}`))
    const { page, errors } = await openSignedIn(product, moderator, "/", { countPointer: true })
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
    const keys = keyboard(page)
    await keys.press("g")
    await keys.press("t")
    await page.getByRole("heading", { level: 1, name: "Triage" }).waitFor()
    // Earlier tests' items wait above today's (oldest first): moving to the first of today's is not counted.
    await desk(page).getByText(`${day} listing 01`, { exact: true }).waitFor()
    while ((await current(page).getAttribute("aria-label")) !== `${day} listing 01`) await page.keyboard.press("j")
    // Twelve approvals: select them (x, Shift+J eleven times), one key.
    await keys.press("x")
    await keys.press("Shift+J", 11)
    await currentIs(page, `${day} listing 12`)
    await keys.press("a")
    await currentIs(page, `${day} listing 13`)
    for (const id of listings.slice(0, 12)) await expect.poll(() => statusOf("listing", id), { timeout: 15_000 }).toBe("decided")
    // As a person would, looks before going on: the decided items have left the desk.
    await settled(page, `G${serial}WALLET8`)
    // Three rejections, each with its reason: r, the reason, Enter; the next is current at once.
    for (let n = 13; n <= 15; n++) {
      await currentIs(page, `${day} listing ${n}`)
      await keys.press("r")
      await page.getByRole("dialog").getByLabel("Reason (optional, kept in the notes)").waitFor()
      await keys.type(n === 13 ? "Duplicate of an approved community" : "Not about Pi")
      await keys.press("Enter")
      await page.getByRole("dialog").waitFor({ state: "detached" })
    }
    for (const id of listings.slice(12)) await expect.poll(() => statusOf("listing", id), { timeout: 15_000 }).toBe("decided")
    await settled(page, `G${serial}SAMEWALLET`)
    // Six reports resolved in one go.
    await currentIs(page, `G${serial}WALLET1`)
    await keys.press("x")
    await keys.press("Shift+J", 5)
    await keys.press("3")
    for (const id of reports.slice(0, 6)) await expect.poll(() => statusOf("report", id), { timeout: 15_000 }).toBe("resolved")
    await settled(page, `${day} inquiry 5`)
    // One dismissed, no reason given: 4, Enter.
    await currentIs(page, `G${serial}WALLET7`)
    await keys.press("4")
    await keys.press("Enter")
    await expect.poll(() => statusOf("report", reports[6]!), { timeout: 15_000 }).toBe("dismissed")
    // One assigned to me (it stays current) and snoozed till tomorrow.
    await currentIs(page, `G${serial}WALLET8`)
    await keys.press("i")
    await keys.press("s")
    await keys.press("2")
    await expect.poll(async () => (await record(`/api/report-scam/${reports[7]}`)).report?.snoozedUntil, { timeout: 15_000 }).not.toBe(null)
    // Two on the same wallet: the first resolved, the desk goes on to the other on its wallet, a
    // duplicate of the first (offered first: ArrowDown from the search chooses it).
    await currentIs(page, `G${serial}SAMEWALLET`)
    await keys.press("3")
    await expect.poll(() => current(page).getAttribute("aria-label")).toBe(`G${serial}SAMEWALLET`)
    await page.getByRole("status").filter({ hasText: "1 related report is still open: o selects it" }).waitFor()
    // A look at the detail beside the desk: the report on the same wallet, already resolved.
    await page.getByRole("complementary", { name: "The current item" }).getByText("1 related report", { exact: true }).waitFor()
    await keys.press("m")
    await page.getByRole("dialog").getByLabel("Find the item it repeats").waitFor()
    await keys.press("ArrowDown")
    await keys.press("Enter")
    await expect
      .poll(async () => (await record(`/api/report-scam/${reports[9]}`)).report, { timeout: 15_000 })
      .toMatchObject({
        status: "dismissed",
        duplicateOf: reports[8]
      })
    // Five inquiries contacted at once.
    await currentIs(page, `${day} inquiry 1`)
    await keys.press("x")
    await keys.press("Shift+J", 4)
    await keys.press("c")
    for (const id of inquiries) await expect.poll(() => statusOf("inquiry", id), { timeout: 15_000 }).toBe("decided")
    const decisions = 30
    console.log(
      `a moderator's day on ${engine.name}: ${keys.counted.keys} keys for ${decisions} decisions (${(keys.counted.keys / decisions).toFixed(2)} a decision), ${keys.counted.typed} characters of reasons`
    )
    expect(keys.counted.keys).toBeLessThanOrEqual(45)
    // The rejected listings' reasons are in their notes and history.
    const rejected = (await call(product.server.url, "GET", `/api/admin/listings?search=${encodeURIComponent(`${day} listing 13`)}`, { token: admin })).body
      .data as {
      listings: ReadonlyArray<{ status: string; moderationNotes: string }>
    }
    expect(rejected.listings[0]).toMatchObject({ status: "rejected", moderationNotes: "Duplicate of an approved community" })
    expect(await pointerEventsOf(page)).toBe(0)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("goes on after a decision, brings it back with z, keeps a report set back to New current, and marks no duplicate on a quick Enter", async () => {
    const prefix = `Next ${engine.name} ${++serial}`
    const wallet = `GNEXT${engine.name.toUpperCase()}${serial}`
    const three = [await listing(`${prefix} one`), await listing(`${prefix} two`), await listing(`${prefix} three`)][2]!
    const reported = await report(`${prefix} report`, wallet)
    const { page, errors } = await openSignedIn(product, moderator, "/triage?order=newest")
    await desk(page).locator(`.triage-card[aria-label="${wallet}"]`).waitFor()
    await linkLive(page)
    await focusItem(page, `${prefix} three`)
    // One key a decision: approved, off the desk, the next item current.
    await page.keyboard.press("a")
    await currentIs(page, `${prefix} two`)
    await desk(page).locator(`.triage-card[aria-label="${prefix} three"]`).waitFor({ state: "detached" })
    await expect.poll(() => statusOf("listing", three)).toBe("decided")
    // z: the decision undone on the server, the item back on the desk and current.
    await undoneBack(page, `${prefix} three`, three)
    // A quick Enter on the duplicate question marks nothing: nothing is chosen until the person chooses.
    await page.keyboard.press("m")
    const search = page.getByRole("dialog").getByLabel("Find the item it repeats")
    await expect.poll(() => search.evaluate((field) => field === document.activeElement)).toBe(true)
    await page.keyboard.press("Enter")
    await expect.poll(() => fieldMessage(page.getByRole("dialog").getByLabel("The item it repeats", { exact: true }))).toBe("The item it repeats is required")
    await page.keyboard.press("Escape")
    await page.getByRole("dialog").waitFor({ state: "detached" })
    // Under review is a decision; back to New is not: the report stays current, and the desk says so.
    await focusItem(page, `${prefix} report`)
    await page.keyboard.press("2")
    await currentIs(page, `${prefix} three`)
    await shownStatus(page, wallet, "under_review").waitFor()
    await page.keyboard.press("k")
    await currentIs(page, wallet)
    await page.keyboard.press("1")
    await page
      .getByRole("status")
      .filter({ hasText: `${wallet} is back to New: not a decision, so it stays current.` })
      .waitFor()
    await expect.poll(async () => (await record(`/api/report-scam/${reported}`)).report?.status).toBe("new")
    await currentIs(page, wallet)
    expect(await statusOf("listing", three)).toBe("pending")
    expect(errors).toEqual([])
  })

  it("keeps an undone item current when a page read before the undo answers after it came back", async () => {
    const prefix = `Late ${engine.name} ${++serial}`
    await listing(`${prefix} one`)
    await listing(`${prefix} two`)
    const three = await listing(`${prefix} three`)
    const { page, errors } = await openSignedIn(product, moderator, "/triage?order=newest")
    await desk(page).locator(`.triage-card[aria-label="${prefix} three"]`).waitFor()
    await linkLive(page)
    // The desk's reads from here are answered by the server at once and handed to the page later.
    const held: Array<() => Promise<void>> = []
    let holding = true
    const deskRead = /\/api\/admin\/triage(\?|$)/
    await page.route(deskRead, async (route: Route) => {
      if (!holding) return route.fallback()
      const response = await route.fetch()
      // Only a read answered without the item is held: one made before the decision has it still.
      if (!holding || (await response.text()).includes(`${prefix} three`)) return route.fulfill({ response })
      held.push(() => route.fulfill({ response }))
    })
    await focusItem(page, `${prefix} three`)
    await page.keyboard.press("a")
    await currentIs(page, `${prefix} two`)
    await expect.poll(() => statusOf("listing", three)).toBe("decided")
    // The decision's news has the desk read its items again: that answer, without the item, is held.
    await expect.poll(() => held.length).toBeGreaterThan(0)
    holding = false
    await undoneBack(page, `${prefix} three`, three)
    // The read from before the undo answers now, without the item, and the desk reads again for
    // the undo's news it lacks: the item stays, current, through both.
    let answers = 0
    page.on("requestfinished", (request) => void (deskRead.test(request.url()) && answers++))
    const late = held.length
    for (const answer of held.splice(0)) await answer()
    await expect.poll(() => answers).toBeGreaterThan(late)
    await currentIs(page, `${prefix} three`)
    await desk(page).locator(`.triage-card[aria-label="${prefix} three"]`).waitFor()
    expect(errors).toEqual([])
  })

  it("shows the current report's related reports beside the desk; resolving one offers the others, and o selects them for one key", async () => {
    const wallet = `GRELATED${engine.name.toUpperCase()}${++serial}`
    const ids = [await report("First of three", wallet), await report("Second of three", wallet), await report("Third of three", wallet)]
    await report("Unrelated", `GOTHER${serial}`)
    const { page, errors } = await openSignedIn(product, moderator, "/triage?area=scam-report&order=newest")
    const detail = page.getByRole("complementary", { name: "The current item" })
    await desk(page).locator(`.triage-card[aria-label="${wallet}"]`).first().waitFor()
    // The browser's store is open: a decision shows on its card at once.
    await page.locator(".sync-status").waitFor({ state: "attached" })
    await focusItem(page, "Third of three")
    await detail.getByText("2 related reports", { exact: true }).waitFor()
    await detail.getByText("First of three", { exact: false }).waitFor()
    await page.keyboard.press("3")
    await page.getByRole("status").filter({ hasText: "2 related reports are still open: o selects them" }).waitFor()
    await page.keyboard.press("o")
    await page.getByText("2 selected").waitFor()
    await page.keyboard.press("3")
    for (const id of ids) await expect.poll(async () => (await record(`/api/report-scam/${id}`)).report?.status, { timeout: 10_000 }).toBe("resolved")
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("takes a decision made in another console off the desk, and puts a new submission on it, without a reload", async () => {
    const prefix = `Live ${engine.name} ${++serial}`
    const first = await listing(`${prefix} first`)
    // Newest first: the items other tests left wait above.
    const one = await openSignedIn(product, moderator, "/triage?order=newest")
    const other = await openSignedIn(product, admin, "/triage?order=newest")
    for (const { page } of [one, other]) await desk(page).getByText(`${prefix} first`, { exact: true }).waitFor()
    const approved = await call(product.server.url, "PUT", `/api/admin/listings/${first}`, { token: admin, body: { action: "approve", version: 1 } })
    expect(approved.status, approved.text).toBe(200)
    for (const { page } of [one, other]) await desk(page).getByText(`${prefix} first`, { exact: true }).waitFor({ state: "detached", timeout: 10_000 })
    await report(`${prefix} arrives`, "GLIVEWALLET")
    for (const { page } of [one, other]) await desk(page).getByText(`${prefix} arrives`).waitFor({ timeout: 10_000 })
    expect([...one.errors, ...other.errors]).toEqual([])
    await one.page.context().close()
    await other.page.context().close()
  })

  /** Every call of the page takes longer, as on a slow link (the change stream's too): reads `read` ms, writes `write` ms. */
  const slowLink = (page: Page, read: number, write: number) =>
    page.route("**/api/**", async (route: Route) => {
      await new Promise((resolve) => setTimeout(resolve, route.request().method() === "GET" ? read : write))
      await route.continue().catch(() => undefined)
    })
  /** A decision that asks a reason: its key, the reason typed, Enter. */
  const decideWithReason = async (page: Page, key: string, reason: string) => {
    await page.keyboard.press(key)
    await page.getByRole("dialog").getByLabel("Reason (optional, kept in the notes)").waitFor()
    await page.keyboard.type(reason)
    await page.keyboard.press("Enter")
    await page.getByRole("dialog").waitFor({ state: "detached" })
  }
  /** The card's status, as shown. */
  const shownStatus = (page: Page, title: string, status: string) =>
    desk(page)
      .locator(`.triage-card[aria-label="${title}"]`)
      .locator(".rt-Badge")
      .filter({ hasText: new RegExp(`^${status}$`) })

  it("decides at once with 400 ms added to every read and 1.5 s to every write, keeps deciding with the link cut, and sends it all in order when it is back", async () => {
    const prefix = `Slow ${engine.name} ${++serial}`
    const ids = [await listing(`${prefix} one`), await listing(`${prefix} two`), await listing(`${prefix} three`)]
    const { page, errors } = await openSignedIn(product, moderator, "/triage?area=listing&order=newest")
    await desk(page).getByText(`${prefix} three`, { exact: true }).waitFor()
    await page.locator(".sync-status").waitFor({ state: "attached" })
    await slowLink(page, 400, 1_500)
    await focusItem(page, `${prefix} three`)
    // Approved, off the desk and the next current, before the slow write can be on the server.
    await page.keyboard.press("a")
    await currentIs(page, `${prefix} two`)
    await desk(page).locator(`.triage-card[aria-label="${prefix} three"]`).waitFor({ state: "detached" })
    expect(await statusOf("listing", ids[2]!)).toBe("pending")
    await expect.poll(() => statusOf("listing", ids[2]!), { timeout: 15_000 }).toBe("decided")
    // The link cut: a rejection with its reason and an owner wait, shown, and nothing reaches the server.
    await page.context().setOffline(true)
    await decideWithReason(page, "r", "Written offline")
    await currentIs(page, `${prefix} one`)
    await page.keyboard.press("i")
    await page
      .getByRole("status")
      .getByText(/2 changes are waiting/)
      .waitFor()
    // Decided and left behind, it is off the desk; its decision waits with the other.
    await desk(page).locator(`.triage-card[aria-label="${prefix} two"]`).waitFor({ state: "detached" })
    await desk(page).locator(`.triage-card[aria-label="${prefix} one"]`).getByText("Owner: Mine").waitFor()
    expect(await statusOf("listing", ids[1]!)).toBe("pending")
    await page.context().setOffline(false)
    const rejected = async () =>
      (
        (await call(product.server.url, "GET", `/api/admin/listings?search=${encodeURIComponent(`${prefix} two`)}`, { token: admin })).body.data as {
          listings: ReadonlyArray<{ status: string; moderationNotes: string }>
        }
      ).listings[0]
    await expect.poll(rejected, { timeout: 20_000 }).toMatchObject({ status: "rejected", moderationNotes: "Written offline" })
    const desked = async () =>
      (
        (await call(product.server.url, "GET", "/api/admin/triage?area=listing&order=newest&limit=100", { token: admin })).body.data as {
          items: ReadonlyArray<{ _id: string; ownerId: string | null }>
        }
      ).items.find((item) => item._id === ids[0])?.ownerId
    await expect.poll(desked, { timeout: 20_000 }).not.toBe(null)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("groups related reports on the page, offers the last reasons in the palette, and says what a question's bad answer is", async () => {
    const prefix = `Group ${engine.name} ${++serial}`
    const wallet = `GGROUP${engine.name.toUpperCase()}${serial}`
    const [first, , third] = [
      await report(`${prefix} first`, wallet),
      await report(`${prefix} apart`, `GAPART${serial}`),
      await report(`${prefix} third`, `GTHIRD${serial}`, "Same scam: https://scam.example/group")
    ]
    const fourth = await report(`${prefix} fourth`, `GFOURTH${serial}`, "Also https://scam.example/group")
    const { page, errors } = await openSignedIn(product, moderator, "/triage?area=scam-report&order=newest")
    const titles = async () =>
      (
        await desk(page)
          .locator(".triage-card")
          .evaluateAll((cards) => cards.map((card) => card.getAttribute("aria-label")))
      ).slice(0, 4)
    await desk(page).locator(`.triage-card[aria-label="GFOURTH${serial}"]`).waitFor()
    expect(await titles()).toEqual([`GFOURTH${serial}`, `GTHIRD${serial}`, `GAPART${serial}`, wallet])
    // The evidence's address ties the newest two; grouped, they stay together, and each says so.
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Group related reports")
    await page.keyboard.press("Enter")
    await expect.poll(() => page.url()).toContain("group=related")
    await desk(page).locator(`.triage-card[aria-label="GFOURTH${serial}"]`).getByText("1 related report on this page").waitFor()
    // A report on the same wallet as an earlier one joins it: the earlier test's reports on other wallets do not.
    const again = await report(`${prefix} again`, wallet)
    await desk(page).locator(`.triage-card[aria-label="${wallet}"]`).first().waitFor()
    await expect.poll(titles, { timeout: 10_000 }).toEqual([wallet, wallet, `GFOURTH${serial}`, `GTHIRD${serial}`])
    await page.locator(".sync-status").waitFor({ state: "attached" })
    // A dismissal with a reason typed once; the palette offers it for the next report.
    await focusItem(page, `${prefix} again`)
    await decideWithReason(page, "4", "Known phishing kit")
    // The desk goes on to the other report on its wallet.
    await currentIs(page, wallet)
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Known phishing kit")
    await page.getByRole("option", { name: `Set status Dismissed, “Known phishing kit”: ${wallet}` }).waitFor()
    await page.keyboard.press("Enter")
    for (const id of [again, first])
      await expect
        .poll(async () => (await record(`/api/report-scam/${id}`)).report, { timeout: 15_000 })
        .toMatchObject({ status: "dismissed", adminNotes: "Known phishing kit" })
    // A snooze's time left empty, or past: said under the field, nothing sent (on the next item,
    // where the desk's order puts it once the group is decided).
    await expect.poll(() => current(page).getAttribute("aria-label")).not.toBe(wallet)
    await page.keyboard.press("s")
    const until = page.getByRole("dialog").getByLabel("Back on the desk at")
    await until.focus()
    await page.keyboard.press("Enter")
    await expect.poll(() => fieldMessage(until)).toBe("Back on the desk at is required")
    await page.keyboard.press("Escape")
    await page.getByRole("dialog").waitFor({ state: "detached" })
    expect((await record(`/api/report-scam/${third}`)).report?.snoozedUntil ?? null).toBe(null)
    expect((await record(`/api/report-scam/${fourth}`)).report?.snoozedUntil ?? null).toBe(null)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("shows on the dashboard what waits on each owner, live, and takes one key for many reports on the scam-report screen", async () => {
    const prefix = `Owners ${engine.name} ${++serial}`
    const ids = [await report(`${prefix} a`, `GOWNA${serial}`), await report(`${prefix} b`, `GOWNB${serial}`), await report(`${prefix} c`, `GOWNC${serial}`)]
    const { page, errors } = await openSignedIn(product, moderator, "/")
    const byOwner = page.getByRole("list", { name: "On the triage desk, by owner" })
    const figure = async (who: string) => Number((await byOwner.getByText(new RegExp(`^${who}: `)).textContent())?.replace(/\D/g, ""))
    await byOwner.waitFor()
    const owners = async () =>
      (await call(product.server.url, "GET", "/api/admin/triage/owners", { token: moderator })).body.data as {
        owners: ReadonlyArray<{ _id: string; waiting: number }>
        unowned: number
      }
    const me = (await call(product.server.url, "GET", "/api/admin/auth/check", { token: moderator })).body as { user: { _id: string } }
    const mine = (await owners()).owners.find((owner) => owner._id === me.user._id)?.waiting ?? 0
    await expect.poll(() => figure("Mine")).toBe(mine)
    // Assigned elsewhere: the figure moves without a reload.
    for (const id of ids.slice(0, 2)) {
      const given = await call(product.server.url, "PATCH", `/api/admin/triage/scam-report/${id}`, { token: admin, body: { owner: me.user._id, version: 1 } })
      expect(given.status, given.text).toBe(200)
    }
    await expect.poll(() => figure("Mine"), { timeout: 10_000 }).toBe(mine + 2)
    await expect.poll(async () => figure("Nobody")).toBe((await owners()).unowned)
    // The scam-report screen: x and Shift+J select three, Shift+4 makes them urgent, 3 resolves them.
    await page.goto(`${product.server.url}/scam-reports?search=${encodeURIComponent(prefix)}`)
    const reports = page.getByRole("list", { name: "Scam Reports Management" })
    await reports.getByRole("listitem").nth(2).waitFor()
    await page.locator(".sync-status").waitFor({ state: "attached" })
    await reports.getByRole("listitem").first().focus()
    // What the keys sent and what came back, said if a report is not as expected.
    const sent: Array<string> = []
    page.on("response", (response) => {
      const request = response.request()
      if (request.method() === "PATCH") sent.push(`${request.url().slice(-8)} ${request.postData() ?? ""} → ${response.status()}`)
    })
    await page.keyboard.press("x")
    await page.keyboard.press("Shift+J")
    await page.keyboard.press("Shift+J")
    await page.getByText("3 selected").waitFor()
    await page.keyboard.press("Shift+4")
    // One key for many clears the selection; the same three again, upwards, for the status.
    await page.getByText("3 selected").waitFor({ state: "detached" })
    await page.keyboard.press("x")
    await page.keyboard.press("Shift+K")
    await page.keyboard.press("Shift+K")
    await page.getByText("3 selected").waitFor()
    await page.keyboard.press("3")
    try {
      for (const id of ids)
        await expect
          .poll(async () => (await record(`/api/report-scam/${id}`)).report, { timeout: 15_000 })
          .toMatchObject({ status: "resolved", priority: "urgent" })
    } catch (error) {
      throw new Error(`${String(error)}\nThe changes sent, each → its answer: ${sent.join("; ")}`, { cause: error })
    }
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("sends a second key's change at the right version when the stream brings the first write before its answer", async () => {
    const prefix = `Stream first ${engine.name} ${++serial}`
    const id = await report(`${prefix} report`, `GSTREAM${serial}`)
    const { page, errors } = await openSignedIn(product, moderator, `/scam-reports?search=${encodeURIComponent(prefix)}`)
    const card = page.getByRole("list", { name: "Scam Reports Management" }).getByRole("listitem").first()
    await card.waitFor()
    await page.locator(".sync-status").waitFor({ state: "attached" })
    // The first write reaches the server at once; its answer comes back 1.5 s later, after the stream's news of it.
    let held = false
    await page.route("**/api/report-scam/**", async (route) => {
      if (route.request().method() !== "PATCH" || held) return route.continue()
      held = true
      const response = await route.fetch()
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      await route.fulfill({ response })
    })
    await card.focus()
    await page.keyboard.press("Shift+4")
    await expect.poll(async () => (await record(`/api/report-scam/${id}`)).report?.priority).toBe("urgent")
    await page.keyboard.press("3")
    await expect
      .poll(async () => (await record(`/api/report-scam/${id}`)).report, { timeout: 15_000 })
      .toMatchObject({ status: "resolved", priority: "urgent", version: 3 })
    expect(errors).toEqual([])
    await page.context().close()
  })
})
