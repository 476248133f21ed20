import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { chromiumWithServer, fieldMessage, newPage, typeCodeOnScreen } from "../support/browser.ts"
import { browserEngines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { signedInAs, signIn } from "../support/session.ts"
import { addPasskeyOnScreen, browserWithDevice, consoleAddress, logout, openPasskeys, signedIn } from "../support/passkey-screens.ts"
import { seriousViolations } from "../support/axe.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Passkeys in Chromium (docs/console.md, "Passkeys"): a person adds a passkey with the device the
 * browser offers (Chromium's virtual authenticator, through the DevTools protocol's WebAuthn
 * domain), sees it listed and removes it; the server keeps it bound to the console's address,
 * which the page is opened at (localhost: a passkey is never bound to a bare IP address). Every
 * passkey here is made on Settings → Passkeys, never put into the device by the test.
 */
describe.each(browserEngines)("passkeys in Chromium on $name", (engine) => {
  const product = chromiumWithServer(engine)
  let token: string
  beforeAll(async () => {
    token = await signedInAs(product.server, "moderator")
  })

  /** The console at its own address, signed in as after an earlier sign-in (`as`: this token), with a platform authenticator that verifies its user. */
  const openWithAuthenticator = async (as = token, options: Parameters<typeof newPage>[1] = {}) => {
    const { page, context, errors, device } = await browserWithDevice(product.browser, options)
    // Once per tab: a sign-out stays one through the loads after it.
    await context.addInitScript((value) => {
      if (sessionStorage.getItem("signed-in-by-test") !== null) return
      sessionStorage.setItem("signed-in-by-test", "yes")
      localStorage.setItem("adminToken", value)
    }, as)
    await page.goto(`${consoleAddress(product.server)}/settings/passkeys`)
    return { page, context, errors, credentials: device.credentials }
  }
  const table = (page: Page) => page.getByRole("table", { name: "Passkeys" })
  /**
   * A new moderator `email` who added a passkey named `name` on Settings → Passkeys and signed out:
   * their page, whose device holds it, is at the sign-in form.
   */
  const moderatorWithPasskey = async (email: string, name: string, options: Parameters<typeof newPage>[1] = {}) => {
    await product.server.sql(addAdmin(email, "moderator"))
    const opened = await openWithAuthenticator(await signIn(product.server, email, "moderator"), options)
    await addPasskeyOnScreen(opened.page, name)
    await logout(opened.page)
    return { address: consoleAddress(product.server), ...opened }
  }

  it("adds a passkey with the device, lists it and removes it, and says a missing name under the field", async () => {
    const { page, context, errors, credentials } = await openWithAuthenticator()
    await page.getByText("No passkeys yet. Add one to sign in without a code.").waitFor()
    const add = page.getByRole("button", { name: "Add a passkey" })
    await add.click()
    await page.getByText("Passkey name is required").waitFor()
    expect(await credentials()).toHaveLength(0)
    await page.getByLabel("Passkey name").fill("Work laptop")
    await add.click()
    await page.getByRole("status").getByText("Passkey “Work laptop” added.").waitFor()
    await table(page).getByRole("row").filter({ hasText: "Work laptop" }).waitFor()
    // The device holds one discoverable credential for this console, bound to its host.
    const held = await credentials()
    expect(held).toHaveLength(1)
    expect(held[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" })
    const listed = await call(product.server.url, "GET", "/api/admin/passkeys", { token })
    expect((listed.body.data as { passkeys: ReadonlyArray<{ name: string }> }).passkeys.map((one) => one.name)).toEqual(["Work laptop"])

    await table(page).getByRole("row").filter({ hasText: "Work laptop" }).getByRole("button", { name: "Remove" }).click()
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click()
    await page.getByText("No passkeys yet. Add one to sign in without a code.").waitFor()
    expect(((await call(product.server.url, "GET", "/api/admin/passkeys", { token })).body.data as { passkeys: ReadonlyArray<unknown> }).passkeys).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it("renames a passkey with r, shows recovery codes once, and lets a super admin set a role's rule", async () => {
    const { page, context, errors, credentials } = await openWithAuthenticator()
    await page.getByText("No passkeys yet. Add one to sign in without a code.").waitFor()
    await page.getByLabel("Passkey name").fill("Phone")
    await page.getByRole("button", { name: "Add a passkey" }).click()
    const row = table(page).getByRole("row").filter({ hasText: "Phone" })
    await row.waitFor()
    await row.click()
    await page.keyboard.press("r")
    const name = page.getByRole("form", { name: "Rename passkey “Phone”" }).getByLabel("Passkey name")
    await name.fill("Old phone")
    await page.keyboard.press("Enter")
    await page.getByRole("status").getByText("Passkey renamed “Old phone”.").waitFor()
    await table(page).getByRole("row").filter({ hasText: "Old phone" }).waitFor()
    // Back from another screen with g k: the cursor is in the name field, so a typed r is the
    // name's first letter, not a rename of the current row.
    await page.keyboard.press("g")
    await page.keyboard.press("d")
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
    await page.keyboard.press("g")
    await page.keyboard.press("k")
    const field = page.getByRole("form", { name: "Add a passkey" }).getByLabel("Passkey name")
    await expect.poll(() => field.evaluate((input) => input === document.activeElement)).toBe(true)
    await page.keyboard.type("rx")
    expect(await field.inputValue()).toBe("rx")
    expect(await page.getByRole("form", { name: /^Rename passkey/ }).count()).toBe(0)
    // A name one of the person's passkeys has, in any case, is said under the field before the device is asked.
    await field.fill("OLD PHONE")
    await page.keyboard.press("Enter")
    await expect.poll(() => fieldMessage(field)).toBe("Passkey name is already the name of another of your passkeys")
    expect(await credentials()).toHaveLength(1)
    // Ten codes, shown this once; the count follows; new ones are asked for again.
    await page.getByRole("button", { name: "Make recovery codes" }).click()
    const shown = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")
    await expect.poll(() => shown.count()).toBe(10)
    expect(await shown.first().textContent()).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/u)
    await page.getByText("10 recovery codes left.", { exact: false }).waitFor()
    await page.getByRole("button", { name: "I have saved them" }).click()
    expect(await shown.count()).toBe(0)
    await page.getByRole("button", { name: "Make new recovery codes" }).click()
    await page.getByRole("alert").getByText("Your unused recovery codes will stop working. Make new ones?").waitFor()
    await page.getByRole("button", { name: "Cancel" }).click()
    // A moderator sees no rules; a super admin does, and a rule saved is the server's.
    expect(await page.getByRole("heading", { name: "Passkeys by role" }).count()).toBe(0)
    expect(errors).toEqual([])
    await context.close()

    const superToken = await signedInAs(product.server, "super_admin")
    const superPage = await newPage(product.browser)
    await superPage.context.addInitScript((value) => localStorage.setItem("adminToken", value), superToken)
    await superPage.page.goto(`${product.server.url}/settings/passkeys`)
    const adminRule = superPage.page.getByRole("form", { name: "Save the rule for Admin" })
    await adminRule.getByRole("checkbox").click()
    await adminRule.getByLabel("Days of grace").fill("abc")
    await adminRule.getByRole("button", { name: "Save the rule for Admin" }).click()
    await adminRule.getByText("Days of grace must be a whole number").waitFor()
    await adminRule.getByLabel("Days of grace").fill("95")
    await adminRule.getByRole("button", { name: "Save the rule for Admin" }).click()
    await adminRule.getByText("Days of grace must be a whole number of days from 0 to 90").waitFor()
    await adminRule.getByLabel("Days of grace").fill("14")
    await adminRule.getByRole("button", { name: "Save the rule for Admin" }).click()
    await adminRule.getByText(/^Passkeys are required for Admin\. Grace until /u).waitFor()
    const rules = await call(product.server.url, "GET", "/api/admin/passkeys/rules", { token: superToken })
    expect((rules.body.data as { rules: ReadonlyArray<{ role: string; required: boolean }> }).rules.find((rule) => rule.role === "admin")?.required).toBe(true)
    await call(product.server.url, "PUT", "/api/admin/passkeys/rules/admin", { token: superToken, body: { required: false, graceDays: 0 } })
    expect(superPage.errors).toEqual([])
    await superPage.context.close()
  })

  it("signs in with one click, the signed-in screens asked for as the ceremony starts rather than after it", async () => {
    const { address, page, context, errors } = await moderatorWithPasskey(`one-click-${engine.name}@example.com`, "Desk key")
    // The screens' chunk arriving after the session made React hold the dashboard back 300 ms (docs/performance.md).
    const order: Array<string> = []
    page.on("request", (request) => void (/\/assets\/signed-in-[\w-]+\.js$/u.test(request.url()) && order.push("screens asked for")))
    page.on("requestfinished", (request) => void (request.url().endsWith("/api/admin/auth/passkeys/sign-in") && order.push("signed in")))
    await page.goto(`${address}/login`)
    await page.getByRole("button", { name: "Sign in with a passkey" }).click()
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
    expect(order).toEqual(["screens asked for", "signed in"])
    expect(errors).toEqual([])
    await context.close()
  })

  it("shows when a passkey was last used, and lets a super admin reset a person's passkeys from the palette, after a confirmation", async () => {
    const email = `lost-device-${engine.name}@example.com`
    const { address, ...holder } = await moderatorWithPasskey(email, "Lost phone")
    // Signed in with it: the list says when.
    await holder.page.getByRole("button", { name: "Sign in with a passkey" }).click()
    await signedIn(holder.page)
    const holderToken = (await holder.page.evaluate(() => localStorage.getItem("adminToken"))) ?? ""
    await openPasskeys(holder.page)
    const used = table(holder.page).getByRole("row").filter({ hasText: "Lost phone" })
    await used.waitFor()
    const lastUsed = (await table(holder.page).getByRole("columnheader").allTextContents()).indexOf("Last used")
    expect(lastUsed).toBeGreaterThan(0)
    expect(await used.getByRole("cell").nth(lastUsed).textContent()).toMatch(/\d/u)
    await holder.context.close()
    // The device is lost: a super admin resets from the admin users' palette, and confirms.
    const superToken = await signedInAs(product.server, "super_admin")
    const { page, context, errors } = await newPage(product.browser)
    await context.addInitScript((value) => localStorage.setItem("adminToken", value), superToken)
    await page.goto(`${address}/settings/admins`)
    await page.getByRole("row").filter({ hasText: email }).click()
    await page.keyboard.press("Control+k")
    await page.keyboard.type(`Reset passkeys of ${email}`)
    await page.getByRole("option", { name: `Reset passkeys of ${email}` }).waitFor()
    await page.keyboard.press("Enter")
    const dialog = page.getByRole("alertdialog")
    await dialog.getByText(email).waitFor()
    await dialog.getByRole("button", { name: "Reset passkeys" }).click()
    await dialog.waitFor({ state: "detached" })
    // Its passkeys gone, its sessions ended; logged.
    await expect.poll(async () => (await call(product.server.url, "GET", "/api/admin/auth/check", { token: holderToken })).status).toBe(401)
    const left = await product.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM passkeys p JOIN admins a ON a.id = p.admin_id WHERE a.email = ${email}`
      )
    )
    expect(left[0]?.n).toBe(0)
    const log = await call(product.server.url, "GET", "/api/admin/activity-logs?action=admin.passkeys_reset", { token: superToken })
    expect(log.text).toContain(email)
    expect(errors).toEqual([])
    await context.close()
  })

  it.each(["light", "dark"] as const)("asks for the passkey after the code, and for one to be added within the grace, readable in %s mode", async (scheme) => {
    const holder = `second-${scheme}@example.com`
    const newcomer = `newcomer-${scheme}@example.com`
    await product.server.sql(addAdmin(newcomer, "moderator"))
    const { address, page, context, errors } = await moderatorWithPasskey(holder, "Desk key", { colorScheme: scheme })
    const superToken = await signedInAs(product.server, "super_admin")
    expect(
      (await call(product.server.url, "PUT", "/api/admin/passkeys/rules/moderator", { token: superToken, body: { required: true, graceDays: 0 } })).status
    ).toBe(200)
    try {
      const codeFor = (email: string) => typeCodeOnScreen(page, product.server, email, "Moderator", address)
      // The code alone opens nothing: the passkey is the second step, one key on the focused button.
      await codeFor(holder)
      await page.getByRole("heading", { name: "Confirm with your passkey" }).waitFor()
      expect(await page.evaluate(() => localStorage.getItem("adminToken"))).toBeNull()
      await page.getByRole("button", { name: "Lost your device? Use a recovery code" }).click()
      await page.getByText("No recovery codes are left on this account.", { exact: false }).waitFor()
      // Scanned at rest: no button under the pointer in its hover colours.
      await page.mouse.move(0, 0)
      expect(await seriousViolations(page)).toEqual([])
      await page.getByRole("button", { name: "Use my passkey" }).focus()
      await page.keyboard.press("Enter")
      await page.getByText("Welcome back").waitFor()
      await page.getByRole("button", { name: "Logout" }).click()
      // Someone with none, within their grace: signed in, and asked to add one first.
      await codeFor(newcomer)
      await page.getByRole("heading", { name: "Add a passkey" }).waitFor()
      await page.getByRole("button", { name: "Add a passkey" }).click()
      await page.getByText("Passkey name is required").waitFor()
      // Scanned at rest: no button under the pointer in its hover colours.
      await page.mouse.move(0, 0)
      expect(await seriousViolations(page)).toEqual([])
      await page.getByLabel("Passkey name").fill("Laptop")
      await page.getByRole("button", { name: "Add a passkey" }).click()
      await page.getByText("Welcome back").waitFor()
      const token = await page.evaluate(() => localStorage.getItem("adminToken"))
      const listed = await call(product.server.url, "GET", "/api/admin/passkeys", { token: token ?? "" })
      expect((listed.body.data as { passkeys: ReadonlyArray<{ name: string }> }).passkeys.map((one) => one.name)).toEqual(["Laptop"])
      expect(errors).toEqual([])
      await context.close()
    } finally {
      await call(product.server.url, "PUT", "/api/admin/passkeys/rules/moderator", { token: superToken, body: { required: false, graceDays: 0 } })
    }
  })
})
