import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { addressMessages } from "../spec/texts.ts"
import { addressModalErrors } from "../spec/texts.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { addressTexts as t, directoryScreens } from "../spec/texts.ts"
import { linkTexts, listTexts } from "../spec/texts.ts"
import { chromiumWithServer, fieldMessage, newPage, signInThroughScreen, linkLive } from "../support/browser.ts"
import { call } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"

const product = chromiumWithServer()
let apiToken: string
let counter = 0

beforeAll(async () => {
  apiToken = await signedInAs(product.server, "admin")
})

const signedInPage = async () => {
  const email = `addr-staff-${++counter}@example.com`
  await product.server.sql(addAdmin(email, "admin"))
  const opened = await newPage(product.browser)
  await signInThroughScreen(opened.page, product.server, email, "Admin")
  return opened
}

const table = (page: Page, title: string) => page.getByRole("table", { name: title })
const rowOf = (page: Page, title: string, identifier: string) => table(page, title).getByRole("row").filter({ hasText: identifier })
const dialog = (page: Page) => page.getByRole("dialog")
const nameLabel = "Name"

describe.each(directoryScreens)("$title in Chromium", (spec) => {
  it("adds, searches, views, edits and deletes with the mouse", async () => {
    const { page, context, errors } = await signedInPage()
    const identifier = `${spec.kind}-mouse-${counter}`
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: spec.title }).click()
    await page.getByRole("heading", { level: 1, name: spec.title }).waitFor()
    await table(page, spec.title).waitFor()
    for (const column of spec.columns) {
      await expect(table(page, spec.title).getByRole("columnheader", { name: column, exact: true }).count()).resolves.toBe(1)
    }

    await page.getByRole("button", { name: t.add }).click()
    const save = dialog(page).getByRole("button", { name: t.save })
    await expect(save.isDisabled()).resolves.toBe(true)
    await dialog(page).getByLabel("Identifier").fill(identifier)
    await expect(save.isDisabled()).resolves.toBe(true)
    await dialog(page).getByLabel(nameLabel, { exact: false }).first().fill(`Mouse ${spec.kind}`)
    await expect(save.isDisabled()).resolves.toBe(false)
    await save.click()
    await dialog(page).waitFor({ state: "detached" })
    await rowOf(page, spec.title, identifier).waitFor()

    await page.getByRole("searchbox", { name: t.searchLabel }).fill("no-such-address-anywhere")
    await page.getByText(t.empty).waitFor()
    expect(new URL(page.url()).searchParams.get("search")).toBe("no-such-address-anywhere")
    await page.getByRole("searchbox", { name: t.searchLabel }).fill(identifier)
    await rowOf(page, spec.title, identifier).waitFor()

    await rowOf(page, spec.title, identifier).getByRole("button", { name: t.view }).click()
    await dialog(page).getByText(`Mouse ${spec.kind}`).waitFor()
    await dialog(page).getByRole("button", { name: t.edit }).click()
    await dialog(page).getByLabel(nameLabel, { exact: false }).first().fill(`Edited ${spec.kind}`)
    await dialog(page).getByRole("button", { name: t.save }).click()
    await dialog(page).waitFor({ state: "detached" })
    await rowOf(page, spec.title, `Edited ${spec.kind}`).waitFor()

    await rowOf(page, spec.title, identifier).getByRole("button", { name: t.delete }).click()
    await dialog(page).getByText(t.confirmDelete).waitFor()
    await dialog(page).getByRole("button", { name: t.delete }).click()
    await dialog(page).waitFor({ state: "detached" })
    await page.getByText(t.empty).waitFor()
    expect(errors).toEqual([])
    await context.close()
  })

  it("does it all from the keyboard, palette included", async () => {
    const { page, context } = await signedInPage()
    const prefix = `${spec.kind}-kbd-${counter}`
    for (const n of [1, 2, 3]) {
      const body = spec.kind === "generated" ? { identifier: `${prefix}-${n}`, Name: `Key ${n}` } : { identifier: `${prefix}-${n}`, name: `Key ${n}` }
      expect((await call(product.server.url, "POST", `/api/admin/addresses/${spec.kind}`, { token: apiToken, body })).status).toBe(200)
    }
    await page.goto(`${product.server.url}${spec.path}?search=${prefix}`)
    await rowOf(page, spec.title, `${prefix}-3`).waitFor()

    // j/k and arrows move between rows (newest first: 3, 2, 1).
    await rowOf(page, spec.title, `${prefix}-3`).focus()
    await page.keyboard.press("j")
    await page.keyboard.press("ArrowDown")
    await expect(rowOf(page, spec.title, `${prefix}-1`).evaluate((row) => row === document.activeElement)).resolves.toBe(true)
    await page.keyboard.press("k")
    await expect(rowOf(page, spec.title, `${prefix}-2`).evaluate((row) => row === document.activeElement)).resolves.toBe(true)

    await page.keyboard.press("Enter")
    await dialog(page).getByRole("heading", { name: t.viewTitle }).waitFor()
    await page.keyboard.press("Escape")
    await dialog(page).waitFor({ state: "detached" })

    await rowOf(page, spec.title, `${prefix}-2`).focus()
    await page.keyboard.press("e")
    await dialog(page).getByRole("heading", { name: t.editTitle }).waitFor()
    await dialog(page).getByLabel(nameLabel, { exact: false }).first().fill("Typed name")
    await page.keyboard.press("Enter")
    await dialog(page).waitFor({ state: "detached" })
    await rowOf(page, spec.title, "Typed name").waitFor()

    await rowOf(page, spec.title, `${prefix}-1`).focus()
    await page.keyboard.press("Delete")
    await dialog(page).getByText(t.confirmDelete).waitFor()
    await dialog(page).getByRole("button", { name: t.delete }).click()
    await dialog(page).waitFor({ state: "detached" })
    await expect.poll(() => rowOf(page, spec.title, `${prefix}-1`).count()).toBe(0)

    // The palette offers the focused row's actions and "Add address".
    await rowOf(page, spec.title, `${prefix}-3`).focus()
    await page.keyboard.press("Control+k")
    await page.keyboard.type(`Edit ${prefix}-3`)
    await page.keyboard.press("Enter")
    await dialog(page).getByRole("heading", { name: t.editTitle }).waitFor()
    await page.keyboard.press("Escape")
    // The palette opens once the edit dialog has gone (a Ctrl+K while it closes went unheard on a loaded machine).
    await dialog(page).waitFor({ state: "detached" })
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Add address")
    await page.keyboard.press("Enter")
    await dialog(page).getByRole("heading", { name: t.addTitle }).waitFor()
    await page.keyboard.press("Escape")
    await context.close()
  })

  it("with the link cut, closes the edit on Save, shows the new name on its row, waiting, and sends it when the link is back", async () => {
    const { page, context, errors } = await signedInPage()
    const identifier = `${spec.kind}-offline-${counter}`
    const nameField = spec.kind === "generated" ? "Name" : "name"
    const created = await call(product.server.url, "POST", `/api/admin/addresses/${spec.kind}`, {
      token: apiToken,
      body: { identifier, [nameField]: `Before ${spec.kind}` }
    })
    expect(created.status, created.text).toBe(200)
    const onServer = async () => {
      const listed = await call(product.server.url, "GET", `/api/admin/addresses/${spec.kind}?search=${encodeURIComponent(identifier)}`, { token: apiToken })
      return (listed.body.data as { addresses: ReadonlyArray<Record<string, unknown>> }).addresses.map((address) => ({
        name: address[nameField],
        version: address.version
      }))
    }
    expect(await onServer()).toEqual([{ name: `Before ${spec.kind}`, version: 1 }])
    await page.goto(`${product.server.url}${spec.path}?search=${identifier}`)
    // The console's files are kept by its service worker once it runs: the page it serves opens the modal and saves with no link.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
    await page.reload()
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await rowOf(page, spec.title, `Before ${spec.kind}`).waitFor()
    await linkLive(page)
    await page.context().setOffline(true)
    await page.getByRole("status").getByText(linkTexts.offline).waitFor()
    await rowOf(page, spec.title, identifier).getByRole("button", { name: t.edit }).click()
    await dialog(page).getByRole("heading", { name: t.editTitle }).waitFor()
    await dialog(page).getByLabel(nameLabel, { exact: false }).first().fill(`Kept ${spec.kind}`)
    await dialog(page).getByRole("button", { name: t.save }).click()
    // Kept in the browser, the save is done for the person: the modal closes and the row shows it, waiting.
    await dialog(page).waitFor({ state: "detached" })
    const row = rowOf(page, spec.title, `Kept ${spec.kind}`)
    await row.getByText(listTexts.waiting).waitFor()
    await page.getByRole("status").getByText("1 change is waiting: they are sent, in order, when the connection is back.").waitFor()
    expect(await onServer()).toEqual([{ name: `Before ${spec.kind}`, version: 1 }])
    await page.context().setOffline(false)
    await expect.poll(onServer, { timeout: 20_000 }).toEqual([{ name: `Kept ${spec.kind}`, version: 2 }])
    await page.getByText(/waiting: they are sent/).waitFor({ state: "detached" })
    await row.getByText(listTexts.waiting).waitFor({ state: "detached" })
    expect(await rowOf(page, spec.title, `Before ${spec.kind}`).count()).toBe(0)
    expect(errors).toEqual([])
    await context.close()
  })
})

