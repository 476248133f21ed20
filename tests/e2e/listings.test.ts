import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { listingTexts as t } from "../spec/texts.ts"
import { chromiumWithServer, fieldMessage, openSignedIn, pointerEventsOf } from "../support/browser.ts"
import { csvObjects } from "../support/csv.ts"
import { call } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"

const product = chromiumWithServer()
let admin: string
let moderator: string

beforeAll(async () => {
  admin = await signedInAs(product.server, "admin")
  moderator = await signedInAs(product.server, "moderator")
})

interface Counts {
  readonly total: number
  readonly pending: number
  readonly approved: number
  readonly rejected: number
}

const seed = async (path: string, names: ReadonlyArray<string>) => {
  for (const name of names) {
    const answer = await call(product.server.url, "POST", path, { token: admin, body: { name, description: `About ${name}` } })
    if (answer.status !== 200) throw new Error(answer.text)
  }
}

const serverCounts = async (path: string): Promise<Counts> =>
  ((await call(product.server.url, "GET", `${path}/combined`, { token: admin })).body.data as { counts: Counts }).counts

/** The four count cards as the screen shows them. */
const shownCounts = async (page: Page): Promise<Counts> => {
  const values = await page.getByRole("group", { name: "Listings by status" }).getByRole("button").allTextContents()
  const [total, pending, approved, rejected] = values.map((text) => Number(text.replace(/\D+/g, "")))
  return { total: total!, pending: pending!, approved: approved!, rejected: rejected! }
}

const opened = (token: string, path: string) => openSignedIn(product, token, path, { countPointer: true })

const cardsOf = (page: Page, title: string) => page.getByRole("list", { name: title }).getByRole("listitem")
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.querySelector("[aria-label]")?.getAttribute("aria-label") ?? null)

/** Tabs from the top of the page to the first card, as a keyboard user does. */
const tabToFirstCard = async (page: Page) => {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press("Tab")
    if (
      await page.evaluate(
        () => document.activeElement?.closest("[role=list][aria-label$=Management]") !== null && document.activeElement?.getAttribute("role") === "listitem"
      )
    )
      return
  }
  throw new Error("Tab never reached a card")
}

