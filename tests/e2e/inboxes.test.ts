import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { chromiumWithServer, openSignedIn, pointerEventsOf } from "../support/browser.ts"
import { call, freshIp } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"

const product = chromiumWithServer()
let admin: string
let moderator: string

beforeAll(async () => {
  admin = await signedInAs(product.server, "admin")
  moderator = await signedInAs(product.server, "moderator")
})

const counts = async (page: Page, group: string) =>
  (await page.getByRole("group", { name: group }).getByRole("button").allTextContents()).map((text) => Number(text.replace(/\D+/g, "")))
const cardsOf = (page: Page, title: string) => page.getByRole("list", { name: title }).getByRole("listitem")

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
    const { page, errors } = await openSignedIn(product, moderator, "/advertising-inquiries", { countPointer: true })
    const card = cardsOf(page, "Advertising Inquiries").filter({ hasText: company })
    await card.getByText("Payment Completed").waitFor()
    expect(await card.getByText("300 π · Gold plan").count()).toBe(1)
    expect(await card.getByText("Paid").count()).toBe(1)
    const before = await counts(page, "Inquiries by status")

    // c on the focused card: the modal opens and the move goes with the notes as they are.
    await card.focus()
    await page.keyboard.press("c")
    await page
      .getByRole("status")
      .filter({ hasText: `Contacted: ${company}` })
      .waitFor()
    await expect.poll(() => counts(page, "Inquiries by status")).toEqual([before[0], before[1], before[2]! + 1, before[3]])
    expect(await card.getByText("Contacted", { exact: true }).count()).toBe(1)

    // The palette converts the focused card.
    await card.focus()
    await page.keyboard.press("Control+k")
    await page.getByRole("option", { name: new RegExp(`^Mark Converted: ${company}`) }).waitFor()
    expect(await page.getByRole("option", { name: /^Mark as Contacted/ }).count()).toBe(0)
    await page.keyboard.type("Mark Converted")
    await page.keyboard.press("Enter")
    await page
      .getByRole("status")
      .filter({ hasText: `Converted: ${company}` })
      .waitFor()
    const [stored] = (
      (await call(product.server.url, "GET", `/api/advertising-inquiries?search=${encodeURIComponent(company)}`, { token: admin })).body.data as {
        inquiries: Array<{ status: string; adminNotes: string }>
      }
    ).inquiries
    expect(stored).toMatchObject({ status: "converted" })
    await expect.poll(() => counts(page, "Inquiries by status")).toEqual([before[0], before[1], before[2], before[3]! + 1])
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
    const { page, errors } = await openSignedIn(product, admin, `/advertising-inquiries?search=${encodeURIComponent(company)}`)
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
      token: admin,
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
      ((await call(product.server.url, "GET", `/api/advertising-inquiries/${id}`, { token: admin })).body.data as { inquiry: unknown }).inquiry
    ).toMatchObject({ status: "contacted", adminNotes: "Called twice", version: 3 })
    await page.goto(`${product.server.url}/advertising-inquiries?search=nothing-matches-${Date.now()}`)
    await page.getByText("No inquiries found").waitFor()
    expect(errors).toEqual([])
  })
})

