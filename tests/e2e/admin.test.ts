import type { Page } from "playwright-core"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { ipMessages } from "../../contract/ip-rules.ts"
import { clearAllowedIps } from "../../server/allowed-ips/repository.ts"
import { chromiumWithServer, fieldMessage, openSignedIn, pointerEventsOf } from "../support/browser.ts"
import { call, freshIp } from "../support/http.ts"
import { latestCode } from "../support/server.ts"
import { signedInAs } from "../support/session.ts"

const product = chromiumWithServer()
let superAdmin: string
let serial = 0

beforeAll(async () => {
  superAdmin = await signedInAs(product.server, "super_admin")
})

const figure = async (page: Page, id: string) => Number((await page.getByTestId(id).textContent())?.replace(/\D+/g, "") ?? Number.NaN)

/** Signs `email` in over HTTP as `role`; the bearer token. */
const signIn = async (email: string, role: string) => {
  const ip = freshIp()
  const asked = await call(product.server.url, "POST", "/api/admin/auth", { ip, body: { email, role } })
  const otp = await latestCode(product.server, email)
  const answer = await call(product.server.url, "POST", "/api/admin/auth", { ip, body: { email, otp, attempt: asked.body.attempt } })
  expect(answer.status, answer.text).toBe(200)
  return answer.body.token as string
}
const roleOf = async (token: string) => {
  const answer = await call(product.server.url, "GET", "/api/admin/auth/check", { token })
  return answer.status === 200 ? (answer.body.user as { role: string }).role : answer.status
}

describe("the dashboard in Chromium", () => {
  it("shows real counts that move when something changes elsewhere, links each part of the pending reviews, and the system status", async () => {
    const { page, errors } = await openSignedIn(product, superAdmin, "/")
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
    await page.getByTestId("pendingReviews").filter({ hasText: /\d/ }).waitFor()
    const before = await figure(page, "pendingReviews")
    // A public report arrives through the change stream: the figure moves without a reload.
    const wallet = `GDASH${Date.now()}`
    expect(
      (
        await call(product.server.url, "POST", "/api/report-scam", {
          ip: freshIp(),
          body: { scamType: "phishing", description: "Seen on the dashboard", walletAddress: wallet }
        })
      ).status
    ).toBe(200)
    await expect.poll(() => figure(page, "pendingReviews"), { timeout: 10_000 }).toBe(before + 1)
    await page.getByRole("list", { name: "Recent Activity" }).getByRole("link", { name: wallet }).waitFor()
    const link = page.getByRole("list", { name: "Pending reviews by list" }).getByRole("link", { name: /^New scam reports: \d+$/ })
    expect(await link.getAttribute("href")).toBe("/scam-reports?status=new")
    // A community submitted on the public site shows on its count card and in the pending reviews, live too.
    const communities = await figure(page, "totalCommunities")
    const pending = await figure(page, "pendingReviews")
    expect(
      (await call(product.server.url, "POST", "/api/listings/community", { ip: freshIp(), body: { name: `Dash ${++serial}`, description: "A group" } })).status
    ).toBe(200)
    await expect.poll(() => figure(page, "totalCommunities"), { timeout: 10_000 }).toBe(communities + 1)
    await expect.poll(() => figure(page, "pendingReviews")).toBe(pending + 1)
    await page.getByRole("button", { name: "Refresh" }).click()
    await expect.poll(() => figure(page, "totalCommunities")).toBe(communities + 1)
    const status = page.getByRole("heading", { name: "System Status" }).locator("..")
    await status.getByLabel(new RegExp(`^Database: Online \\(${product.server.config.databaseUrl === undefined ? "PGlite" : "PostgreSQL"}`)).waitFor()
    expect(await status.getByLabel("Email Service: Outbox (no SMTP server)").count()).toBe(1)
    // The count card is a link to its list; Add Event opens the event form.
    await page
      .getByRole("navigation", { name: "Counts" })
      .getByRole("link", { name: /^Communities/ })
      .click()
    await page.waitForURL(/\/communities$/)
    await page.goBack()
    // The quick actions are short buttons beside the figures, not boxes as tall as the pending reviews.
    for (const name of ["Add Blog Post", "Add Event", "View Analytics"])
      expect((await page.getByRole("button", { name }).boundingBox())?.height, name).toBeLessThan(80)
    await page.getByRole("button", { name: "Add Event" }).click()
    await page.getByRole("dialog").waitFor()
    expect(new URL(page.url()).pathname).toBe("/events")
    expect(errors).toEqual([])
    await page.context().close()
  })
})

