import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { chromiumWithServer, openSignedIn, pointerEventsOf, linkLive } from "../support/browser.ts"
import { call, freshIp } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"
import { linkTexts, listTexts } from "../spec/texts.ts"

const product = chromiumWithServer()
let admin: string
let moderator: string

beforeAll(async () => {
  admin = await signedInAs(product.server, "admin")
  moderator = await signedInAs(product.server, "moderator")
})

interface Report {
  readonly _id: string
  readonly status: string
  readonly priority: string
  readonly adminNotes: string
  readonly version: number
  readonly description: string
}

const report = async (description: string, scamType = "phishing") => {
  const answer = await call(product.server.url, "POST", "/api/report-scam", {
    ip: freshIp(),
    body: { scamType, description, walletAddress: `G${description.replace(/\W/g, "")}` }
  })
  if (answer.status !== 200) throw new Error(answer.text)
  return (answer.body.data as { _id: string })._id
}

const serverReports = async (query = "") =>
  ((await call(product.server.url, "GET", `/api/report-scam?limit=100${query}`, { token: admin })).body.data as { reports: ReadonlyArray<Report> }).reports

const cards = (page: Page) => page.getByRole("list", { name: "Scam Reports Management" }).getByRole("listitem")
const titleOf = (id: string) => `Report #${id.slice(-8)}`
const focusedTitle = (page: Page) => page.evaluate(() => document.activeElement?.querySelector("[aria-label^='Report #']")?.getAttribute("aria-label") ?? null)