describe("core-team contacts in Chromium", () => {
  it("a public message appears; an admin adds, edits, sets a status by key and deletes; a moderator handles only", async () => {
    const subject = `Integration ${Date.now()}`
    const posted = await call(product.server.url, "POST", "/api/core-team-contact", {
      ip: freshIp(),
      body: { contactInfo: { name: "Public Person", role: "Founder", email: "public@example.com" }, inquiry: { subject, details: "Please call us" } }
    })
    expect(posted.status).toBe(200)
    const { page, errors } = await openSignedIn(product, admin, "/core-team")
    const cards = cardsOf(page, "Core Team Contacts")
    const publicCard = cards.filter({ hasText: subject })
    await publicCard.getByText("Partnership Proposal").waitFor()

    // 3 on the focused card: responded, stamped by the server.
    await publicCard.focus()
    await page.keyboard.press("3")
    await publicCard.getByText("Responded", { exact: true }).waitFor()
    const listed = async (search: string) =>
      (
        (await call(product.server.url, "GET", `/api/core-team-contact?search=${encodeURIComponent(search)}`, { token: admin })).body.data as {
          contacts: Array<{
            status: string
            respondedAt: string | null
            resolvedAt: string | null
            inquiry: { subject: string }
            expectedResponseTime: number
            followUpRequired: boolean
          }>
        }
      ).contacts
    expect((await listed(subject))[0]).toMatchObject({ status: "responded" })
    expect((await listed(subject))[0]!.respondedAt).not.toBeNull()

    // The palette offers the other statuses of the focused contact: resolved, stamped too.
    await publicCard.focus()
    await page.keyboard.press("Control+k")
    await page.getByRole("option", { name: /^Set status Resolved: Public Person/ }).waitFor()
    expect(await page.getByRole("option", { name: /^Set status Responded: / }).count()).toBe(0)
    await page.keyboard.type("Set status Resolved")
    await page.keyboard.press("Enter")
    await publicCard.getByText("Resolved", { exact: true }).waitFor()
    expect((await listed(subject))[0]!.status).toBe("resolved")

    // Add: Create names the required fields still empty, under each, and goes to the first;
    // the checkbox and the hours are real controls.
    await page.getByRole("button", { name: "Add New Contact" }).click()
    const form = page.getByRole("form", { name: "Add New Core Team Contact" })
    const create = form.getByRole("button", { name: "Create" })
    await create.click()
    await form.getByText("Contact Name is required").waitFor()
    await form.getByText("Details is required").waitFor()
    expect(await form.getByLabel("Contact Name", { exact: true }).evaluate((input) => input === document.activeElement)).toBe(true)
    const added = `Added ${Date.now()}`
    await form.getByLabel("Contact Name", { exact: true }).fill("Ada")
    await form.getByLabel("Role", { exact: true }).fill("CTO")
    await form.getByLabel("Subject", { exact: true }).fill(added)
    await form.getByLabel("Details", { exact: true }).fill("Wants a call")
    await form.getByLabel("Expected Response Time (hours)").fill("24")
    await form.getByLabel("Follow Up Required").click()
    await create.click()
    await form.waitFor({ state: "detached" })
    expect((await listed(added))[0]).toMatchObject({ expectedResponseTime: 24, followUpRequired: true, status: "new" })

    // Edit and Update.
    const addedCard = cards.filter({ hasText: added })
    await addedCard.getByRole("button", { name: "Edit" }).click()
    const edit = page.getByRole("form", { name: "Edit Core Team Contact" })
    await edit.getByLabel("Subject", { exact: true }).fill(`${added} renamed`)
    await edit.getByRole("button", { name: "Update" }).click()
    await edit.waitFor({ state: "detached" })
    await cards.filter({ hasText: `${added} renamed` }).waitFor()

    // Delete, confirmed with the spec's words.
    await cards
      .filter({ hasText: `${added} renamed` })
      .getByRole("button", { name: "Delete" })
      .click()
    const confirm = page.getByRole("alertdialog")
    await confirm.getByText("Are you sure you want to delete this core team contact?").waitFor()
    await confirm.getByRole("button", { name: "Delete" }).click()
    await confirm.waitFor({ state: "detached" })
    await cards.filter({ hasText: `${added} renamed` }).waitFor({ state: "detached" })
    expect(await listed(added)).toEqual([])

    // A moderator handles: no Add, no Delete, content fields read-only.
    const moderated = await openSignedIn(product, moderator, `/core-team?search=${encodeURIComponent(subject)}`)
    const card = cardsOf(moderated.page, "Core Team Contacts").filter({ hasText: subject })
    await card.waitFor()
    expect(await moderated.page.getByRole("button", { name: "Add New Contact" }).count()).toBe(0)
    expect(await card.getByRole("button", { name: "Delete" }).count()).toBe(0)
    await card.getByRole("button", { name: "Edit" }).click()
    const handling = moderated.page.getByRole("form", { name: "Edit Core Team Contact" })
    expect(await handling.getByLabel("Subject", { exact: true }).isDisabled()).toBe(true)
    await handling.getByLabel("Response", { exact: true }).fill("We called back")
    await handling.getByRole("button", { name: "Update" }).click()
    await handling.waitFor({ state: "detached" })
    await moderated.page.goto(`${product.server.url}/core-team?search=nothing-${Date.now()}`)
    await moderated.page.getByText("No core team contacts found").waitFor()
    expect(errors).toEqual([])
    expect(moderated.errors).toEqual([])
  })
})