describe("admin management in Chromium", () => {
  afterEach(async () => {
    await product.server.sql(clearAllowedIps)
  })

  it("adds an admin, demotes them (their open session drops at once) and disables them (signed out everywhere) from the screen", async () => {
    const email = `screen-admin-${++serial}-${process.pid}@example.com`
    const { page, errors } = await openSignedIn(product, superAdmin, "/settings/admins", { countPointer: true })
    await page.getByRole("heading", { level: 1, name: "Admin Users" }).waitFor()
    await page.getByRole("table", { name: "Admin Users" }).getByRole("row").nth(1).waitFor()
    // From the palette: "Add admin".
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Add admin")
    await page.keyboard.press("Enter")
    const form = page.getByRole("form", { name: "Add an admin" })
    // Nothing typed is said as missing, not as malformed.
    await form.getByLabel("Display name").press("Enter")
    await expect.poll(() => fieldMessage(form.getByLabel("E-mail"))).toBe("E-mail is required")
    await form.getByLabel("E-mail").fill("not-an-email")
    await form.getByLabel("Display name").press("Enter")
    await form.getByText("E-mail must be a valid e-mail address").waitFor()
    await expect.poll(() => form.getByLabel("E-mail").evaluate((input) => input === document.activeElement)).toBe(true)
    await form.getByLabel("E-mail").fill(email)
    await form.getByLabel("Display name").fill("Screen Admin")
    await form.getByLabel("Role").selectOption("admin")
    await form.getByLabel("Display name").press("Enter")
    await page
      .getByRole("status")
      .filter({ hasText: `${email} was added` })
      .waitFor()
    const row = page.getByRole("row").filter({ hasText: email })
    await row.getByText("Admin", { exact: true }).waitFor()
    const token = await signIn(email, "admin")
    expect(await roleOf(token)).toBe("admin")

    // e on the row edits it: Moderator, saved.
    await row.focus()
    await page.keyboard.press("e")
    const edit = page.getByRole("form", { name: "Edit admin" })
    await edit.getByLabel("Role").selectOption("moderator")
    await edit.getByLabel("Display name").press("Enter")
    // The row shows the change at once; the form closes once the server has it.
    await row.getByText("Moderator", { exact: true }).waitFor()
    await edit.waitFor({ state: "detached" })
    expect(await roleOf(token)).toBe("moderator")

    // Delete on the row asks first, then disables: the session ends at once.
    await row.focus()
    await page.keyboard.press("Delete")
    const dialog = page.getByRole("alertdialog")
    await dialog.getByText(email).waitFor()
    // The dialog puts the focus in itself as it opens (on Cancel): after that, Disable is focused.
    await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)
    await dialog.getByRole("button", { name: "Disable" }).focus()
    await page.keyboard.press("Enter")
    await row.getByText("Disabled", { exact: true }).waitFor()
    // The row shows the command at once; the server has it once it has gone out.
    await expect.poll(() => roleOf(token)).toBe(401)
    expect(await pointerEventsOf(page)).toBe(0)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("keeps the add form open with what was typed when the e-mail is already an admin's, saying so under the e-mail", async () => {
    const email = `taken-${++serial}-${process.pid}@example.com`
    await signedInAs(product.server, "moderator")
    expect((await call(product.server.url, "POST", "/api/admin/users", { token: superAdmin, body: { email, role: "admin" } })).status).toBe(200)
    const { page, errors } = await openSignedIn(product, superAdmin, "/settings/admins")
    await page.getByRole("table", { name: "Admin Users" }).getByRole("row").nth(1).waitFor()
    await page.keyboard.press("n")
    const form = page.getByRole("form", { name: "Add an admin" })
    await form.getByLabel("E-mail").fill(email.toUpperCase())
    await form.getByLabel("Display name").fill("Typed Name")
    await form.getByLabel("Display name").press("Enter")
    const emailField = form.getByLabel("E-mail")
    await expect.poll(() => fieldMessage(emailField)).toBe(`An admin with the e-mail ${email} exists already.`)
    expect(await form.getByLabel("Display name").inputValue()).toBe("Typed Name")
    expect(await emailField.evaluate((input) => input === document.activeElement)).toBe(true)
    expect(await page.getByRole("form", { name: "Add an admin" }).isVisible()).toBe(true)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("refuses an allowed-address change that would lock the caller out, and accepts one that covers them", async () => {
    const { page, errors } = await openSignedIn(product, superAdmin, "/settings/ips")
    await page.getByText(/^Your address, as the server sees it: /).waitFor()
    const yourIp = ((await page.getByText(/^Your address, as the server sees it: /).textContent()) ?? "").replace(/^.*: /, "")
    const field = page.getByLabel("Address or range")
    await field.fill("10.0.0.0/33")
    await page.getByRole("button", { name: "Allow address" }).click()
    await page.getByText(`Address or range ${ipMessages.invalid}`).waitFor()
    expect(await field.evaluate((input) => input === document.activeElement && input.getAttribute("aria-invalid") === "true")).toBe(true)
    await field.fill("198.51.100.0/24")
    await page
      .getByText(/would lock you out|does not let your address in yet/)
      .first()
      .waitFor()
    await page.getByRole("button", { name: "Allow address" }).click()
    await page
      .getByRole("alert")
      .filter({ hasText: ipMessages.lockOut(yourIp) })
      .waitFor()
    // The refused address shown at once leaves again: nothing was kept.
    await page.getByText("No addresses: every address may sign in.").waitFor()
    expect(await page.getByText("198.51.100.0/24", { exact: true }).count()).toBe(0)
    // The caller's own address is accepted, and shown as covering them.
    await field.fill(yourIp)
    await page.getByLabel("Description").fill("This machine")
    await page.getByRole("button", { name: "Allow address" }).click()
    await page.getByRole("table", { name: "Allowed addresses" }).getByText("covers you").waitFor()
    // Now another address is refused by the server, sign-in included.
    const refused = await call(product.server.url, "POST", "/api/admin/auth", { ip: "198.51.100.9", body: { email: "someone@example.com", role: "admin" } })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe(ipMessages.refused)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("lists the signed-in admin's sessions and signs out everywhere else", async () => {
    const email = `sessions-${++serial}-${process.pid}@example.com`
    expect((await call(product.server.url, "POST", "/api/admin/users", { token: superAdmin, body: { email, role: "admin" } })).status).toBe(200)
    const elsewhere = await signIn(email, "admin")
    const here = await signIn(email, "admin")
    const { page, errors } = await openSignedIn(product, here, "/settings/sessions")
    const table = page.getByRole("table", { name: "Your sessions" })
    await table.getByText("This session").waitFor()
    expect(await table.getByRole("row").count()).toBe(3)
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Sign out everywhere else")
    await page.keyboard.press("Enter")
    await page.getByRole("status").filter({ hasText: "Signed out of 1 other session." }).waitFor()
    expect(await roleOf(elsewhere)).toBe(401)
    expect(await roleOf(here)).toBe("admin")

    expect(errors).toEqual([])
    await page.context().close()
  })

  it("filters the activity log in the URL and links each event to its record", async () => {
    const email = `logged-${++serial}-${process.pid}@example.com`
    expect((await call(product.server.url, "POST", "/api/admin/users", { token: superAdmin, body: { email, role: "moderator" } })).status).toBe(200)
    const { page, errors } = await openSignedIn(product, superAdmin, "/activity")
    await page.getByLabel("Area").selectOption({ label: "Admin users" })
    await page.waitForURL(/\/activity\?area=admin$/)
    const entry = page.getByRole("row").filter({ hasText: email }).first()
    await entry.waitFor()
    await entry.getByRole("link", { name: email, exact: true }).click()
    await page.waitForURL((url) => url.pathname === "/settings/admins" && url.searchParams.get("search") === email)
    await page.getByRole("row").filter({ hasText: email }).waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })
})
