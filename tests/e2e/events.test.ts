import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { chromiumWithServer, openSignedIn } from "../support/browser.ts"
import { call } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"

const product = chromiumWithServer()
let admin: string

beforeAll(async () => {
  admin = await signedInAs(product.server, "admin")
})

const opened = (path: string) => openSignedIn(product, admin, path)

const cards = (page: Page, title: string) => page.getByRole("list", { name: title }).getByRole("listitem")
const serverEntry = async (type: "events" | "hackathons", name: string) => {
  const answer = await call(product.server.url, "GET", `/api/ecosystem?type=${type}&search=${encodeURIComponent(name)}`, { token: admin })
  return ((answer.body.data as Record<string, ReadonlyArray<Record<string, unknown>>>)[type] ?? []).find((row) => row.name === name)
}

describe("events and hackathons in Chromium", () => {
  it("an event, by mouse: dates and place in the form, approval, featuring, the filters, editing and deletion", async () => {
    const { page, errors } = await opened("/events")
    await page.getByText("No events found").waitFor()
    await page.getByRole("button", { name: "Add Event" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByLabel("Name", { exact: true }).fill("Pi Summit")
    await dialog.getByLabel("Description", { exact: true }).fill("The yearly meeting")
    await dialog.getByLabel("Starts").fill("2031-05-04T10:00")
    await dialog.getByLabel("Ends").fill("2031-05-05T18:00")
    await dialog.getByLabel("Location (a place, or online)").fill("online")
    await dialog.getByRole("button", { name: "Save" }).click()
    await dialog.waitFor({ state: "detached" })
    const card = cards(page, "Events Management").filter({ hasText: "Pi Summit" })
    await card.getByText(/online$/).waitFor()
    // Shown at once; on the server once the command has gone out.
    await expect
      .poll(() => serverEntry("events", "Pi Summit"))
      .toMatchObject({
        startsAt: new Date("2031-05-04T10:00").toISOString(),
        endsAt: new Date("2031-05-05T18:00").toISOString(),
        location: "online",
        featured: false,
        status: "pending"
      })
    await card.getByRole("button", { name: "Approve" }).click()
    await card.getByText("Approved", { exact: true }).waitFor()
    await card.getByRole("button", { name: "Feature", exact: true }).click()
    await card.getByText("Featured", { exact: true }).waitFor()
    await page.getByRole("combobox", { name: "When" }).selectOption("past")
    await page.getByText("No events found").waitFor()
    await page.getByRole("combobox", { name: "When" }).selectOption("upcoming")
    await page.getByRole("combobox", { name: "Featured" }).selectOption("yes")
    await card.waitFor()
    await card.getByRole("button", { name: "Edit" }).click()
    expect(await dialog.getByLabel("Starts").inputValue()).toBe("2031-05-04T10:00")
    await dialog.getByLabel("Location (a place, or online)").fill("Lagos")
    await dialog.getByRole("button", { name: "Save" }).click()
    await card.getByText(/Lagos$/).waitFor()
    await card.getByRole("button", { name: "Delete" }).click()
    await page.getByRole("alertdialog").getByText("Are you sure you want to delete this event?").waitFor()
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click()
    await page.getByRole("alertdialog").waitFor({ state: "detached" })
    await card.waitFor({ state: "detached" })
    await expect.poll(() => serverEntry("events", "Pi Summit")).toBeUndefined()
    expect(errors).toEqual([])
  })

  it("a hackathon, by keyboard alone: New hackathon from another screen's palette, then f and a on its card", async () => {
    const { page, errors } = await opened("/generated-addresses")
    await page.getByRole("heading", { name: "Generated Addresses" }).waitFor()
    await page.keyboard.press("Control+k")
    await page.keyboard.type("New hackathon")
    await page.keyboard.press("Enter")
    const dialog = page.getByRole("dialog", { name: "Add Hackathon" })
    await dialog.getByLabel("Name", { exact: true }).waitFor()
    await page.keyboard.type("Pi Hack")
    await page.keyboard.press("Tab")
    await page.keyboard.type("48 hours of building")
    await dialog.getByLabel("Name", { exact: true }).focus()
    await page.keyboard.press("Enter")
    await dialog.waitFor({ state: "detached" })
    expect(new URL(page.url()).pathname).toBe("/hackathons")
    const card = cards(page, "Hackathons Management").filter({ hasText: "Pi Hack" })
    await card.waitFor()
    await card.focus()
    await page.keyboard.press("f")
    await card.getByText("Featured", { exact: true }).waitFor()
    await card.focus()
    await page.keyboard.press("a")
    await card.getByText("Approved", { exact: true }).waitFor()
    await expect.poll(() => serverEntry("hackathons", "Pi Hack")).toMatchObject({ featured: true, status: "approved", type: "hackathon" })
    expect(errors).toEqual([])
  })
})
