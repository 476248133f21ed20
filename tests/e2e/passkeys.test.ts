import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { chromiumWithServer, newPage } from "../support/browser.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"
import { virtualAuthenticator } from "../support/authenticator.ts"

/**
 * Passkeys in Chromium (docs/console.md, "Passkeys"): a person adds a passkey with the device the
 * browser offers (Chromium's virtual authenticator, through the DevTools protocol's WebAuthn
 * domain), sees it listed and removes it; the server keeps it bound to the console's address,
 * which the page is opened at (localhost: a passkey is never bound to a bare IP address).
 */
describe.each(engines)("passkeys in Chromium on $name", (engine) => {
  const product = chromiumWithServer(engine)
  let token: string
  beforeAll(async () => {
    token = await signedInAs(product.server, "moderator")
  })

  /** The console at its own address, signed in, with a platform authenticator that verifies its user. */
  const openWithAuthenticator = async () => {
    const { page, context, errors } = await newPage(product.browser)
    await context.addInitScript((value) => localStorage.setItem("adminToken", value), token)
    const { credentials } = await virtualAuthenticator(page)
    await page.goto(`http://localhost:${new URL(product.server.url).port}/settings/passkeys`)
    return { page, context, errors, credentials }
  }
  const table = (page: Page) => page.getByRole("table", { name: "Passkeys" })

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
})
