import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { addressTexts, directoryScreens, listTexts } from "../spec/texts.ts"
import { chromiumWithServer, newPage, visitInApp } from "../support/browser.ts"
import { call } from "../support/http.ts"
import { signIn } from "../support/session.ts"

const product = chromiumWithServer()
const PHONE = { width: 360, height: 740 }
const email = "phone@example.com"
let token: string

/** Eight CEX addresses with identifiers as long as real ones (56 characters): the widest table. */
const cexIdentifiers = Array.from({ length: 8 }, (_, index) => `G${String(index + 1).padStart(2, "0")}PHONE${"X".repeat(48)}`)
const cexNames = ["Bitmart", "Coinbase", "Gate", "Huobi", "Kraken", "Mexc", "Okx", "Xt"]

/** Every screen shown as a table on a wide screen, and whether its rows have buttons. */
const tableScreens = [
  ...directoryScreens.map((screen) => ({ path: screen.path, buttons: true })),
  { path: "/blog", buttons: true },
  { path: "/activity", buttons: false },
  { path: "/settings/admins", buttons: true },
  { path: "/settings/ips", buttons: true },
  { path: "/settings/sessions", buttons: true }
] as const

beforeAll(async () => {
  await product.server.sql(addAdmin(email, "super_admin"))
  token = await signIn(product.server, email, "super_admin")
  // A second sign-in: the sessions screen has a row with a button (the current one has none).
  await signIn(product.server, email, "super_admin")
  await product.server.sql(addAdmin("colleague@example.com", "admin"))
  const write = async (path: string, body: object) => {
    const answer = await call(product.server.url, "POST", path, { token, body })
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
  }
  for (const [index, identifier] of cexIdentifiers.entries()) await write("/api/admin/addresses/cex", { identifier, name: cexNames[index] })
  await write("/api/admin/addresses/generated", { identifier: `GPHONE${"Y".repeat(50)}`, Name: "A generated address" })
  await write("/api/admin/addresses/core-team", { identifier: `GPHONE${"Z".repeat(50)}`, name: "A core-team address" })
  await write("/api/blog/admin/posts", {
    title: "A post whose title is as long as titles get",
    excerpt: "Read on a phone",
    content: "<p>Body</p>",
    status: "published"
  })
  // Every address may reach the console: the allowed-address screen has a row, and nobody is locked out.
  await write("/api/admin/ip-management", { ip: "0.0.0.0/0", description: "Everyone" })
})

/** The console on a 360 × 740 touch screen, signed in. */
const phone = async () => {
  const { page, context, errors } = await newPage(product.browser, { viewport: PHONE, hasTouch: true, isMobile: true })
  await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
  await page.goto(`${product.server.url}/`)
  await page.getByRole("heading", { level: 1 }).first().waitFor()
  return { page, context, errors }
}

/**
 * What sticks out of a 360-pixel screen on the screen now: every element wider than the viewport
 * or reaching past its right edge, every row button not wholly within the viewport's width, and
 * every row button under 24 × 24 px (WCAG 2.2, "Target Size (Minimum)"). The list's rows are the
 * elements the list keys mark (`data-current`).
 */
const overflowOf = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const name = (element: Element) => `${element.tagName.toLowerCase()}${element.className === "" ? "" : `.${String(element.className).split(" ").join(".")}`}`
    const wide = [...document.querySelectorAll("body *")]
      .filter((element) => {
        const box = element.getBoundingClientRect()
        return box.width > 0 && box.height > 0 && (box.width > width || box.right > width + 0.5)
      })
      .map(
        (element) => `${name(element)} (${Math.round(element.getBoundingClientRect().width)} px, right at ${Math.round(element.getBoundingClientRect().right)})`
      )
    const rows = [...document.querySelectorAll("[data-current]")]
    const buttons = rows.flatMap((row) => [...row.querySelectorAll("button")])
    const boxOf = (button: Element) => button.getBoundingClientRect()
    return {
      rows: rows.length,
      buttons: buttons.length,
      wide,
      offScreen: buttons
        .filter((button) => boxOf(button).left < 0 || boxOf(button).right > width)
        .map((button) => `${button.textContent} at ${Math.round(boxOf(button).left)}`),
      small: buttons.filter((button) => boxOf(button).width < 24 || boxOf(button).height < 24).map((button) => button.textContent)
    }
  })