describe("address screens", () => {
  it("finds an address in any directory from the palette and jumps to its row", async () => {
    const { page, context } = await signedInPage()
    const identifier = `jump-target-${counter}`
    expect((await call(product.server.url, "POST", "/api/admin/addresses/cex", { token: apiToken, body: { identifier, name: "Far away" } })).status).toBe(200)
    await page.goto(`${product.server.url}/generated-addresses`)
    await page.getByRole("heading", { level: 1, name: "Generated Addresses" }).waitFor()
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Find address")
    await page.keyboard.press("Enter")
    await page.keyboard.type(identifier)
    await page.getByRole("option", { name: new RegExp(identifier) }).waitFor()
    await page.keyboard.press("Enter")
    await page.waitForURL(`**/cex-addresses?search=${identifier}`)
    await expect.poll(() => rowOf(page, "CEX Addresses", identifier).evaluate((row) => row === document.activeElement)).toBe(true)
    await context.close()
  })

  it("shows a duplicate identifier and a stale version in the modal, and keeps search and page in the URL", async () => {
    const { page, context } = await signedInPage()
    const identifier = `dup-${counter}`
    const created = await call(product.server.url, "POST", "/api/admin/addresses/generated", { token: apiToken, body: { identifier, Name: "Original" } })
    const id = (created.body.data as { address: { _id: string } }).address._id
    await page.goto(`${product.server.url}/generated-addresses?search=${identifier}`)
    await rowOf(page, "Generated Addresses", identifier).waitFor()

    await page.getByRole("button", { name: t.add }).click()
    await dialog(page).getByLabel("Identifier").fill(identifier)
    await dialog(page).getByLabel(nameLabel, { exact: false }).first().fill("Copy")
    await dialog(page).getByRole("button", { name: t.save }).click()
    // A value another address holds is said under its field, with what was typed kept.
    await expect.poll(() => fieldMessage(dialog(page).getByLabel("Identifier"))).toBe(addressMessages.duplicate(identifier))
    expect(await dialog(page).getByLabel(nameLabel, { exact: false }).first().inputValue()).toBe("Copy")
    await page.keyboard.press("Escape")

    await rowOf(page, "Generated Addresses", identifier).getByRole("button", { name: t.edit }).click()
    // Someone else saves first.
    expect(
      (await call(product.server.url, "PUT", `/api/admin/addresses/generated/${id}`, { token: apiToken, body: { identifier, Name: "Theirs", version: 1 } }))
        .status
    ).toBe(200)
    await dialog(page).getByLabel(nameLabel, { exact: false }).first().fill("Mine")
    await dialog(page).getByRole("button", { name: t.save }).click()
    const alert = dialog(page).getByRole("alert")
    await alert.waitFor()
    await expect(alert.textContent()).resolves.toContain(addressModalErrors.update)
    await expect(alert.textContent()).resolves.toContain(addressMessages.stale)
    await page.keyboard.press("Escape")

    await page.goBack()
    await page.goForward()
    await rowOf(page, "Generated Addresses", "Theirs").waitFor()
    expect(new URL(page.url()).searchParams.get("search")).toBe(identifier)
    await context.close()
  })

  it("pages and sorts a long directory through the URL", async () => {
    const { page, context } = await signedInPage()
    const prefix = `pg-${counter}`
    for (let n = 0; n < 23; n++) {
      await call(product.server.url, "POST", "/api/admin/addresses/core-team", { token: apiToken, body: { identifier: `${prefix}-${n}`, name: `P ${n}` } })
    }
    await page.goto(`${product.server.url}/core-team-addresses?search=${prefix}`)
    await page.getByText(listTexts.page(1, 2)).waitFor()
    await page.getByRole("button", { name: listTexts.next }).click()
    await page.getByText(listTexts.page(2, 2)).waitFor()
    expect(new URL(page.url()).searchParams.get("page")).toBe("2")
    await expect.poll(() => table(page, "Core Team Addresses").getByRole("row").count()).toBe(4)
    await page.goBack()
    await page.getByText(listTexts.page(1, 2)).waitFor()

    const firstIdentifier = () => table(page, "Core Team Addresses").getByRole("row").nth(1).getByRole("cell").first().textContent()
    await page.getByRole("button", { name: "Identifier", exact: true }).click()
    await expect.poll(firstIdentifier).toBe(`${prefix}-0`)
    expect(new URL(page.url()).searchParams.get("sort")).toBe("identifier")
    expect(new URL(page.url()).searchParams.get("order")).toBe("asc")
    await expect(page.getByRole("columnheader", { name: "Identifier" }).getAttribute("aria-sort")).resolves.toBe("ascending")
    await page.getByRole("button", { name: "Identifier", exact: true }).click()
    await expect.poll(firstIdentifier).toBe(`${prefix}-9`)
    expect(new URL(page.url()).searchParams.get("search")).toBe(prefix)
    await context.close()
  })
})
