import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { chromiumWithServer, openSignedIn, pointerEventsOf } from "../support/browser.ts"
import { call, freshIp } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"

/**
 * Six everyday tasks done from the dashboard with the keyboard alone, keys counted (the
 * targets, docs/architecture.md "Keys on a list"): no pointer, and no Tab but between the fields
 * of a form, which counts like any key. Text typed into fields counts one key a character and is
 * measured apart, as the targets are "the text + n".
 */
const product = chromiumWithServer()
let token: string

beforeAll(async () => {
  token = await signedInAs(product.server, "super_admin")
})

/** The keys a task takes: each press (a chord is one) and each character typed. */
const keyboard = (page: Page) => {
  let keys = 0
  let typed = 0
  return {
    press: async (key: string) => {
      keys++
      await page.keyboard.press(key)
    },
    type: async (text: string) => {
      typed += text.length
      await page.keyboard.type(text)
    },
    get keys() {
      return keys
    },
    get typed() {
      return typed
    }
  }
}

const fromDashboard = async () => {
  const { page, errors } = await openSignedIn(product, token, "/", { countPointer: true })
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
  return { page, errors, keys: keyboard(page) }
}

const ends = async (page: Page, errors: ReadonlyArray<string>) => {
  expect(await pointerEventsOf(page)).toBe(0)
  expect(errors).toEqual([])
  await page.context().close()
}

const get = (path: string) => call(product.server.url, "GET", path, { token }).then((answer) => answer.body)

