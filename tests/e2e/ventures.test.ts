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
const serverRecord = async (path: string, name: string) => {
  const answer = await call(product.server.url, "GET", `${path}?search=${encodeURIComponent(name)}`, { token: admin })
  const field = path.split("/").at(-1)!
  return ((answer.body.data as Record<string, ReadonlyArray<Record<string, unknown>>>)[field] ?? []).find((row) => row.name === name)
}

describe("business, startup and project screens in Chromium", () => {
  it("a business, by mouse: the form with every field, approval, hiding, the visibility filter, editing and deletion", async () => {
    const { page, errors } = await opened("/businesses")
    await page.getByText("No businesses found").waitFor()
    await page.getByRole("button", { name: "Add Business" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByText("Name, Category, Industry and Description are required.").waitFor()
    const save = dialog.getByRole("button", { name: "Save" })
    await dialog.getByLabel("Name", { exact: true }).fill("Pi Bakery")
    await dialog.getByLabel("Category", { exact: true }).fill("Food")
    await dialog.getByLabel("Industry", { exact: true }).fill("Hospitality")
    // Save says what is missing, under the field, and goes there; nothing is sent.
    await save.click()
    await dialog.getByText("Description is required").waitFor()
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-describedby") ?? "")).toMatch(/-error$/)
    await dialog.getByLabel("Description", { exact: true }).fill("Bread for Pioneers")
    await dialog.getByLabel("Website").fill("ftp://not-a-website")
    await dialog.getByLabel("Founded (year)").fill("2019")
    await dialog.getByLabel("Employees").fill("7")
    await save.click()
    await dialog.getByText("Website must be a URL starting with http:// or https://").waitFor()
    expect(await serverRecord("/api/admin/businesses", "Pi Bakery")).toBeUndefined()
    await dialog.getByLabel("Website").fill("https://bakery.example")
    await save.click()
    await dialog.waitFor({ state: "detached" })
    const card = cards(page, "Business Listings").filter({ hasText: "Pi Bakery" })
    await card.getByText("Food · Hospitality · Founded 2019 · 7 employees").waitFor()
    await card.getByRole("button", { name: "Approve" }).click()
    await card.getByText("Approved", { exact: true }).waitFor()
    await card.getByRole("button", { name: "Hide" }).click()
    await card.getByText("Hidden", { exact: true }).waitFor()
    // Shown at once; the server has both once the commands have gone out (docs/architecture.md, "The browser's store").
    await expect
      .poll(() => serverRecord("/api/admin/businesses", "Pi Bakery"))
      .toMatchObject({
        status: "approved",
        isActive: false,
        employees: 7,
        website: "https://bakery.example"
      })
    await page.getByRole("combobox", { name: "Visibility" }).selectOption("yes")
    await page.getByText("No businesses found").waitFor()
    await page.getByRole("combobox", { name: "Visibility" }).selectOption("no")
    await card.waitFor()
    await card.getByRole("button", { name: "Edit" }).click()
    await dialog.getByLabel("Employees").fill("9")
    await dialog.getByRole("button", { name: "Save" }).click()
    await card.getByText("Food · Hospitality · Founded 2019 · 9 employees").waitFor()
    await card.getByRole("button", { name: "Delete" }).click()
    await page.getByRole("alertdialog").getByText("Are you sure you want to delete this business?").waitFor()
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click()
    // The list is hidden from the accessibility tree while the dialog is open: wait for it to go first.
    await page.getByRole("alertdialog").waitFor({ state: "detached" })
    await card.waitFor({ state: "detached" })
    // Gone at once; gone on the server once the command has gone out.
    await expect.poll(() => serverRecord("/api/admin/businesses", "Pi Bakery")).toBeUndefined()
    expect(errors).toEqual([])
  })

  it("a startup, by keyboard alone: approve, hide with t, edit its stage with e, delete with Delete", async () => {
    for (const name of ["Keyed One", "Keyed Two"]) {
      const made = await call(product.server.url, "POST", "/api/admin/startups", {
        token: admin,
        body: { name, category: "Fintech", stage: "idea", description: "Payments" }
      })
      expect(made.status).toBe(200)
    }
    const { page, errors } = await opened("/startups?search=Keyed")
    const list = cards(page, "Startup Listings")
    await list.nth(1).waitFor()
    await list.first().focus()
    const first = list.first()
    const name = await first.locator("[aria-label]").first().getAttribute("aria-label")
    await page.keyboard.press("a")
    await first.getByText("Approved", { exact: true }).waitFor()
    await page
      .getByRole("status")
      .filter({ hasText: `Approved "${name}"` })
      .waitFor()
    await first.focus()
    await page.keyboard.press("t")
    await first.getByText("Hidden", { exact: true }).waitFor()
    await first.focus()
    await page.keyboard.press("e")
    const dialog = page.getByRole("dialog")
    await dialog.getByLabel("Stage", { exact: true }).focus()
    await page.keyboard.press("ArrowDown")
    // Enter in a text field submits the form (a select does not).
    await page.keyboard.press("Shift+Tab")
    await page.keyboard.press("Enter")
    await dialog.waitFor({ state: "detached" })
    await first.getByText("Fintech · Mvp").waitFor()
    await expect.poll(() => serverRecord("/api/admin/startups", name!)).toMatchObject({ stage: "mvp", status: "approved", isActive: false })
    await first.focus()
    await page.keyboard.press("Delete")
    await page.getByRole("alertdialog").getByText("Are you sure you want to delete this startup?").waitFor()
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await page.getByRole("alertdialog").waitFor({ state: "detached" })
    await expect.poll(() => serverRecord("/api/admin/startups", name!)).toBeUndefined()
    expect(errors).toEqual([])
  })

  it("a project: its status and chip lists in the form, its filter, and the palette's visibility command", async () => {
    const { page, errors } = await opened("/projects")
    await page.getByRole("button", { name: "Add Project" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByLabel("Name", { exact: true }).fill("PiScan")
    await dialog.getByLabel("Category", { exact: true }).fill("Tools")
    await dialog.getByLabel("Status", { exact: true }).selectOption("live")
    await dialog.getByLabel("Description", { exact: true }).fill("A block explorer")
    await dialog.getByLabel("Technologies").fill("TypeScript, Rust")
    await dialog.getByLabel("Technologies").press("Enter")
    await dialog.getByRole("button", { name: "Save" }).click()
    const card = cards(page, "Project Listings").filter({ hasText: "PiScan" })
    await card.getByText("Tools · Live · TypeScript, Rust").waitFor()
    await page.getByRole("combobox", { name: "Project status" }).selectOption("beta")
    await card.waitFor({ state: "detached" })
    await page.getByRole("combobox", { name: "Project status" }).selectOption("live")
    await card.waitFor()
    await card.focus()
    await page.keyboard.press("Control+k")
    await page.keyboard.type('Hide "PiScan"')
    await page.keyboard.press("Enter")
    await card.getByText("Hidden", { exact: true }).waitFor()
    // Shown at once; the server has it once the command has gone out (docs/architecture.md, "The browser's store").
    await expect
      .poll(() => serverRecord("/api/admin/projects", "PiScan"))
      .toMatchObject({ projectStatus: "live", technologies: ["TypeScript", "Rust"], isActive: false })
    expect(errors).toEqual([])
  })
})