describe("scam reports in Chromium", () => {
  it("triages 25 reports by keyboard alone: statuses, a priority and notes, each shown at once and kept by the server", async () => {
    const ids: Array<string> = []
    for (let n = 1; n <= 25; n++) ids.push(await report(`Triage ${String(n).padStart(2, "0")}`))
    const newest = [...ids].reverse()
    const { page, errors } = await openSignedIn(product, moderator, "/scam-reports?status=new", { countPointer: true })
    await cards(page).nth(19).waitFor()
    await page.getByText("Page 1 of 2").waitFor()
    // On arrival the first card is current, with no Tab.
    await expect.poll(() => focusedTitle(page)).toBe(titleOf(newest[0]!))

    // List reads answer late, as on a loaded machine: the reload after one change lands among the
    // next keys, dropping reports that left "new" while the current one is still kept shown.
    await page.route(/\/api\/report-scam\?/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      await route.continue().catch(() => undefined)
    })
    // 2 = under review, 3 = resolved, 4 = dismissed, each followed by j, typed without waiting:
    // each shows at once, the report stays current (and shown, though it left "new") until j,
    // and the server takes them in order.
    const plan = ["2", "2", "2", "2", "2", "3", "3", "3", "4", "4"]
    for (const key of plan) {
      await page.keyboard.press(key)
      await page.keyboard.press("j")
    }
    // The focus follows the current report in the render the key causes; on a loaded machine that
    // render may come a task later, so it is awaited (a wrong report is still a failure, named by place).
    const placeOf = (title: string | null) => newest.findIndex((id) => titleOf(id) === title)
    await expect.poll(async () => placeOf(await focusedTitle(page)), { timeout: 2_000 }).toBe(10)
    // A status then a priority: both on the one report.
    await page.keyboard.press("2")
    await page.keyboard.press("Shift+Digit4")
    expect(await focusedTitle(page)).toBe(titleOf(newest[10]!))
    await expect.poll(async () => (await serverReports("&status=under_review")).length, { timeout: 10_000 }).toBe(6)
    await expect.poll(async () => (await serverReports("&status=resolved")).length).toBe(3)
    await expect.poll(async () => (await serverReports("&status=dismissed")).length).toBe(2)
    await expect.poll(async () => (await serverReports("&priority=urgent")).map((row) => row._id)).toEqual([newest[10]])
    const focusedCard = cards(page).filter({ has: page.getByLabel(titleOf(newest[10]!)) })
    expect(await focusedCard.getByLabel(`Priority of ${titleOf(newest[10]!)}`).inputValue()).toBe("urgent")

    // n opens the details with the notes; Ctrl+Enter saves them and closes.
    await page.keyboard.press("n")
    const dialog = page.getByRole("dialog")
    await dialog.getByText(titleOf(newest[10]!)).waitFor()
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("notes")
    await page.keyboard.type("Same wallet as the fake giveaway")
    await page.keyboard.press("Control+Enter")
    await dialog.waitFor({ state: "detached" })
    await expect.poll(async () => (await serverReports("&priority=urgent"))[0]?.adminNotes).toBe("Same wallet as the fake giveaway")

    // The count cards are the server's, and the pager has gone with the 11 that left "new".
    const counts = await page.getByRole("group", { name: "Reports by status" }).getByRole("button").allTextContents()
    await expect
      .poll(async () =>
        (await page.getByRole("group", { name: "Reports by status" }).getByRole("button").allTextContents()).map((text) => Number(text.replace(/\D+/g, "")))
      )
      .toEqual([25, 14, 6, 3, 2])
    expect(counts.length).toBe(5)
    // The rows are read again once the changes have landed (docs/architecture.md, "The browser's store").
    await expect.poll(() => page.getByText(/^Page \d+ of \d+$/).count()).toBe(0)
    expect(await pointerEventsOf(page)).toBe(0)
    expect(errors).toEqual([])
  })

  it('announces a report posted by the public as "1 new report" without moving the list or the focus, and refreshes a card another admin changes', async () => {
    const first = await report("Arrival base", "impersonation")
    const { page, errors } = await openSignedIn(product, admin, "/scam-reports?scamType=impersonation")
    const card = cards(page).filter({ has: page.getByLabel(titleOf(first)) })
    await card.waitFor()
    await card.focus()
    // News once the console hears the stream: a report made before it did is in the rows read then
    // (docs/testing.md, "No test fails by chance").
    await linkLive(page)
    const shown = await cards(page).count()
    const arrived = await report("Arrival new", "impersonation")
    // A report of another type is not this list's news.
    await report("Arrival elsewhere", "other")
    const banner = page.getByRole("status").filter({ hasText: "new report" })
    await banner.getByText("1 new report ·").waitFor()
    expect(await cards(page).count()).toBe(shown)
    expect(await focusedTitle(page)).toBe(titleOf(first))
    await banner.getByRole("button", { name: "Show" }).click()
    await cards(page)
      .filter({ has: page.getByLabel(titleOf(arrived)) })
      .waitFor()
    await banner.waitFor({ state: "detached" })
    // The palette offers the same, and the toolbar's Refresh reads the rows, new ones in, the notice gone.
    const byPalette = await report("Arrival by palette", "impersonation")
    await banner.getByText("1 new report ·").waitFor()
    await card.focus()
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Show 1 new report")
    await page.keyboard.press("Enter")
    await cards(page)
      .filter({ has: page.getByLabel(titleOf(byPalette)) })
      .waitFor()
    await banner.waitFor({ state: "detached" })
    const refreshed = await report("Arrival by refresh", "impersonation")
    await banner.getByText("1 new report ·").waitFor()
    await page.getByRole("button", { name: "Refresh" }).click()
    await cards(page)
      .filter({ has: page.getByLabel(titleOf(refreshed)) })
      .waitFor()
    await banner.waitFor({ state: "detached" })

    // Another admin resolves a report shown: its card changes in place, the list stays as it is.
    // (Shown first: a change to a shown report reads the page again, which takes in a report still
    // announced, so the banner's Show would race that read; docs/testing.md, "No test fails by chance".)
    const now = await cards(page).count()
    await call(product.server.url, "PATCH", `/api/report-scam/${first}`, { token: moderator, body: { status: "resolved", version: 1 } })
    await expect.poll(() => card.getByLabel(`Status of ${titleOf(first)}`).inputValue()).toBe("resolved")
    expect(await cards(page).count()).toBe(now)
    expect(errors).toEqual([])
  })

  it("rolls a refused change back under the spec's banner, with details, filters and the empty states", async () => {
    const id = await report("Refused change", "fake_giveaway")
    const { page, errors } = await openSignedIn(product, admin, "/scam-reports?scamType=fake_giveaway")
    const card = cards(page).filter({ has: page.getByLabel(titleOf(id)) })
    await card.waitFor()
    // A change still on its way when someone else changes the report is refused: the card goes
    // back to what the server has, under the spec's banner (a lost link would keep it waiting).
    await page.route("**/api/report-scam/*", async (route) => {
      if (route.request().method() === "PATCH") await new Promise((resolve) => setTimeout(resolve, 1500))
      await route.continue()
    })
    await card.getByLabel(`Status of ${titleOf(id)}`).selectOption("dismissed")
    await expect.poll(() => card.getByLabel(`Status of ${titleOf(id)}`).inputValue()).toBe("dismissed")
    const elsewhere = await call(product.server.url, "PATCH", `/api/report-scam/${id}`, { token: admin, body: { notes: "Seen elsewhere", version: 1 } })
    expect(elsewhere.status, elsewhere.text).toBe(200)
    await page.getByRole("alert").filter({ hasText: "Failed to update report status" }).waitFor()
    await expect.poll(() => card.getByLabel(`Status of ${titleOf(id)}`).inputValue()).toBe("new")
    // The refused change is kept to apply again; the person lets it go.
    await page.getByRole("alert").getByRole("button", { name: "Discard mine" }).click()
    await page.unroute("**/api/report-scam/*")

    await card.getByRole("button", { name: "Details" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByText("Fake Giveaway", { exact: false }).first().waitFor()
    expect(await dialog.getByText(/^198\.18\./).count()).toBe(1)
    await dialog.getByRole("button", { name: "Close" }).click()

    await page.getByLabel("Priority", { exact: true }).selectOption("urgent")
    await page.getByText("No scam reports match the current filters").waitFor()
    expect(page.url()).toContain("priority=urgent")
    await page.goBack()
    await card.waitFor()
    expect(errors).toEqual([])
  })

  it("with the link cut, closes the details on Save notes, shows the card waiting, and sends the notes when the link is back", async () => {
    const id = await report("Offline notes", "suspicious_wallet")
    const onServer = async () => {
      const found = (await serverReports("&scamType=suspicious_wallet")).find((row) => row._id === id)
      return found === undefined ? undefined : { adminNotes: found.adminNotes, version: found.version }
    }
    const before = await onServer()
    expect(before).toEqual({ adminNotes: "", version: 1 })
    const { page, errors } = await openSignedIn(product, admin, "/scam-reports?scamType=suspicious_wallet")
    const card = cards(page).filter({ has: page.getByLabel(titleOf(id)) })
    await card.waitFor()
    await linkLive(page)
    await page.context().setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await card.getByRole("button", { name: "Details" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByText(titleOf(id)).waitFor()
    await dialog.getByLabel("Admin Notes").fill("Checked while the link was down")
    await dialog.getByRole("button", { name: "Save notes" }).click()
    // Kept in the browser, the save is done for the person: the details close, open again with
    // the notes kept, and the card says its change is waiting.
    await dialog.waitFor({ state: "detached" })
    await page.getByRole("status").getByText("1 change is waiting: they are sent, in order, when the connection is back.").waitFor()
    await card.getByRole("button", { name: "Details" }).click()
    expect(await dialog.getByLabel("Admin Notes").inputValue()).toBe("Checked while the link was down")
    await dialog.getByRole("button", { name: "Close" }).click()
    await dialog.waitFor({ state: "detached" })
    await card.getByText(listTexts.waiting).waitFor()
    expect(await onServer()).toEqual(before)
    await page.context().setOffline(false)
    await expect.poll(onServer, { timeout: 20_000 }).toEqual({ adminNotes: "Checked while the link was down", version: 2 })
    await page.getByText(/waiting: they are sent/).waitFor({ state: "detached" })
    await card.getByText(listTexts.waiting).waitFor({ state: "detached" })
    expect(errors).toEqual([])
    await page.context().close()
  })
})