describe("keyboard-only tasks from the dashboard, keys counted", () => {
  it("approves a pending community in at most 5 keys", async () => {
    const submitted = await call(product.server.url, "POST", "/api/listings/community", {
      ip: freshIp(),
      body: { name: "Pi Keyboard Club", description: "Meets on Fridays" }
    })
    const id = (submitted.body.data as { listing: { _id: string } }).listing._id
    const { page, errors, keys } = await fromDashboard()
    await keys.press("g")
    await keys.press("o")
    await page.getByRole("listitem").filter({ hasText: "Pi Keyboard Club" }).waitFor()
    await keys.press("a")
    await expect
      .poll(
        async () =>
          ((await get(`/api/admin/listings?search=Keyboard%20Club`)).data as { listings: ReadonlyArray<{ _id: string; status: string }> }).listings.find(
            (row) => row._id === id
          )?.status
      )
      .toBe("approved")
    console.log(`approve a pending community: ${keys.keys} keys`)
    expect(keys.keys).toBeLessThanOrEqual(5)
    await ends(page, errors)
  })

  it("sets one scam report's status and priority in at most 6 keys", async () => {
    const reported = await call(product.server.url, "POST", "/api/report-scam", {
      ip: freshIp(),
      body: { scamType: "phishing", description: "A fake airdrop page" }
    })
    const id = (reported.body.data as { _id: string })._id
    const { page, errors, keys } = await fromDashboard()
    await keys.press("g")
    await keys.press("r")
    await page.getByRole("listitem").filter({ hasText: "A fake airdrop page" }).waitFor()
    await keys.press("2")
    await keys.press("Shift+Digit4")
    await expect
      .poll(async () => ((await get(`/api/report-scam/${id}`)).data as { report: { status: string; priority: string } }).report)
      .toMatchObject({ status: "under_review", priority: "urgent" })
    console.log(`one report's status and priority: ${keys.keys} keys`)
    expect(keys.keys).toBeLessThanOrEqual(6)
    await ends(page, errors)
  })

  it("marks an inquiry contacted with a 25-character note in at most the note + 6 keys", async () => {
    const form = {
      companyName: "Keyboard Ads Ltd",
      contactName: "Ada",
      email: "ada@example.com",
      industry: "Wallet Services",
      budget: "1000-5000 Pi",
      selectedPlan: "Premium"
    }
    const sent = await call(product.server.url, "POST", "/api/advertising-inquiries", { ip: freshIp(), body: form })
    const id = (sent.body.data as { _id: string })._id
    const note = "Called, sending the deck."
    expect(note).toHaveLength(25)
    const { page, errors, keys } = await fromDashboard()
    await keys.press("g")
    await keys.press("a")
    await page.getByRole("listitem").filter({ hasText: "Keyboard Ads Ltd" }).waitFor()
    await keys.press("Enter")
    await page.getByRole("dialog").getByText("Keyboard Ads Ltd").first().waitFor()
    await keys.type(note)
    await keys.press("Control+Enter")
    await expect
      .poll(async () => ((await get(`/api/advertising-inquiries/${id}`)).data as { inquiry: { status: string; adminNotes: string } }).inquiry)
      .toMatchObject({ status: "contacted", adminNotes: note })
    console.log(`an inquiry contacted with a note: note + ${keys.keys} keys`)
    expect(keys.keys).toBeLessThanOrEqual(6)
    await ends(page, errors)
  })

  it("creates and publishes a post with a featured image URL in at most title + body + URL + 12 keys", async () => {
    const title = "Keys first"
    const body = "Every action one key away."
    const image = "https://example.com/cover.png"
    const { page, errors, keys } = await fromDashboard()
    await keys.press("g")
    await keys.press("b")
    await page.getByRole("table", { name: "Blog Management" }).waitFor()
    await keys.press("n")
    await page.getByRole("heading", { level: 1, name: "Create New Post" }).waitFor()
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? "")).toMatch(/Title/)
    await keys.type(title)
    // The editor's code loads while the title is typed; a person tabs on once it shows (these keys
    // come faster than a slow machine loads it, and a Tab before it is there lands on the excerpt).
    await page.locator(".bn-editor").waitFor()
    // Tab: the toolbar (one stop), Tab: the body.
    await keys.press("Tab")
    await keys.press("Tab")
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.isContentEditable === true)).toBe(true)
    await keys.type(body)
    // Escape leaves the body for the excerpt; Tab: the featured image's URL.
    await keys.press("Escape")
    await keys.press("Tab")
    await keys.type(image)
    await keys.press("Control+Enter")
    await expect
      .poll(
        async () => ((await get("/api/blog/posts?search=Keys%20first")).posts as ReadonlyArray<{ status: string; featuredImage: string; title: string }>)[0]
      )
      .toMatchObject({ title, status: "published", featuredImage: image })
    console.log(`a published post with a featured image: title + body + URL + ${keys.keys} keys`)
    expect(keys.keys).toBeLessThanOrEqual(12)
    await ends(page, errors)
  })

  it("adds a CEX address in at most its fields + 5 keys", async () => {
    const { page, errors, keys } = await fromDashboard()
    await keys.press("g")
    await keys.press("x")
    await page.getByRole("table", { name: "CEX Addresses" }).waitFor()
    await keys.press("n")
    await page.getByRole("dialog", { name: "Add Address" }).waitFor()
    await keys.type("keyboard-exchange")
    await keys.press("Tab")
    await keys.type("Keyboard Exchange")
    await keys.press("Enter")
    await expect
      .poll(async () =>
        ((await get("/api/admin/addresses/cex?search=keyboard-exchange")).data as { addresses: ReadonlyArray<{ name: string }> }).addresses.map(
          (row) => row.name
        )
      )
      .toEqual(["Keyboard Exchange"])
    console.log(`a CEX address: fields + ${keys.keys} keys`)
    expect(keys.keys).toBeLessThanOrEqual(5)
    await ends(page, errors)
  })

  it("disables an admin in at most 8 keys", async () => {
    await product.server.sql(addAdmin("taylor@example.com", "admin"))
    const { page, errors, keys } = await fromDashboard()
    await keys.press("g")
    await keys.press("m")
    await page.getByRole("table", { name: "Admin Users" }).getByText("taylor@example.com").waitFor()
    // By e-mail: the first admin, the signed-in one, then Taylor, two rows down.
    await keys.press("j")
    await keys.press("j")
    await keys.press("Delete")
    await page.getByRole("alertdialog").getByText("taylor@example.com").waitFor()
    // The confirmation opens on its safe button; the key that asked confirms.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Cancel")
    await keys.press("Delete")
    await expect
      .poll(async () => ((await get("/api/admin/users?search=taylor")).data as { users: ReadonlyArray<{ disabled: boolean }> }).users[0]?.disabled)
      .toBe(true)
    console.log(`disable an admin: ${keys.keys} keys`)
    expect(keys.keys).toBeLessThanOrEqual(8)
    await ends(page, errors)
  })
})
