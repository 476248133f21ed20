import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { chromiumWithServer, openSignedIn, pointerEventsOf } from "../support/browser.ts"
import { signedInAs } from "../support/session.ts"

/**
 * One story by mouse and one by keyboard on each business, startup, project, event and hackathon
 * screen: add through the form, approve, the screen's own toggle, edit, delete with the spec's
 * confirmation. The screens' particular fields have their own tests (ventures, events).
 */
const product = chromiumWithServer()
let admin: string

beforeAll(async () => {
  admin = await signedInAs(product.server, "admin")
})

interface Screen {
  readonly path: string
  readonly title: string
  readonly noun: string
  /** The required fields a person types, by label. */
  readonly fill: Readonly<Record<string, string>>
  readonly toggle: { readonly key: string; readonly button: string; readonly badge: string }
}

const screens: ReadonlyArray<Screen> = [
  {
    path: "/businesses",
    title: "Business Listings",
    noun: "business",
    fill: { Category: "Food", Industry: "Retail" },
    toggle: { key: "t", button: "Hide", badge: "Hidden" }
  },
  { path: "/startups", title: "Startup Listings", noun: "startup", fill: { Category: "Fintech" }, toggle: { key: "t", button: "Hide", badge: "Hidden" } },
  { path: "/projects", title: "Project Listings", noun: "project", fill: { Category: "Tools" }, toggle: { key: "t", button: "Hide", badge: "Hidden" } },
  { path: "/events", title: "Events Management", noun: "event", fill: {}, toggle: { key: "f", button: "Feature", badge: "Featured" } },
  { path: "/hackathons", title: "Hackathons Management", noun: "hackathon", fill: {}, toggle: { key: "f", button: "Feature", badge: "Featured" } }
]

const capitalized = (noun: string) => `${noun[0]!.toUpperCase()}${noun.slice(1)}`

const opened = (path: string) => openSignedIn(product, admin, path, { countPointer: true })

const fillForm = async (page: Page, screen: Screen, name: string) => {
  const dialog = page.getByRole("dialog")
  await dialog.getByLabel("Name", { exact: true }).fill(name)
  for (const [label, value] of Object.entries(screen.fill)) await dialog.getByLabel(label, { exact: true }).fill(value)
  await dialog.getByLabel("Description", { exact: true }).fill(`About ${name}`)
}

describe.each(screens)("$path in Chromium", (screen) => {
  const card = (page: Page, name: string) => page.getByRole("list", { name: screen.title }).getByRole("listitem").filter({ hasText: name })

  it("by mouse: add, approve, toggle, edit and delete", async () => {
    const { page, errors } = await opened(screen.path)
    const name = `Mouse ${screen.noun}`
    await page.getByRole("button", { name: `Add ${capitalized(screen.noun)}` }).click()
    await fillForm(page, screen, name)
    await page.getByRole("dialog").getByRole("button", { name: "Save" }).click()
    const mine = card(page, name)
    await mine.getByText("Pending", { exact: true }).waitFor()
    await mine.getByRole("button", { name: "Approve" }).click()
    await mine.getByText("Approved", { exact: true }).waitFor()
    await mine.getByRole("button", { name: screen.toggle.button, exact: true }).click()
    await mine.getByText(screen.toggle.badge, { exact: true }).waitFor()
    await mine.getByRole("button", { name: "Edit" }).click()
    await page.getByRole("dialog").getByLabel("Description", { exact: true }).fill("Edited by mouse")
    await page.getByRole("dialog").getByRole("button", { name: "Save" }).click()
    await mine.getByText("Edited by mouse").waitFor()
    await mine.getByRole("button", { name: "Delete" }).click()
    await page.getByRole("alertdialog").getByText(`Are you sure you want to delete this ${screen.noun}?`).waitFor()
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click()
    await page.getByRole("alertdialog").waitFor({ state: "detached" })
    await mine.waitFor({ state: "detached" })
    expect(errors).toEqual([])
  })

  it("by keyboard: the palette's New, a, the toggle key, e, Delete", async () => {
    const { page, errors } = await opened(screen.path)
    await page.getByRole("button", { name: `Add ${capitalized(screen.noun)}` }).waitFor()
    const name = `Keys ${screen.noun}`
    await page.keyboard.press("Control+k")
    await page.keyboard.type(`New ${screen.noun}`)
    await page.keyboard.press("Enter")
    await fillForm(page, screen, name)
    await page.getByRole("dialog").getByLabel("Name", { exact: true }).press("Enter")
    await page.getByRole("dialog").waitFor({ state: "detached" })
    const mine = card(page, name)
    await mine.focus()
    await page.keyboard.press("a")
    await mine.getByText("Approved", { exact: true }).waitFor()
    // The toast says the server has it: one change at a time, so the toggle waits for it.
    await page
      .getByRole("status")
      .filter({ hasText: `Approved "${name}"` })
      .waitFor()
    await mine.focus()
    await page.keyboard.press(screen.toggle.key)
    await mine.getByText(screen.toggle.badge, { exact: true }).waitFor()
    await mine.focus()
    await page.keyboard.press("e")
    await page.getByRole("dialog").getByLabel("Description", { exact: true }).fill("Edited by keyboard")
    await page.getByRole("dialog").getByLabel("Name", { exact: true }).press("Enter")
    await mine.getByText("Edited by keyboard").waitFor()
    await mine.focus()
    await page.keyboard.press("Delete")
    await page.getByRole("alertdialog").getByText(`Are you sure you want to delete this ${screen.noun}?`).waitFor()
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await page.getByRole("alertdialog").waitFor({ state: "detached" })
    await mine.waitFor({ state: "detached" })
    expect(await pointerEventsOf(page)).toBe(0)
    expect(errors).toEqual([])
  })
})
