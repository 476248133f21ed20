import type { Browser, Page } from "playwright-core"
import { virtualAuthenticator } from "./authenticator.ts"
import { newPage } from "./browser.ts"
import type { TestServer } from "./server.ts"

/**
 * What a person does with passkeys on the console's screens (docs/console.md, "Passkeys"), for the
 * browser tests: every passkey is made by the screen, in Chromium's virtual authenticator, never
 * put there by the test (tests/e2e/passkey-paths.test.ts, tests/e2e/passkeys.test.ts).
 */

/** The console's own address: a passkey is bound to a domain, never a bare IP address (docs/security.md, "Passkeys"). */
export const consoleAddress = (server: TestServer) => `http://localhost:${new URL(server.url).port}`

/** A person's browser: a page with a platform authenticator that verifies its user, as a laptop's. */
export const browserWithDevice = async (browser: Browser, options: Parameters<typeof newPage>[1] = {}) => {
  const opened = await newPage(browser, options)
  return { ...opened, device: await virtualAuthenticator(opened.page) }
}

/** Settings in the sidebar, then Passkeys under its admin management. */
export const openPasskeys = async (page: Page) => {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click()
  await page.getByRole("navigation", { name: "Admin management" }).getByRole("link", { name: "Passkeys" }).click()
  await page.getByRole("heading", { level: 1, name: "Passkeys" }).waitFor()
}

/** Names a passkey and adds it with the device, on Settings → Passkeys, as far as the screen saying so. */
export const addPasskeyOnScreen = async (page: Page, name: string) => {
  await page.getByLabel("Passkey name").fill(name)
  await page.getByRole("button", { name: "Add a passkey" }).click()
  await page.getByRole("status").getByText(`Passkey “${name}” added.`).waitFor()
}

/** The sidebar's Logout, as far as the sign-in form. */
export const logout = async (page: Page) => {
  await page.getByRole("button", { name: "Logout" }).click()
  await page.getByRole("button", { name: "Send OTP" }).waitFor()
}

export const signedIn = (page: Page) => page.getByText("Welcome back").waitFor()
