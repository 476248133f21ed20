import type { Page } from "playwright-core"
import { beforeAll } from "vitest"
import { chromiumWithServer } from "./browser.ts"
import { signedInAs } from "./session.ts"

/**
 * The two inboxes' browser tests (tests/e2e/contacts.test.ts, advertising.test.ts): one server
 * with Chromium, an admin's and a moderator's token.
 */
export const inboxInChromium = () => {
  const product = chromiumWithServer()
  const tokens = { admin: "", moderator: "" }
  beforeAll(async () => {
    tokens.admin = await signedInAs(product.server, "admin")
    tokens.moderator = await signedInAs(product.server, "moderator")
  })
  return { product, tokens }
}

/** The figures of a group of count cards, in order. */
export const countsOf = async (page: Page, group: string) =>
  (await page.getByRole("group", { name: group }).getByRole("button").allTextContents()).map((text) => Number(text.replace(/\D+/g, "")))

export const cardsOf = (page: Page, title: string) => page.getByRole("list", { name: title }).getByRole("listitem")
