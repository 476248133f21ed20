import { describe, expect, it } from "vitest"
import { openSignedIn, pointerEventsOf, linkLive } from "../support/browser.ts"
import { call, freshIp } from "../support/http.ts"
import { cardsOf, countsOf, inboxInChromium } from "../support/inboxes.ts"
import { linkTexts, listTexts } from "../spec/texts.ts"

const { product, tokens } = inboxInChromium()

describe("advertising inquiries in Chromium", () => {
  it("a paid public inquiry appears with its payment, is marked contacted by keyboard and converted from the palette, and the counts move", async () => {
    const company = `Orbit Wallet ${Date.now()}`
    const submitted = await call(product.server.url, "POST", "/api/advertising-inquiries", {
      ip: freshIp(),
      body: {
        companyName: company,
        contactName: "Grace",
        email: "grace@example.com",
        industry: "Wallet Services",
        budget: "5000 Pi",
        paymentId: "pay_1",
        txid: "tx_1",
        amount: 300,
        selectedPlan: "Gold",
        website: "https://orbit.example.com"
      }
    })
    expect(submitted.status).toBe(200)
    const { page, errors } = await openSignedIn(product, tokens.moderator, "/advertising-inquiries", { countPointer: true })
    const card = cardsOf(page, "Advertising Inquiries").filter({ hasText: company })
    await card.getByText("Payment Completed").waitFor()
    expect(await card.getByText("300 π · Gold plan").count()).toBe(1)
    expect(await card.getByText("Paid").count()).toBe(1)
    const before = await countsOf(page, "Inquiries by status")

    const stored = async () =>
      (
        (await call(product.server.url, "GET", `/api/advertising-inquiries?search=${encodeURIComponent(company)}`, { token: tokens.admin })).body.data as {
          inquiries: Array<{ status: string; adminNotes: string }>
        }
      ).inquiries[0]?.status

    // c on the focused card moves it at once, with its notes as they are: no modal, no read of the list.
    await card.focus()
    await page.keyboard.press("c")
    await card.getByText("Contacted", { exact: true }).waitFor()
    expect(await page.getByRole("dialog").count()).toBe(0)
    await expect.poll(() => countsOf(page, "Inquiries by status")).toEqual([before[0], before[1], before[2]! + 1, before[3]])
    await expect.poll(stored).toBe("contacted")

    // The palette converts the focused card.
    await card.focus()
    await page.keyboard.press("Control+k")
    await page.getByRole("option", { name: new RegExp(`^Mark Converted: ${company}`) }).waitFor()
    expect(await page.getByRole("option", { name: /^Mark as Contacted/ }).count()).toBe(0)
    await page.keyboard.type("Mark Converted")
    await page.keyboard.press("Enter")
    await card.getByText("Converted", { exact: true }).waitFor()
    await expect.poll(stored).toBe("converted")
    await expect.poll(() => countsOf(page, "Inquiries by status")).toEqual([before[0], before[1], before[2], before[3]! + 1])
    expect(await pointerEventsOf(page)).toBe(0)
    expect(errors).toEqual([])
  })

  it("keeps the modal open with the spec's failure when the inquiry changed meanwhile, retries with the notes typed, and shows the empty state", async () => {
    const company = `Stale Co ${Date.now()}`
    const answer = await call(product.server.url, "POST", "/api/advertising-inquiries", {
      ip: freshIp(),
      body: { companyName: company, contactName: "Ann", email: "ann@example.com", industry: "Gaming" }
    })
    const id = (answer.body.data as { _id: string })._id
    const { page, errors } = await openSignedIn(product, tokens.admin, `/advertising-inquiries?search=${encodeURIComponent(company)}`)
    const card = cardsOf(page, "Advertising Inquiries").filter({ hasText: company })
    await card.getByRole("button", { name: "View" }).click()
    const dialog = page.getByRole("dialog")
    // Another admin saves notes while this move is on its way: the server refuses it as stale.
    const held: Array<import("playwright-core").Route> = []
    await page.route("**/api/advertising-inquiries/*", (route) => (route.request().method() === "PUT" ? void held.push(route) : route.continue()))
    await dialog.getByRole("button", { name: "Mark as Contacted" }).click()
    await dialog.getByRole("button", { name: "Updating..." }).waitFor()
    await expect.poll(() => held.length).toBe(1)
    await call(product.server.url, "PUT", `/api/advertising-inquiries/${id}`, {
      token: tokens.admin,
      body: { status: "pending", adminNotes: "elsewhere", version: 1 }
    })
    await held[0]!.continue()
    await page.unroute("**/api/advertising-inquiries/*")
    await dialog.getByRole("alert").filter({ hasText: "Failed to update inquiry: This inquiry was changed by someone else" }).waitFor()
    // The notes typed stay; the reloaded copy replaces the stale one, so trying again goes through, notes included.
    await dialog.getByLabel("Admin Notes").fill("Called twice")
    await dialog.getByRole("button", { name: "Mark as Contacted" }).click()
    await page
      .getByRole("status")
      .filter({ hasText: `Contacted: ${company}` })
      .waitFor()
    expect(
      ((await call(product.server.url, "GET", `/api/advertising-inquiries/${id}`, { token: tokens.admin })).body.data as { inquiry: unknown }).inquiry
    ).toMatchObject({ status: "contacted", adminNotes: "Called twice", version: 3 })
    await page.goto(`${product.server.url}/advertising-inquiries?search=nothing-matches-${Date.now()}`)
    await page.getByText("No inquiries found").waitFor()
    expect(errors).toEqual([])
  })

  it("with the link cut, closes the details on Mark as Contacted, shows the card contacted and waiting, and sends the move with the notes when the link is back", async () => {
    const company = `Offline Co ${Date.now()}`
    const answer = await call(product.server.url, "POST", "/api/advertising-inquiries", {
      ip: freshIp(),
      body: { companyName: company, contactName: "Olu", email: "olu@example.com", industry: "Gaming" }
    })
    expect(answer.status, answer.text).toBe(200)
    const id = (answer.body.data as { _id: string })._id
    const stored = async () => {
      const { status, adminNotes, version } = (
        (await call(product.server.url, "GET", `/api/advertising-inquiries/${id}`, { token: tokens.admin })).body.data as {
          readonly inquiry: { readonly status: string; readonly adminNotes: string; readonly version: number }
        }
      ).inquiry
      return { status, adminNotes, version }
    }
    const before = await stored()
    expect(before.status).toBe("pending")
    const { page, errors } = await openSignedIn(product, tokens.admin, `/advertising-inquiries?search=${encodeURIComponent(company)}`)
    const card = cardsOf(page, "Advertising Inquiries").filter({ hasText: company })
    await card.waitFor()
    await linkLive(page)
    await page.context().setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await card.getByRole("button", { name: "View" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByLabel("Admin Notes").fill("Called while the link was down")
    await dialog.getByRole("button", { name: "Mark as Contacted" }).click()
    // Kept in the browser, the move is done for the person: the modal closes and the card shows it, waiting.
    await dialog.waitFor({ state: "detached" })
    await card.getByText("Contacted", { exact: true }).waitFor()
    await card.getByText(listTexts.waiting).waitFor()
    await page.getByRole("status").getByText("1 change is waiting: they are sent, in order, when the connection is back.").waitFor()
    expect(await stored()).toEqual(before)
    await page.context().setOffline(false)
    await expect.poll(stored, { timeout: 20_000 }).toEqual({ status: "contacted", adminNotes: "Called while the link was down", version: before.version + 1 })
    await page.getByText(/waiting: they are sent/).waitFor({ state: "detached" })
    await card.getByText(listTexts.waiting).waitFor({ state: "detached" })
    expect(await card.getByText("Contacted", { exact: true }).count()).toBe(1)
    expect(errors).toEqual([])
    await page.context().close()
  })
})