describe("community and influencer moderation in Chromium", () => {
  it("triages a queue of 30 by keyboard alone: approvals, rejections, a bulk reject and its undo", async () => {
    const names = Array.from({ length: 30 }, (_, index) => `Queue ${String(30 - index).padStart(2, "0")}`)
    await seed("/api/admin/communities", names)
    const { page, errors } = await opened(moderator, "/communities?status=pending")
    const cards = cardsOf(page, t.titles.community)
    await cards.nth(19).waitFor()
    expect(await page.getByRole("button", { name: t.add.community }).count()).toBe(0)
    await tabToFirstCard(page)
    expect(await focusedName(page)).toBe("Queue 01")
    const toast = page.getByRole("status").filter({ hasText: "Undo" })

    // Approve five, reject three: each change shows at once, the focus moves to the next pending card.
    const plan = ["a", "a", "a", "a", "a", "r", "r", "r"] as const
    for (const [step, key] of plan.entries()) {
      const name = `Queue ${String(step + 1).padStart(2, "0")}`
      expect(await focusedName(page)).toBe(name)
      await page.keyboard.press(key)
      await toast.filter({ hasText: `${key === "a" ? "Approved" : "Rejected"} "${name}"` }).waitFor()
    }
    expect(await focusedName(page)).toBe("Queue 09")

    // A selection of five by x and Shift+J, rejected by one key through the bulk call.
    await page.keyboard.press("x")
    for (let n = 0; n < 4; n++) await page.keyboard.press("Shift+J")
    await page.getByText("5 selected").waitFor()
    await page.keyboard.press("Control+k")
    const options = await page.getByRole("option").allTextContents()
    expect(options.some((text) => text.startsWith("Approve 5 selected"))).toBe(true)
    expect(options.some((text) => text.startsWith("Reject 5 selected"))).toBe(true)
    expect(options.some((text) => text.startsWith("Set Pending"))).toBe(false)
    await page.keyboard.press("Escape")
    await page.keyboard.press("r")
    await toast.filter({ hasText: "Rejected 5 listings" }).waitFor()
    // The decisions go out in order behind the keys (docs/architecture.md, "The browser's store").
    await expect.poll(() => serverCounts("/api/admin/communities")).toMatchObject({ pending: 17, approved: 5, rejected: 8 })

    // z undoes the bulk change while its toast is up, and says what it undid.
    await page.keyboard.press("z")
    await page.getByRole("status").filter({ hasText: "Undone: Rejected 5 listings, back to Pending" }).waitFor()
    await page.getByRole("button", { name: "Undo (z)" }).waitFor({ state: "detached" })
    await expect.poll(() => serverCounts("/api/admin/communities")).toEqual({ total: 30, pending: 22, approved: 5, rejected: 3 })
    await expect.poll(() => shownCounts(page)).toEqual(await serverCounts("/api/admin/communities"))
    expect(await pointerEventsOf(page)).toBe(0)
    expect(errors).toEqual([])
  })

  it("lets a moderator undo their own approval with z once its toast is gone: the listing is back in pending", async () => {
    await seed("/api/admin/communities", ["Undo my approval"])
    const { page, errors } = await opened(moderator, "/communities?search=Undo%20my%20approval")
    const card = cardsOf(page, t.titles.community).filter({ hasText: "Undo my approval" })
    await card.getByText("Pending", { exact: true }).waitFor()
    await card.focus()
    await page.keyboard.press("a")
    const toast = page.getByRole("status").filter({ hasText: 'Approved "Undo my approval"' })
    await toast.getByRole("button", { name: "Dismiss" }).click()
    await toast.waitFor({ state: "detached" })
    await card.getByText("Approved", { exact: true }).waitFor()
    // Without the screen's own undo, z undoes the person's last change through the record's history.
    await card.focus()
    await page.keyboard.press("z")
    await page.getByRole("status").getByText('Undone your change to listing "Undo my approval": back as it was at version 1 (now version 3).').waitFor()
    await card.getByText("Pending", { exact: true }).waitFor()
    await expect
      .poll(async () =>
        (
          (await call(product.server.url, "GET", "/api/admin/communities/combined?search=Undo%20my%20approval", { token: admin })).body.data as {
            communities: ReadonlyArray<{ status: string; version: number }>
          }
        ).communities.map((listing) => [listing.status, listing.version])
      )
      .toEqual([["pending", 3]])
    expect(errors).toEqual([])
  })

  it("offers only the legal actions and keys by status, and rolls back a refused change with the server's words", async () => {
    await seed("/api/admin/influencers", ["Solo"])
    const { page, errors } = await opened(admin, "/influencers")
    const card = cardsOf(page, t.titles.influencer).filter({ hasText: "Solo" })
    await card.waitFor()
    expect(await card.getByRole("button").allTextContents()).toEqual([t.approve, t.reject, "Edit", "Delete"])
    await card.getByRole("button", { name: t.approve }).click()
    await card.getByText("Approved", { exact: true }).waitFor()
    await page.getByRole("status").filter({ hasText: "Undo" }).getByRole("button", { name: "Dismiss" }).click()
    await expect.poll(() => card.getByRole("button").allTextContents()).toEqual([t.setPending, "Edit", "Delete"])
    await card.focus()
    await page.keyboard.press("a")
    await page.keyboard.press("r")
    expect(await card.getByText("Approved", { exact: true }).count()).toBe(1)

    // Someone else rejects it meanwhile: the open screen shows it at once (the change stream), and
    // offers what is legal from there — Set Pending is not.
    const current = async () =>
      (
        (await call(product.server.url, "GET", "/api/admin/influencers/combined?search=Solo", { token: admin })).body.data as {
          influencers: Array<{ _id: string; version: number }>
        }
      ).influencers[0]!
    const listing = await current()
    await call(product.server.url, "PUT", `/api/admin/influencers/${listing._id}/status`, {
      token: admin,
      body: { status: "pending", version: listing.version }
    })
    await call(product.server.url, "PUT", `/api/admin/influencers/${listing._id}/status`, {
      token: admin,
      body: { status: "rejected", version: listing.version + 1 }
    })
    await card.getByText("Rejected", { exact: true }).waitFor()
    await expect.poll(() => card.getByRole("button").allTextContents()).toEqual([t.approve, "Edit", "Delete"])
    await page.keyboard.press("p")
    expect(await card.getByText("Rejected", { exact: true }).count()).toBe(1)

    // A decision still on its way when someone else edits the listing is refused: the card is put
    // back as the server has it, and the server's words are said.
    await page.route("**/api/admin/listings/**", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await route.continue()
    })
    await page.keyboard.press("a")
    await card.getByText("Approved", { exact: true }).waitFor()
    const now = await current()
    const edited = await call(product.server.url, "PUT", `/api/admin/influencers/${now._id}`, {
      token: admin,
      body: { name: "Solo", description: "Edited elsewhere", version: now.version }
    })
    expect(edited.status, edited.text).toBe(200)
    await page.getByRole("alert").filter({ hasText: 'Failed to update status: Approved "Solo".' }).waitFor()
    await card.getByText("Rejected", { exact: true }).waitFor()
    expect(errors).toEqual([])
  })

  it("adds, edits and deletes with the spec's form and confirmation, and shows the empty state", async () => {
    const { page, errors } = await opened(admin, "/influencers?search=nothing-matches-this")
    await page.getByText(t.empty).waitFor()
    await page.goto(`${product.server.url}/influencers`)
    await page.getByRole("button", { name: t.add.influencer }).click()
    const dialog = page.getByRole("dialog")
    const save = dialog.getByRole("button", { name: "Save" })
    // Save says what is missing, under each field, and puts the cursor in the first (docs/architecture.md, "Forms").
    await save.click()
    const name = dialog.getByLabel("Name")
    await expect.poll(() => fieldMessage(name)).toBe("Name is required")
    await expect.poll(() => name.evaluate((input) => input === document.activeElement)).toBe(true)
    await name.fill("Pi Daily")
    await save.click()
    const description = dialog.getByLabel("Description")
    await expect.poll(() => fieldMessage(description)).toBe("Description is required")
    expect(await fieldMessage(name)).toBeUndefined()
    await description.fill("Daily videos about Pi")
    await save.click()
    const card = cardsOf(page, t.titles.influencer).filter({ hasText: "Pi Daily" })
    await card.getByText("Pending", { exact: true }).waitFor()
    await card.getByRole("button", { name: "Edit" }).click()
    await dialog.getByLabel("Name").fill("Pi Weekly")
    await dialog.getByRole("button", { name: "Save" }).click()
    const renamed = cardsOf(page, t.titles.influencer).filter({ hasText: "Pi Weekly" })
    await renamed.waitFor()
    await renamed.getByRole("button", { name: "Delete" }).click()
    await page.getByRole("alertdialog").getByText(t.confirmDelete).waitFor()
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click()
    await page.getByRole("alertdialog").waitFor({ state: "detached" })
    await renamed.waitFor({ state: "detached" })
    // Gone at once; gone on the server once the command has gone out.
    await expect
      .poll(() =>
        call(product.server.url, "GET", "/api/admin/influencers/combined?search=Pi%20Weekly", { token: admin }).then(
          (answer) => (answer.body.data as { influencers: ReadonlyArray<unknown> }).influencers
        )
      )
      .toEqual([])
    expect(errors).toEqual([])
  })

  it("exports the filtered queue as CSV from the button and the palette", async () => {
    await seed("/api/admin/communities", ["Export me", "Export me too"])
    const { page, errors } = await opened(admin, "/communities?search=Export%20me")
    await cardsOf(page, t.titles.community).nth(1).waitFor()
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()])
    expect(download.suggestedFilename()).toMatch(/^communities-\d{4}-\d{2}-\d{2}\.csv$/)
    const text = await download.path().then((path) => import("node:fs").then((fs) => fs.readFileSync(path, "utf8")))
    expect(
      csvObjects(text)
        .map((record) => record.name)
        .sort()
    ).toEqual(["Export me", "Export me too"])
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Export communities as CSV")
    const [again] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")])
    expect(again.suggestedFilename()).toMatch(/^communities-/)
    expect(errors).toEqual([])
  })
})
