import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import type { BlogPost } from "../../contract/blog.ts"
import type { CoreTeamContact } from "../../contract/contacts.ts"
import { seriousViolations } from "../support/axe.ts"
import { chromiumWithServer, isDark, newPage } from "../support/browser.ts"
import { browserEngines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"

/**
 * A record's history as a person reads it (docs/architecture.md, "Record history"): a post body's
 * change as a reader sees it, block by block, never its markup; an author as its fields; times in
 * the viewer's own zone; a save that left a field alone naming nothing for it; and the dialogs'
 * first keys: a confirmation on its safe button, the deleted records' first row current, the
 * compare picker naming the version chosen. On one engine: tests/api/history.test.ts reads histories on both.
 */
describe.each(browserEngines)("reading a history in the console on $name", (engine) => {
  const product = chromiumWithServer(engine)
  let token: string
  let counter = 0
  const marker = () => `${engine.name}-${++counter}-${Date.now().toString(36)}`

  beforeAll(async () => {
    token = await signedInAs(product.server, "admin")
  })

  const api = async (method: string, path: string, body?: object) => {
    const answer = await call(product.server.url, method, path, { token, ...(body === undefined ? {} : { body }) })
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200)
    return answer.body
  }

  /** A page in a time zone far from the server's UTC, so a time written in UTC would show. */
  const openAt = async (path: string, colorScheme: "light" | "dark" = "light") => {
    const { page, errors } = await newPage(product.browser, { timezoneId: "Pacific/Auckland", colorScheme })
    await page.context().addInitScript((value) => localStorage.setItem("adminToken", value), token)
    await page.goto(`${product.server.url}${path}`)
    await page.getByRole("heading", { level: 1 }).waitFor()
    return { page, errors }
  }
  const historyDialog = (page: Page) => page.getByRole("dialog").filter({ has: page.getByRole("listbox", { name: "Versions, newest first" }) })
  /** The page's own way of writing `iso` as a local day and minute (its zone is the context's). */
  const localIn = (page: Page, iso: string) =>
    page.evaluate((value) => {
      const date = new Date(value)
      const two = (n: number) => String(n).padStart(2, "0")
      return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`
    }, iso)

  it("shows a post body's change as a reader sees it, the author as fields and times in the viewer's zone", async () => {
    const title = `Readable ${marker()}`
    const made = (
      await api("POST", "/api/blog/admin/posts", {
        title,
        content: "<h2>Intro</h2><p>Some bold words.</p><ul><li>One</li><li>Two</li></ul><p>Read <a href='https://a.example/guide'>the guide</a>.</p>",
        status: "draft",
        author: { username: "Ana", avatar: "https://img.example/ana.png", credentials: "Writer" }
      })
    ).post as BlogPost
    const scheduledAt = new Date(Date.now() + 5 * 86_400_000).toISOString()
    await api("PUT", `/api/blog/admin/posts/${made.slug}`, {
      title,
      // The list as the editor writes it, each item's text in a paragraph: the same items, no new paragraphs.
      content:
        "<h2>Intro</h2><p>Some <strong>bold</strong> new words.</p><ul><li><p>One</p></li><li><p>Two</p></li><li><p>Three</p></li></ul><p>Read <a href='https://b.example/guide'>the guide</a>.</p>",
      status: "scheduled",
      scheduledAt,
      author: { username: "Ana", credentials: "Editor" },
      version: made.version
    })
    const { page, errors } = await openAt(`/blog?search=${encodeURIComponent(title)}`)
    await page.getByText(title).waitFor()
    await page.locator("[data-current=true]").waitFor()
    await page.keyboard.press("h")
    const dialog = historyDialog(page)
    const changes = dialog.getByRole("table", { name: "What version 2 changed" })
    await changes.waitFor()
    const shown = await dialog.innerText()
    // No markup and no raw document or instant anywhere.
    for (const markup of ["<p>", "<li>", "<ul>", "<strong>", "<h2>", "</", '{"username"', '"credentials"']) expect(shown, markup).not.toContain(markup)
    expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/)
    expect((await changes.getByRole("rowheader").allTextContents()).sort()).toEqual(["Author credentials", "Content", "Scheduled at", "Status"])
    const row = (name: string) => changes.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) })
    // The body: the edited paragraph's new word marked, its new bold said, the new list item inserted,
    // the link's new address said; the unchanged items neither removed nor added.
    const body = row("Content")
    expect(await body.locator("ins").allTextContents()).toEqual(["inserted: new ", "inserted: Three"])
    expect(await body.locator("del").allTextContents()).toEqual([])
    expect(await body.getByRole("listitem").allTextContents()).toEqual(["made bold: “bold”", "link changed: “the guide” now goes to https://b.example/guide"])
    expect(await body.innerText()).not.toContain("One")
    expect(await body.innerText()).not.toContain("paragraph")
    expect(await body.innerText()).toContain("3 unchanged blocks not shown")
    // The author's credentials as a field of their own; the avatar the API left out is kept, so not a change.
    expect(await row("Author credentials").locator("del").allTextContents()).toEqual(["deleted: Writer"])
    expect(await row("Author credentials").locator("ins").allTextContents()).toEqual(["inserted: Editor"])
    // A time in the viewer's zone, as the console writes dates.
    expect(await row("Scheduled at").locator("ins").textContent()).toBe(`inserted: ${await localIn(page, scheduledAt)}`)
    const version = ((await api("GET", `/api/admin/history/blog/${made._id}?limit=1`)).data as { entries: ReadonlyArray<{ at: string }> }).entries[0]!
    await dialog
      .getByText(`Version 2, by `)
      .filter({ hasText: `${await localIn(page, version.at)}.` })
      .waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("a post whose excerpt alone was changed in the editor says it changed the excerpt only", async () => {
    const title = `Excerpt only ${marker()}`
    const made = (await api("POST", "/api/blog/admin/posts", { title, content: "<p>The body.</p>", excerpt: "First", status: "draft" })).post as BlogPost
    const { page, errors } = await openAt(`/blog/${made.slug}/edit`)
    await page.getByLabel("Excerpt").fill("Second")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await expect.poll(async () => ((await api("GET", `/api/blog/posts/${made.slug}`)).post as BlogPost).version).toBe(2)
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Show history")
    await page.keyboard.press("Enter")
    const dialog = historyDialog(page)
    const newest = dialog.getByRole("option").first()
    await expect.poll(() => newest.innerText()).toContain("Changed Excerpt")
    expect(await newest.innerText()).not.toContain("Author")
    expect(await dialog.getByRole("table", { name: "What version 2 changed" }).getByRole("rowheader").allTextContents()).toEqual(["Excerpt"])
    expect(errors).toEqual([])
    await page.context().close()
  })

  /** A contact with three versions (two notes after it was made). */
  const contactWithVersions = async (subject: string) => {
    const id = (
      (await api("POST", "/api/core-team-contact", { contactInfo: { name: "Grace", role: "Founder" }, inquiry: { subject, details: "Details" } })).data as {
        _id: string
      }
    )._id
    for (const [version, notes] of [
      [1, "Called on Monday"],
      [2, "Called on Tuesday"]
    ] as const) {
      const contact = ((await api("GET", `/api/core-team-contact/${id}`)).data as { contact: CoreTeamContact }).contact
      await api("PUT", `/api/core-team-contact/${id}`, {
        contactInfo: contact.contactInfo,
        inquiry: contact.inquiry,
        status: contact.status,
        internalNotes: notes,
        version
      })
    }
    return id
  }

  it("opens a restore's confirmation on Cancel, and the compare picker names the version chosen", async () => {
    const subject = `Dialog keys ${marker()}`
    const id = await contactWithVersions(subject)
    const { page, errors } = await openAt(`/core-team?search=${encodeURIComponent(subject)}`)
    await page.locator("[data-current=true]").waitFor()
    await page.keyboard.press("h")
    const dialog = historyDialog(page)
    const versions = dialog.getByRole("option")
    await expect.poll(() => versions.count()).toBe(3)
    // The picker shows the version compared with once chosen.
    const picker = dialog.getByRole("combobox", { name: "Compare with" })
    expect(await picker.innerText()).toBe("Choose a version")
    await picker.click()
    await page.getByRole("option", { name: "Version 1" }).click()
    await dialog.getByRole("table", { name: "From version 1 to version 3" }).waitFor()
    expect(await picker.innerText()).toBe("Version 1")
    // Choosing another version starts again.
    await versions.nth(1).click()
    await expect.poll(() => picker.innerText()).toBe("Choose a version")
    // r asks; the focus is on Cancel, so Enter keeps the record as it is.
    await versions.nth(1).focus()
    await page.keyboard.press("r")
    await page.getByText("Restore version 2?").waitFor()
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Cancel")
    await page.keyboard.press("Enter")
    await page.getByText("Restore version 2?").waitFor({ state: "detached" })
    await versions.first().waitFor()
    expect(((await api("GET", `/api/core-team-contact/${id}`)).data as { contact: CoreTeamContact }).contact.version).toBe(3)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("lists the deleted addresses under their plural with the first one current, so r brings it back at once", async () => {
    const name = `Gone ${marker()}`
    const ids: Array<string> = []
    for (const which of ["older", "newer"]) {
      const address = (
        (await api("POST", "/api/admin/addresses/generated", { identifier: `${name} ${which}`, Name: `${name} ${which}` })).data as {
          address: { _id: string; version: number }
        }
      ).address
      await api("DELETE", `/api/admin/addresses/generated/${address._id}?version=${address.version}`)
      ids.push(address._id)
    }
    const { page, errors } = await openAt("/generated-addresses")
    await page.locator("[data-current=true]").or(page.getByText("No addresses found")).first().waitFor()
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Deleted address")
    await page.keyboard.press("Enter")
    const removed = page.getByRole("dialog", { name: "Deleted addresses" })
    const rows = removed.getByRole("listbox", { name: "Deleted addresses" }).getByRole("option")
    await rows.first().waitFor()
    // The newest removal first, current and focused: Enter would open its history, not close the dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-selected"))).toBe("true")
    expect(await rows.first().innerText()).toContain(`${name} newer`)
    await page.keyboard.press("r")
    await removed.getByRole("status").getByText(`“${name} newer” is back, as version 3.`).waitFor()
    expect((await api("GET", `/api/admin/history/address/${ids[1]}?limit=1`)).data).toMatchObject({ current: { version: 3, removed: false } })
    // The next one is current: j is not needed first.
    await expect.poll(() => rows.count()).toBe(1)
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? "")).toContain(`${name} older`)
    await page.keyboard.press("Enter")
    await page.getByRole("dialog", { name: `History of address “${name} older”` }).waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })

  it.each(["light", "dark"] as const)("has no serious or critical axe violations in %s mode: a post body's change, the deleted records", async (scheme) => {
    const title = `Scanned ${scheme} ${marker()}`
    const made = (await api("POST", "/api/blog/admin/posts", { title, content: "<p>One plain line.</p><ul><li>Kept</li></ul>", status: "draft" }))
      .post as BlogPost
    await api("PUT", `/api/blog/admin/posts/${made.slug}`, {
      title,
      content: "<h2>One <em>plain</em> line.</h2><ul><li>Kept</li><li>Added</li></ul>",
      status: "draft",
      version: made.version
    })
    const { page } = await openAt(`/blog?search=${encodeURIComponent(title)}`, scheme)
    expect(await isDark(page)).toBe(scheme === "dark")
    await page.locator("[data-current=true]").waitFor()
    await page.keyboard.press("h")
    await historyDialog(page).getByRole("listitem").filter({ hasText: "now a heading (level 2)" }).waitFor()
    const settled = () => page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"))
    await settled()
    expect(await seriousViolations(page)).toEqual([])
    await page.keyboard.press("Escape")
    await historyDialog(page).waitFor({ state: "detached" })
    await api("DELETE", `/api/blog/admin/posts/${made._id}?version=2`)
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Deleted post")
    await page.keyboard.press("Enter")
    await page.getByRole("dialog", { name: "Deleted blog posts" }).getByRole("option").first().waitFor()
    await settled()
    expect(await seriousViolations(page)).toEqual([])
    await page.context().close()
  })
})