describe("the table screens on a 360 × 740 phone", () => {
  it("show every row with its buttons on screen, nothing wider than the screen", async () => {
    const { page, context, errors } = await phone()
    const found: Record<string, unknown> = {}
    for (const screen of tableScreens) {
      await visitInApp(page, screen.path)
      await page.waitForSelector("[data-current]")
      await page.waitForFunction(() => document.querySelector("[aria-busy='true']") === null)
      const seen = await overflowOf(page)
      expect(seen.rows, screen.path).toBeGreaterThan(0)
      if (screen.buttons) expect(seen.buttons, screen.path).toBeGreaterThan(0)
      if (seen.wide.length + seen.offScreen.length + seen.small.length > 0)
        found[screen.path] = { wide: seen.wide.slice(0, 5), offScreen: seen.offScreen, small: seen.small }
    }
    expect(found).toEqual({})
    expect(errors).toEqual([])
    await context.close()
  })

  it("shows a table's rows as cards of label and value, whose buttons work by a tap and whose keys work on the current card", async () => {
    const { page, context, errors } = await phone()
    await visitInApp(page, "/cex-addresses")
    const cards = page.getByRole("list", { name: "CEX Addresses" }).getByRole("listitem")
    await expect.poll(() => cards.count()).toBe(cexIdentifiers.length)
    const shown = await cards.evaluateAll((items) => items.map((item) => item.textContent ?? ""))
    const order = cexIdentifiers.filter((identifier) => shown.some((text) => text.includes(identifier)))
    expect(order).toHaveLength(cexIdentifiers.length)
    const inOrder = shown.map((text) => cexIdentifiers.find((identifier) => text.includes(identifier)))
    // Keys act on arrival: the first card is current and has the focus.
    const first = cards.first()
    await expect.poll(() => first.evaluate((element) => element.dataset.current === "true" && element === document.activeElement)).toBe(true)
    // Each card: the columns' labels with the row's values, and the row's buttons.
    for (const label of directoryScreens[1].columns) await expect(first.getByRole("term").filter({ hasText: label }).count()).resolves.toBe(1)
    await expect(first.getByRole("definition").filter({ hasText: inOrder[0] }).count()).resolves.toBe(1)

    // A tap on the second card's Edit opens that address.
    await cards.nth(1).getByRole("button", { name: addressTexts.edit }).tap()
    const dialog = page.getByRole("dialog", { name: addressTexts.editTitle })
    await dialog.waitFor()
    await expect(dialog.getByLabel("Identifier").inputValue()).resolves.toBe(inOrder[1])
    await page.keyboard.press("Escape")
    await dialog.waitFor({ state: "detached" })
    // The tapped card is current; j moves down to the last card, marked, focused and scrolled into view.
    await expect.poll(() => cards.nth(1).getAttribute("data-current")).toBe("true")
    for (let index = 2; index < cexIdentifiers.length; index++) await page.keyboard.press("j")
    const last = cards.last()
    await expect.poll(() => last.getAttribute("data-current")).toBe("true")
    expect(await last.evaluate((element) => element === document.activeElement)).toBe(true)
    const box = await last.boundingBox()
    expect(box).not.toBeNull()
    expect(box!.y).toBeGreaterThanOrEqual(0)
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height)
    // e edits the current card's address; Delete asks to delete it.
    await page.keyboard.press("e")
    await dialog.waitFor()
    await expect(dialog.getByLabel("Identifier").inputValue()).resolves.toBe(inOrder.at(-1))
    await page.keyboard.press("Escape")
    await dialog.waitFor({ state: "detached" })
    await page.keyboard.press("Delete")
    await page.getByRole("dialog", { name: addressTexts.deleteTitle }).getByText(inOrder.at(-1)!).waitFor()
    await page.keyboard.press("Escape")
    await page.getByRole("dialog").waitFor({ state: "detached" })

    // Turned wide, the list is a table again, on the same current row, which keeps the focus; and back.
    const focusedIs = (text: string) =>
      page.evaluate(
        (wanted) => document.activeElement?.getAttribute("data-current") === "true" && (document.activeElement.textContent ?? "").includes(wanted),
        text
      )
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.getByRole("table", { name: "CEX Addresses" }).waitFor()
    await expect.poll(() => focusedIs(inOrder.at(-1)!)).toBe(true)
    await page.setViewportSize(PHONE)
    await cards.first().waitFor()
    await expect.poll(() => focusedIs(inOrder.at(-1)!)).toBe(true)

    // The sortable columns sort the cards too.
    await page.getByRole("combobox", { name: listTexts.sortBy }).selectOption({ label: listTexts.sortOrder("Name", "desc") })
    await page.waitForURL(/sort=name&order=desc/)
    await expect.poll(() => cards.first().textContent()).toContain("Xt")
    expect(errors).toEqual([])
    await context.close()
  })
})
