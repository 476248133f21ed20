import { isoCBOR } from "@simplewebauthn/server/helpers"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { hashToken } from "../../server/platform/secrets.ts"
import { chromiumWithServer, newPage, typeCodeOnScreen } from "../support/browser.ts"
import { call } from "../support/http.ts"
import { addPasskeyOnScreen, browserWithDevice, consoleAddress, logout, openPasskeys, signedIn } from "../support/passkey-screens.ts"
import { latestCode } from "../support/server.ts"
import { signedInAs } from "../support/session.ts"

/**
 * The passkey paths a person walks, in Chromium (docs/console.md, "Passkeys", "Confirm it's you"):
 * every passkey is made by the screen, in the browser's own virtual authenticator (the DevTools
 * protocol's WebAuthn domain), never put there by the test. Today's Chromium makes ML-DSA-44
 * passkeys when the server offers ML-DSA first, so each story also carries 2,420-byte signatures.
 */
describe("passkey paths through the screens in Chromium", () => {
  const product = chromiumWithServer()
  const address = () => consoleAddress(product.server)
  const query = <A>(run: (sql: SqlClient) => Effect.Effect<A, unknown>) =>
    product.server.sql(Effect.flatMap(SqlClient, run) as Effect.Effect<A, never, SqlClient>)
  const withDevice = () => browserWithDevice(product.browser)
  const typeCode = (page: Page, email: string, role: string) => typeCodeOnScreen(page, product.server, email, role, address())
  /** The COSE algorithm of each of `email`'s passkeys, read from the public key the server keeps. */
  const algorithmsOf = async (email: string) => {
    const rows = await query(
      (sql) => sql<{ publicKey: Uint8Array }>`SELECT p.public_key FROM passkeys p JOIN admins a ON a.id = p.admin_id WHERE a.email = ${email}`
    )
    return rows.map((row) => isoCBOR.decodeFirst<Map<number, unknown>>(new Uint8Array(row.publicKey)).get(3))
  }
  /** Ten minutes and more pass for the session `page` holds: its last confirmation is over (docs/security.md, "Confirm what matters"). */
  const tenMinutesPass = async (page: Page) => {
    const token = (await page.evaluate(() => localStorage.getItem("adminToken"))) ?? ""
    await query(
      (sql) => sql`UPDATE sessions SET confirmed_at = confirmed_at - interval '11 minutes', last_passkey_at = last_passkey_at - interval '11 minutes'
                   WHERE token_hash = ${hashToken(token)}`
    )
  }
  /** Another person's decision, set through the API: a super admin requiring passkeys of a role (its screen: the last story). */
  const requirePasskeys = async (role: string, required: boolean) => {
    const answer = await call(product.server.url, "PUT", `/api/admin/passkeys/rules/${role}`, {
      token: await signedInAs(product.server, "super_admin"),
      body: { required, graceDays: 0 }
    })
    expect(answer.status, answer.text).toBe(200)
  }
  const confirmDialog = (page: Page) => page.getByRole("dialog", { name: "Confirm it's you" })
  const recoveryCodes = (page: Page) => page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")

  it("adds a passkey on Settings → Passkeys, signs out and in with it, confirms with it, and finishes a code sign-in's second step with it", async () => {
    const email = "laptop-owner@example.com"
    await product.server.sql(addAdmin(email, "moderator"))
    const { page, context, errors, device } = await withDevice()
    await typeCode(page, email, "Moderator")
    await signedIn(page)
    await openPasskeys(page)
    await addPasskeyOnScreen(page, "Work laptop")
    expect(await device.credentials()).toHaveLength(1)
    // Chromium took the first algorithm offered, ML-DSA-44: every answer of this passkey is 2,420 bytes of signature.
    expect(await algorithmsOf(email)).toEqual([-48])
    await logout(page)
    await page.getByRole("button", { name: "Sign in with a passkey" }).click()
    await signedIn(page)
    // Ten minutes on, making recovery codes asks "Confirm it's you", and the passkey confirms.
    await openPasskeys(page)
    await tenMinutesPass(page)
    await page.getByRole("button", { name: "Make recovery codes" }).click()
    await confirmDialog(page).getByText("This change asks for your passkey again: the last time was more than 10 minutes ago.").waitFor()
    await confirmDialog(page).getByRole("button", { name: "Use my passkey" }).click()
    await expect.poll(() => recoveryCodes(page).count()).toBe(10)
    expect(await confirmDialog(page).count()).toBe(0)
    // The role now requires a passkey: a code is the first step, the passkey the second.
    await requirePasskeys("moderator", true)
    try {
      await logout(page)
      await typeCode(page, email, "Moderator")
      await page.getByRole("heading", { name: "Confirm with your passkey" }).waitFor()
      await page.getByRole("button", { name: "Use my passkey" }).click()
      await signedIn(page)
    } finally {
      await requirePasskeys("moderator", false)
    }
    expect(await device.credentials()).toHaveLength(1)
    expect(errors).toEqual([])
    await context.close()
  })

  it("makes recovery codes on Settings → Passkeys; with the phone lost, signs in with one, adds a new passkey and removes the lost one", async () => {
    const email = "lost-phone@example.com"
    await product.server.sql(addAdmin(email, "moderator"))
    const phone = await withDevice()
    await typeCode(phone.page, email, "Moderator")
    await signedIn(phone.page)
    await openPasskeys(phone.page)
    await addPasskeyOnScreen(phone.page, "Phone")
    // Within the ten minutes the code sign-in confirmed: no question asked.
    await phone.page.getByRole("button", { name: "Make recovery codes" }).click()
    await expect.poll(() => recoveryCodes(phone.page).count()).toBe(10)
    const saved = (await recoveryCodes(phone.page).first().textContent()) ?? ""
    expect(saved).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/u)
    await phone.page.getByRole("button", { name: "I have saved them" }).click()
    expect(phone.errors).toEqual([])
    // The phone, and its passkey, are lost: the person signs in on another device.
    await phone.context.close()
    await requirePasskeys("moderator", true)
    const { page, context, errors, device } = await withDevice()
    try {
      await typeCode(page, email, "Moderator")
      await page.getByRole("heading", { name: "Confirm with your passkey" }).waitFor()
      await page.getByRole("button", { name: "Lost your device? Use a recovery code" }).click()
      await page.getByRole("textbox", { name: "Recovery code" }).fill(saved)
      await page.getByRole("button", { name: "Sign in with the recovery code" }).click()
      await signedIn(page)
      await openPasskeys(page)
      await page.getByText("9 recovery codes left.", { exact: false }).waitFor()
      // The recovery code confirmed it's you: a new passkey is added, and the lost one removed, without a question.
      await addPasskeyOnScreen(page, "New phone")
      expect(await device.credentials()).toHaveLength(1)
      const passkeys = page.getByRole("table", { name: "Passkeys" })
      // Both are listed before the person picks the lost one: a row is clicked where it shows.
      await passkeys.getByRole("row").filter({ hasText: "New phone" }).waitFor()
      await passkeys.getByRole("row").filter({ hasText: "Phone" }).filter({ hasNotText: "New phone" }).getByRole("button", { name: "Remove" }).click()
      const removing = page.getByRole("alertdialog")
      await removing.getByText("Phone", { exact: true }).waitFor()
      expect(await removing.getByText("New phone").count()).toBe(0)
      await removing.getByRole("button", { name: "Remove" }).click()
      await passkeys.getByRole("row").filter({ hasText: "Phone" }).filter({ hasNotText: "New phone" }).waitFor({ state: "detached" })
      expect(await confirmDialog(page).count()).toBe(0)
      // The server has it: the lost passkey is gone from the account.
      const names = () =>
        query((sql) => sql<{ name: string }>`SELECT p.name FROM passkeys p JOIN admins a ON a.id = p.admin_id WHERE a.email = ${email} ORDER BY p.name`)
      await expect.poll(async () => (await names()).map((row) => row.name)).toEqual(["New phone"])
    } finally {
      await requirePasskeys("moderator", false)
    }
    expect(errors).toEqual([])
    await context.close()
  })

  it("lets a person with no passkey, past the ten minutes of their code sign-in, confirm with a mailed code and add their first", async () => {
    const email = "first-passkey@example.com"
    await product.server.sql(addAdmin(email, "admin"))
    const { page, context, errors, device } = await withDevice()
    await typeCode(page, email, "Admin")
    await signedIn(page)
    await openPasskeys(page)
    await tenMinutesPass(page)
    await page.getByLabel("Passkey name").fill("Laptop")
    await page.getByRole("button", { name: "Add a passkey" }).click()
    await confirmDialog(page).getByText(`This change asks you to confirm it's you. We sent a 6-digit code to ${email}.`).waitFor()
    expect(await device.credentials()).toHaveLength(0)
    await confirmDialog(page)
      .getByLabel("Confirmation code")
      .fill(await latestCode(product.server, email))
    await confirmDialog(page).getByRole("button", { name: "Confirm" }).click()
    await page.getByRole("status").getByText("Passkey “Laptop” added.").waitFor()
    expect(await device.credentials()).toHaveLength(1)
    expect(await confirmDialog(page).count()).toBe(0)
    expect(errors).toEqual([])
    await context.close()
  })

  it("lets a super admin require passkeys of a role on its screen: a person with one is asked for it after the code, one with none to add one", async () => {
    const holder = "rule-holder@example.com"
    const newcomer = "rule-newcomer@example.com"
    const chief = "rule-chief@example.com"
    for (const [email, role] of [
      [holder, "admin"],
      [newcomer, "admin"],
      [chief, "super_admin"]
    ] as const)
      await product.server.sql(addAdmin(email, role))
    const holderBrowser = await withDevice()
    await typeCode(holderBrowser.page, holder, "Admin")
    await signedIn(holderBrowser.page)
    await openPasskeys(holderBrowser.page)
    await addPasskeyOnScreen(holderBrowser.page, "Desk key")
    const chiefBrowser = await newPage(product.browser)
    try {
      await typeCode(chiefBrowser.page, chief, "Super Admin")
      await signedIn(chiefBrowser.page)
      await openPasskeys(chiefBrowser.page)
      const rule = chiefBrowser.page.getByRole("form", { name: "Save the rule for Admin" })
      await rule.getByRole("checkbox").click()
      await rule.getByLabel("Days of grace").fill("3")
      await rule.getByRole("button", { name: "Save the rule for Admin" }).click()
      await rule.getByText(/^Passkeys are required for Admin\. Grace until /u).waitFor()
      // The holder's session was opened by a code alone: it ended with the rule, and the next sign-in asks for the passkey.
      await holderBrowser.page.reload()
      await holderBrowser.page.getByRole("button", { name: "Send OTP" }).waitFor()
      await typeCode(holderBrowser.page, holder, "Admin")
      await holderBrowser.page.getByRole("heading", { name: "Confirm with your passkey" }).waitFor()
      await holderBrowser.page.getByRole("button", { name: "Use my passkey" }).click()
      await signedIn(holderBrowser.page)
      // Someone with none, within the grace: signed in, and asked to add one first.
      const newcomerBrowser = await withDevice()
      await typeCode(newcomerBrowser.page, newcomer, "Admin")
      await newcomerBrowser.page.getByRole("heading", { name: "Add a passkey" }).waitFor()
      await newcomerBrowser.page.getByText("Your role requires a passkey. Until ", { exact: false }).waitFor()
      await newcomerBrowser.page.getByLabel("Passkey name").fill("Laptop")
      await newcomerBrowser.page.getByRole("button", { name: "Add a passkey" }).click()
      await signedIn(newcomerBrowser.page)
      expect(await newcomerBrowser.device.credentials()).toHaveLength(1)
      expect([...holderBrowser.errors, ...chiefBrowser.errors, ...newcomerBrowser.errors]).toEqual([])
      await newcomerBrowser.context.close()
    } finally {
      await requirePasskeys("admin", false)
      await chiefBrowser.context.close()
      await holderBrowser.context.close()
    }
  })
})
