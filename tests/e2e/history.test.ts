import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import type { CoreTeamContact } from "../../contract/contacts.ts"
import { seriousViolations } from "../support/axe.ts"
import { chromiumWithServer, isDark, signedInTab } from "../support/browser.ts"
import { call, freshIp } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"
import { browserEngines } from "../support/database.ts"

/**
 * A record's history in the browser (docs/architecture.md, "Record history"): `h` on a list's
 * current row, or the palette's "Show history", opens it; the versions, what each changed as a
 * word diff, a comparison, and a restore behind a confirmation, by keyboard. The dialog is
 * scanned by axe in both themes.
 */
// On one engine: the API suite checks the history each engine keeps (tests/api/history.test.ts).
describe.each(browserEngines)("record history in the console on $name", (engine) => {
  const product = chromiumWithServer(engine)
  let token: string

  beforeAll(async () => {
    token = await signedInAs(product.server, "admin")
  })

  const api = (method: string, path: string, body?: object) => call(product.server.url, method, path, { token, ...(body === undefined ? {} : { body }) })

  /** A contact with three versions: created, then two notes. */
  const contactWithVersions = async (subject: string) => {
    const made = await api("POST", "/api/core-team-contact", { contactInfo: { name: "Grace", role: "Founder" }, inquiry: { subject, details: "Details" } })
    const id = (made.body.data as { _id: string })._id
    const read = async () => ((await api("GET", `/api/core-team-contact/${id}`)).body.data as { contact: CoreTeamContact }).contact
    for (const [version, notes] of [
      [1, "Called the founder on Monday"],
      [2, "Called the founder on Tuesday about the grant"]
    ] as const) {
      const contact = await read()
      const saved = await api("PUT", `/api/core-team-contact/${id}`, {
        contactInfo: contact.contactInfo,
        inquiry: contact.inquiry,
        status: contact.status,
        internalNotes: notes,
        version
      })
      expect(saved.status, saved.text).toBe(200)
    }
    return { id, read }
  }

  const openScreen = async (scheme: "light" | "dark" = "light") => {
    const { page, errors } = await signedInTab(product, token, { colorScheme: scheme })
    await page.goto(`${product.server.url}/core-team`)
    await page.getByRole("heading", { level: 1 }).waitFor()
    return { page, errors }
  }

  const dialogOf = (page: Page) => page.getByRole("dialog")

  describe("by keyboard, palette and undo", () => {
    it("opens with h on the current row, shows what each version changed, and restores one by keyboard", async () => {
      const { read } = await contactWithVersions("History by keyboard")
      const { page, errors } = await openScreen()
      await page.locator("[data-current=true]").waitFor()
      await page.keyboard.press("h")
      const dialog = dialogOf(page)
      await dialog.getByRole("heading", { name: "History of core-team contact “History by keyboard”" }).waitFor()
      const versions = dialog.getByRole("listbox", { name: "Versions, newest first" }).getByRole("option")
      await expect.poll(() => versions.count()).toBe(3)
      expect(await versions.first().getAttribute("aria-selected")).toBe("true")
      // The newest version's change, word by word.
      const changes = dialog.getByRole("table", { name: "What version 3 changed" })
      await changes.waitFor()
      expect(await changes.locator("del").allTextContents()).toEqual(["deleted: Monday"])
      expect(await changes.locator("ins").allTextContents()).toEqual(["inserted: Tuesday about the grant"])
      // Down to the first version, and restore it.
      await versions.first().focus()
      await page.keyboard.press("j")
      await page.keyboard.press("j")
      expect(await versions.nth(2).getAttribute("aria-selected")).toBe("true")
      await page.keyboard.press("r")
      await dialog.getByText("Restore version 1?").waitFor()
      await dialog.getByRole("table", { name: "What the restore will change" }).getByRole("rowheader", { name: "Internal notes" }).waitFor()
      // The confirmation opens on Cancel: Tab to Restore.
      await page.keyboard.press("Tab")
      await page.keyboard.press("Enter")
      await dialog.getByText("Version 1 is restored as version 4.").waitFor()
      await expect.poll(() => versions.count()).toBe(4)
      const now = await read()
      expect([now.internalNotes, now.version]).toEqual(["", 4])
      await page.keyboard.press("Escape")
      await dialog.waitFor({ state: "hidden" })
      expect(errors).toEqual([])
      await page.context().close()
    })

    it("opens from the palette, compares any two versions, and says why a restore was refused", async () => {
      const { id } = await contactWithVersions("History from the palette")
      const { page, errors } = await openScreen()
      await page.locator("[data-current=true]").waitFor()
      await page.keyboard.press("Control+k")
      await page.keyboard.type("Show history")
      await page.keyboard.press("Enter")
      const dialog = dialogOf(page)
      await dialog.getByRole("heading", { name: "History of core-team contact “History from the palette”" }).waitFor()
      await dialog.getByRole("combobox", { name: "Compare with" }).click()
      await page.getByRole("option", { name: "Version 1" }).click()
      const compared = dialog.getByRole("table", { name: "From version 1 to version 3" })
      await compared.waitFor()
      expect(await compared.getByRole("rowheader").allTextContents()).toEqual(["Internal notes"])
      // Someone else changes the record while the dialog is open: the restore is refused, and the
      // newest version is shown.
      await dialog.getByRole("option", { name: /Version 1/ }).click()
      const contact = ((await api("GET", `/api/core-team-contact/${id}`)).body.data as { contact: CoreTeamContact }).contact
      expect(
        (
          await api("PUT", `/api/core-team-contact/${id}`, {
            contactInfo: contact.contactInfo,
            inquiry: contact.inquiry,
            internalNotes: "Meanwhile",
            version: 3
          })
        ).status
      ).toBe(200)
      await dialog.getByRole("button", { name: /Restore this version/ }).click()
      await dialog.getByRole("button", { name: "Restore", exact: true }).click()
      await dialog
        .getByRole("alert")
        .getByText(/Couldn't restore this version: Someone changed this record since/)
        .waitFor()
      await expect.poll(() => dialog.getByRole("option").count()).toBe(4)
      expect(errors).toEqual([])
      await page.context().close()
    })

    it("undoes the person's last change with z on any screen, and says who changed the record since when it can't", async () => {
      const { id, read } = await contactWithVersions("Undo with z")
      const { page, errors } = await openScreen()
      await page.locator("[data-current=true]").waitFor()
      await page.keyboard.press("z")
      await page.getByRole("status").getByText('Undone your change to core-team contact "Undo with z": back as it was at version 2 (now version 4).').waitFor()
      expect((await read()).internalNotes).toBe("Called the founder on Monday")
      // A colleague changes the record after the person's last change: z refuses, naming them, and offers the history.
      const colleague = await signedInAs(product.server, "admin")
      const contact = await read()
      expect(
        (
          await call(product.server.url, "PUT", `/api/core-team-contact/${id}`, {
            token: colleague,
            body: { contactInfo: contact.contactInfo, inquiry: contact.inquiry, internalNotes: "A colleague's note", version: 4 }
          })
        ).status
      ).toBe(200)
      await page.getByRole("button", { name: "Dismiss" }).click()
      await page.locator("[data-current=true]").focus()
      await page.keyboard.press("z")
      const refusal = page.getByRole("alert").filter({ hasText: "Couldn't undo your last change: Someone changed this record since: admin-" })
      await refusal.waitFor()
      await refusal.getByRole("button", { name: "Show history" }).click()
      await dialogOf(page).getByRole("heading", { name: "History of core-team contact “Core-team contact”" }).waitFor()
      expect((await read()).internalNotes).toBe("A colleague's note")
      expect(errors).toEqual([])
      await page.context().close()
    })

    it('finds a deleted record from the palette\'s "Deleted" and brings it back from its history', async () => {
      const { id, read } = await contactWithVersions("Deleted and back")
      expect((await api("DELETE", `/api/core-team-contact/${id}?version=3`)).status).toBe(200)
      const { page, errors } = await openScreen()
      await page.getByRole("heading", { level: 1 }).waitFor()
      await page.keyboard.press("Control+k")
      await page.keyboard.type("Deleted core team")
      await page.keyboard.press("Enter")
      const removed = page.getByRole("dialog").getByRole("listbox", { name: "Deleted core-team contacts" })
      await removed.getByRole("option", { name: /Deleted and back/ }).waitFor()
      await removed.getByRole("option", { name: /Deleted and back/ }).click()
      const dialog = dialogOf(page)
      await dialog.getByRole("heading", { name: "History of core-team contact “Deleted and back”" }).waitFor()
      const versions = dialog.getByRole("listbox", { name: "Versions, newest first" }).getByRole("option")
      await expect.poll(() => versions.count()).toBe(4)
      // The deletion is selected, the newest: r on it brings back the version before it.
      await expect.poll(() => versions.nth(0).getAttribute("aria-selected")).toBe("true")
      await dialog.getByRole("button", { name: "Restore version 3, before the deletion" }).waitFor()
      await versions.nth(0).focus()
      await page.keyboard.press("r")
      await dialog.getByText("Restore version 3?").waitFor()
      await page.keyboard.press("Tab")
      await page.keyboard.press("Enter")
      await dialog.getByText("Version 3 is restored as version 5.").waitFor()
      expect(await read()).toMatchObject({ version: 5, internalNotes: "Called the founder on Tuesday about the grant" })
      expect(errors).toEqual([])
      await page.context().close()
    })

    it("names only the fields a deleted CEX address had, and r on its deletion brings it back", async () => {
      const made = await api("POST", "/api/admin/addresses/cex", { identifier: "GHISTORYCEX", name: "History Exchange" })
      const id = (made.body.data as { address: { _id: string } }).address._id
      expect((await api("DELETE", `/api/admin/addresses/cex/${id}?version=1`)).status).toBe(200)
      const { page, errors } = await signedInTab(product, token)
      await page.goto(`${product.server.url}/cex-addresses`)
      await page.getByRole("heading", { level: 1 }).waitFor()
      await page.keyboard.press("Control+k")
      await page.keyboard.type("Deleted")
      await page.keyboard.press("Enter")
      const removed = page.getByRole("dialog").getByRole("listbox", { name: "Deleted addresses" })
      await removed.getByRole("option", { name: /History Exchange/ }).click()
      const dialog = dialogOf(page)
      await dialog.getByRole("heading", { name: "History of address “History Exchange”" }).waitFor()
      const fields = dialog.getByRole("table", { name: "What version 2 changed" }).getByRole("row")
      await expect.poll(() => fields.count()).toBeGreaterThan(1)
      const named = (await fields.allTextContents()).join(" | ")
      expect(named).toContain("Identifier")
      expect(named).toContain("Buy")
      // A CEX address has no rank and no role: its deletion names neither.
      expect(named).not.toMatch(/Rank|Role/)
      await dialog.getByRole("listbox", { name: "Versions, newest first" }).getByRole("option").first().focus()
      await page.keyboard.press("r")
      await dialog.getByText("Restore version 1?").waitFor()
      expect(errors).toEqual([])
      await page.context().close()
    })

    it("opens over a record's modal (an address, a scam report, an inquiry, a listing being edited) by its button and the palette", async () => {
      const marker = `modal-${engine.name}-${Date.now().toString(36)}`
      const address = await api("POST", "/api/admin/addresses/generated", { identifier: `${marker}-address`, Name: `${marker} address` })
      expect(address.status, address.text).toBe(200)
      const wallet = `G${marker.replace(/\W/g, "")}`
      const report = await call(product.server.url, "POST", "/api/report-scam", {
        ip: freshIp(),
        body: { scamType: "phishing", description: `${marker} report`, walletAddress: wallet }
      })
      expect(report.status, report.text).toBe(200)
      const company = `${marker} company`
      const inquiry = await call(product.server.url, "POST", "/api/advertising-inquiries", {
        ip: freshIp(),
        body: { companyName: company, contactName: "A", email: "a@example.com", industry: "Other" }
      })
      expect(inquiry.status, inquiry.text).toBe(200)
      const { page, errors } = await openScreen()
      const dialogs = page.getByRole("dialog")
      const history = (title: string) => page.getByRole("dialog", { name: title })
      /** The keyboard is back in the modal below, once the history above it has gone (its exit animation included). */
      const keyboardBackIn = (modal: string) =>
        expect
          .poll(() => page.evaluate(() => document.activeElement?.closest("[role=dialog][data-state=open]")?.textContent?.includes("Show history") ?? false), {
            message: modal
          })
          .toBe(true)
      /** The modal shows; its button opens the history over it; Escape closes only the history; the palette opens it again. */
      const fromModal = async (modal: string, title: string) => {
        await page.getByRole("dialog", { name: modal }).waitFor()
        await page.getByRole("dialog", { name: modal }).getByRole("button", { name: "Show history" }).click()
        await history(title).getByRole("listbox", { name: "Versions, newest first" }).getByRole("option").first().waitFor()
        await page.keyboard.press("Escape")
        await history(title).waitFor({ state: "detached" })
        expect(await dialogs.count()).toBe(1)
        await keyboardBackIn(modal)
        await page.keyboard.press("Control+k")
        await page.keyboard.type("Show history")
        await page.keyboard.press("Enter")
        await history(title).getByRole("listbox", { name: "Versions, newest first" }).waitFor()
        await page.keyboard.press("Escape")
        await history(title).waitFor({ state: "detached" })
        await keyboardBackIn(modal)
        await page.keyboard.press("Escape")
        await expect.poll(() => dialogs.count(), { message: modal }).toBe(0)
      }

      await page.goto(`${product.server.url}/generated-addresses?search=${marker}-address`)
      await page.getByRole("button", { name: "View" }).first().click()
      await fromModal("Address Details", `History of address “${marker} address”`)

      await page.goto(`${product.server.url}/scam-reports?search=${wallet}`)
      await page.getByRole("button", { name: "Details" }).first().click()
      await fromModal(`Report #${(report.body.data as { _id: string })._id.slice(-8)}`, `History of scam report “${wallet}”`)

      await page.goto(`${product.server.url}/advertising-inquiries?search=${encodeURIComponent(company)}`)
      await page.getByRole("button", { name: "View" }).first().click()
      await fromModal(company, `History of advertising inquiry “${company}”`)

      await page.goto(`${product.server.url}/startups`)
      await page.getByRole("button", { name: "Add Startup" }).click()
      await dialogs.getByLabel("Name", { exact: true }).fill(`${marker} startup`)
      await dialogs.getByLabel("Category", { exact: true }).fill("Fintech")
      await dialogs.getByLabel("Description", { exact: true }).fill("About it")
      // A record not saved yet has no history.
      expect(await dialogs.getByRole("button", { name: "Show history" }).count()).toBe(0)
      await dialogs.getByRole("button", { name: "Save" }).click()
      const card = page
        .getByRole("list", { name: "Startup Listings" })
        .getByRole("listitem")
        .filter({ hasText: `${marker} startup` })
      await card.getByRole("button", { name: "Edit" }).click()
      await fromModal("Edit Startup", `History of listing “${marker} startup”`)
      expect(errors).toEqual([])
      await page.context().close()
    })

    it.each(["light", "dark"] as const)("has no serious or critical axe violations in %s mode, the confirmation included", async (scheme) => {
      await contactWithVersions(`History scanned ${scheme}`)
      const { page } = await openScreen(scheme)
      expect(await isDark(page)).toBe(scheme === "dark")
      await page.locator("[data-current=true]").waitFor()
      await page.keyboard.press("h")
      const dialog = dialogOf(page)
      await dialog.getByRole("table").waitFor()
      const settled = () => page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"))
      await settled()
      const found = await seriousViolations(page)

      expect(found).toEqual([])
      await dialog.getByRole("option").last().click()
      await dialog.getByRole("button", { name: /Restore this version/ }).click()
      await dialog.getByText(/Restore version \d+\?/).waitFor()
      await page.mouse.move(0, 0)
      await settled()
      expect(await seriousViolations(page)).toEqual([])
      await page.context().close()
    })
  })
})
