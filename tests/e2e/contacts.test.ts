import { describe, expect, it } from "vitest"
import { openSignedIn } from "../support/browser.ts"
import { call, freshIp } from "../support/http.ts"
import { cardsOf, inboxInChromium } from "../support/inboxes.ts"
import { linkTexts, listTexts, openRecordTexts } from "../spec/texts.ts"
import type { Route } from "playwright-core"

const { product, tokens } = inboxInChromium()

/** A message through the public form, as the site sends it. */
const postPublicly = async (name: string, subject: string) => {
  const posted = await call(product.server.url, "POST", "/api/core-team-contact", {
    ip: freshIp(),
    body: { contactInfo: { name, role: "Founder", email: "public@example.com" }, inquiry: { subject, details: "Please call us" } }
  })
  expect(posted.status).toBe(200)
}

describe("core-team contacts in Chromium", () => {
  it("a public message appears; an admin adds, edits, sets a status by key and deletes; a moderator handles only", async () => {
    const subject = `Integration ${Date.now()}`
    await postPublicly("Public Person", subject)
    const { page, errors } = await openSignedIn(product, tokens.admin, "/core-team")
    const cards = cardsOf(page, "Core Team Contacts")
    const publicCard = cards.filter({ hasText: subject })
    await publicCard.getByText("Partnership Proposal").waitFor()

    // 3 on the focused card: responded, stamped by the server.
    await publicCard.focus()
    await page.keyboard.press("3")
    await publicCard.getByText("Responded", { exact: true }).waitFor()
    const listed = async (search: string) =>
      (
        (await call(product.server.url, "GET", `/api/core-team-contact?search=${encodeURIComponent(search)}`, { token: tokens.admin })).body.data as {
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
    // The card says it at once (a command: docs/architecture.md, "The browser's store"); the server a moment later.
    await expect.poll(async () => (await listed(subject))[0]?.status).toBe("responded")
    expect((await listed(subject))[0]!.respondedAt).not.toBeNull()

    // The palette offers the other statuses of the focused contact: resolved, stamped too.
    await publicCard.focus()
    await page.keyboard.press("Control+k")
    await page.getByRole("option", { name: /^Set status Resolved: Public Person/ }).waitFor()
    expect(await page.getByRole("option", { name: /^Set status Responded: / }).count()).toBe(0)
    await page.keyboard.type("Set status Resolved")
    await page.keyboard.press("Enter")
    await publicCard.getByText("Resolved", { exact: true }).waitFor()
    await expect.poll(async () => (await listed(subject))[0]?.status).toBe("resolved")

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
    await expect.poll(async () => (await listed(added))[0]).toMatchObject({ expectedResponseTime: 24, followUpRequired: true, status: "new" })

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
    await expect.poll(() => listed(added)).toEqual([])

    // A moderator handles: no Add, no Delete, content fields read-only.
    const moderated = await openSignedIn(product, tokens.moderator, `/core-team?search=${encodeURIComponent(subject)}`)
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

  it("does not call one's own save someone else's change when the stream brings it before the save's answer", async () => {
    const subject = `Own save ${Date.now()}`
    await postPublicly("Slow Answer", subject)
    const { page, errors } = await openSignedIn(product, tokens.admin, "/core-team")
    const cards = cardsOf(page, "Core Team Contacts")
    await cards.filter({ hasText: subject }).waitFor()
    await page.locator('.sync-status[data-link="online"]').waitFor({ state: "attached" })
    await cards.filter({ hasText: subject }).getByRole("button", { name: "Edit" }).click()
    const edit = page.getByRole("form", { name: "Edit Core Team Contact" })
    await edit.getByLabel("Subject", { exact: true }).fill(`${subject} mine`)
    // The server saves at once; its answer reaches the page only when released.
    const held: Array<() => Promise<void>> = []
    await page.route("**/api/core-team-contact/**", async (route: Route) => {
      if (route.request().method() !== "PUT") return route.continue()
      const response = await route.fetch()
      held.push(() => route.fulfill({ response }))
    })
    await edit.getByRole("button", { name: "Update" }).click()
    // The stream has brought the saved contact: the card behind the form shows it.
    await cards.filter({ hasText: `${subject} mine` }).waitFor()
    await expect.poll(() => held.length).toBe(1)
    expect(await page.getByText(openRecordTexts.changedWhileEditing("contact"), { exact: true }).count()).toBe(0)
    for (const release of held) await release()
    await edit.waitFor({ state: "detached" })
    expect(await page.getByText(openRecordTexts.changedWhileEditing("contact"), { exact: true }).count()).toBe(0)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("with the link cut, shows a status key and a saved edit at once, closes the form, and sends both when the link is back", async () => {
    const subject = `Offline handling ${Date.now()}`
    await postPublicly("Offline Person", subject)
    const { page, errors } = await openSignedIn(product, tokens.admin, "/core-team")
    const cards = cardsOf(page, "Core Team Contacts")
    const card = cards.filter({ hasText: subject })
    await card.waitFor()
    await page.locator('.sync-status[data-link="online"]').waitFor({ state: "attached" })
    await page.context().setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    // 3: responded, on the card at once, waiting.
    await card.focus()
    await page.keyboard.press("3")
    await card.getByText("Responded", { exact: true }).waitFor()
    await card.getByText(listTexts.waiting).waitFor()
    await card.getByRole("button", { name: "Edit" }).click()
    const edit = page.getByRole("form", { name: "Edit Core Team Contact" })
    expect(await edit.getByLabel("Status").inputValue()).toBe("responded")
    await edit.getByLabel("Response", { exact: true }).fill("Called back offline")
    await edit.getByLabel("Subject", { exact: true }).fill(`${subject} kept`)
    await edit.getByRole("button", { name: "Update" }).click()
    await edit.waitFor({ state: "detached" })
    await cards
      .filter({ hasText: `${subject} kept` })
      .getByText("Responded", { exact: true })
      .waitFor()
    await page
      .getByRole("status")
      .getByText(/2 changes are waiting/)
      .waitFor()
    await page.context().setOffline(false)
    const saved = async () =>
      (
        (await call(product.server.url, "GET", `/api/core-team-contact?search=${encodeURIComponent(subject)}`, { token: tokens.admin })).body.data as {
          readonly contacts: ReadonlyArray<{
            readonly status: string
            readonly response: string
            readonly inquiry: { readonly subject: string }
            readonly version: number
          }>
        }
      ).contacts.map(({ status, response, inquiry, version }) => ({ status, response, subject: inquiry.subject, version }))
    await expect.poll(saved, { timeout: 20_000 }).toEqual([{ status: "responded", response: "Called back offline", subject: `${subject} kept`, version: 3 }])
    await page.getByText(/waiting: they are sent/).waitFor({ state: "detached" })
    await cards
      .filter({ hasText: `${subject} kept` })
      .getByText(listTexts.waiting)
      .waitFor({ state: "detached" })
    expect(errors).toEqual([])
    await page.context().close()
  })
})
