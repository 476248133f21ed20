import { readFileSync } from "node:fs"
import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { chromiumWithServer, openSignedIn } from "../support/browser.ts"
import { csvObjects } from "../support/csv.ts"
import { call, freshIp } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"

/**
 * What a list screen declares, as the list piece makes it (docs/architecture.md, "The list
 * pattern"): a filter's palette command, the keys' line under the list, a confirmed row action's
 * busy and refused states, and the selection on a list other than the queues.
 */
const product = chromiumWithServer()
let admin: string
let superAdmin: string

beforeAll(async () => {
  admin = await signedInAs(product.server, "admin")
  superAdmin = await signedInAs(product.server, "super_admin")
})

const newPost = async (title: string) => {
  const answer = await call(product.server.url, "POST", "/api/blog/admin/posts", { token: admin, body: { title, content: "<p>Body</p>", status: "draft" } })
  expect(answer.status, answer.text).toBe(200)
  return (answer.body as { post: { _id: string; version: number } }).post
}

/** The list's Export CSV, pressed: the file's name and its records. */
const exported = async (page: Page) => {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()])
  return { name: download.suggestedFilename(), rows: csvObjects(readFileSync(await download.path(), "utf8")) }
}

describe("a list screen's declarations in Chromium", () => {
  it("exports what the screen's search and filters match, its query mapped as its page's is: contacts, inquiries, scam reports", async () => {
    const mark = `Exported${Date.now()}`
    const made = await Promise.all([
      call(product.server.url, "POST", "/api/core-team-contact", {
        ip: freshIp(),
        body: { contactInfo: { name: "Grace", role: "Founder", email: "public@example.com" }, inquiry: { subject: mark, details: "Please call us" } }
      }),
      call(product.server.url, "POST", "/api/advertising-inquiries", {
        ip: freshIp(),
        body: { companyName: mark, contactName: "Ann", email: "ann@example.com", industry: "Gaming" }
      }),
      call(product.server.url, "POST", "/api/report-scam", { ip: freshIp(), body: { scamType: "phishing", description: mark, walletAddress: `G${mark}` } })
    ])
    expect(made.map((answer) => answer.status)).toEqual([200, 200, 200])
    const search = `?search=${mark}`
    const { page, errors } = await openSignedIn(product, admin, `/core-team${search}`)
    const screens = [
      { path: `/core-team${search}`, file: /^core-team-contacts-[\d-]+\.csv$/u, shows: mark },
      { path: `/advertising-inquiries${search}`, file: /^advertising-inquiries-[\d-]+\.csv$/u, shows: mark },
      { path: `/scam-reports${search}`, file: /^scam-reports-[\d-]+\.csv$/u, shows: mark }
    ]
    for (const [at, screen] of screens.entries()) {
      if (at > 0) await page.goto(`${product.server.url}${screen.path}`)
      await page.getByText(screen.shows).first().waitFor()
      const file = await exported(page)
      expect(file.name).toMatch(screen.file)
      expect(file.rows.length, screen.path).toBe(1)
      expect(Object.values(file.rows[0]!).join(" ")).toContain(mark)
    }
    // A filter the record does not match leaves it out of the file, as out of the list.
    await page.goto(`${product.server.url}/scam-reports${search}&status=resolved`)
    await page.getByText("No scam reports match the current filters").waitFor()
    expect((await exported(page)).rows).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("writes the keys' line from the keys the list has: the blog's e among them", async () => {
    await newPost(`Hinted ${Date.now()}`)
    const { page, errors } = await openSignedIn(product, admin, "/blog")
    await page.getByText("j/k or ↑/↓ move · Enter or e edit · Delete remove · n new post · s search · h history", { exact: true }).waitFor()
    const core = await openSignedIn(product, admin, "/core-team")
    await core.page
      .getByText(
        "j/k or ↑/↓ move · Enter or e edit · Delete delete · 1–5 set the status (new, in progress, responded, resolved, closed) · x select · Shift+J/K extend the selection · Escape clear it · n new · s search · h history",
        { exact: true }
      )
      .waitFor()
    expect([...errors, ...core.errors]).toEqual([])
    await page.context().close()
    await core.page.context().close()
  })

  it("offers a filter's values in the palette, and the command sets the filter", async () => {
    const title = `Filtered ${Date.now()}`
    await newPost(title)
    const { page, errors } = await openSignedIn(product, admin, "/blog")
    await page.getByRole("row").filter({ hasText: title }).waitFor()
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Show published posts")
    await page.getByRole("option", { name: "Show published posts" }).waitFor()
    await page.keyboard.press("Enter")
    await expect.poll(() => new URL(page.url()).searchParams.get("status")).toBe("published")
    await page.getByRole("row").filter({ hasText: title }).waitFor({ state: "detached" })
    await page.keyboard.press("Control+k")
    await page.keyboard.type("Show all posts")
    await page.keyboard.press("Enter")
    await expect.poll(() => new URL(page.url()).searchParams.get("status")).toBe(null)
    await page.getByRole("row").filter({ hasText: title }).waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("a confirmed row action shows busy while its call runs, then the refusal, the dialog staying", async () => {
    // Disabling an admin is a call, never a command of the store (src/features/admin-users/AdminUsersScreen.tsx):
    // the dialog waits for it whether the store is open yet or not.
    const email = `held-${Date.now()}@example.com`
    const made = await call(product.server.url, "POST", "/api/admin/users", { token: superAdmin, body: { email, role: "moderator" } })
    expect(made.status, made.text).toBe(200)
    const user = (made.body as { data: { user: { _id: string; version: number } } }).data.user
    const { page } = await openSignedIn(product, superAdmin, `/settings/admins?search=${encodeURIComponent(email)}`)
    const row = page.getByRole("row").filter({ hasText: email })
    await row.waitFor()
    // This screen's change is held until the dialog has shown it waits.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route("**/api/admin/users/**", async (route) => {
      if (route.request().method() !== "PUT") return route.continue()
      await held
      await route.continue()
    })
    await row.getByRole("button", { name: "Disable" }).click()
    const dialog = page.getByRole("alertdialog")
    await dialog.getByText("Disable this admin?", { exact: false }).waitFor()
    // Someone else changes the admin while the question is open (the row behind may change, live); the dialog stays.
    const changed = await call(product.server.url, "PUT", `/api/admin/users/${user._id}`, {
      token: superAdmin,
      body: { role: "admin", version: user.version }
    })
    expect(changed.status, changed.text).toBe(200)
    await dialog.getByRole("button", { name: "Disable" }).click()
    const busy = dialog.getByRole("button", { name: "Disabling…" })
    await busy.waitFor()
    expect(await busy.isDisabled()).toBe(true)
    expect(await dialog.getByRole("button", { name: "Cancel" }).isDisabled()).toBe(true)
    release()
    await dialog
      .getByRole("alert")
      .filter({ hasText: /^Failed to change the admin: This admin was changed by someone else/ })
      .waitFor()
    expect(await dialog.getByRole("button", { name: "Disable" }).isDisabled()).toBe(false)
    await page.context().close()
  })

  it("selects contacts with x and Shift+J, and a status key sets it on every one selected", async () => {
    const subject = `Bulk ${Date.now()}`
    for (const n of [1, 2, 3]) {
      const posted = await call(product.server.url, "POST", "/api/core-team-contact", {
        ip: freshIp(),
        body: { contactInfo: { name: `Person ${n}`, role: "Founder", email: `p${n}@example.com` }, inquiry: { subject: `${subject} ${n}`, details: "Call us" } }
      })
      expect(posted.status, posted.text).toBe(200)
    }
    const { page, errors } = await openSignedIn(product, admin, `/core-team?search=${encodeURIComponent(subject)}`)
    const cards = page.getByRole("list", { name: "Core Team Contacts" }).getByRole("listitem")
    await expect.poll(() => cards.count()).toBe(3)
    await cards.first().focus()
    await page.keyboard.press("x")
    await page.keyboard.press("Shift+J")
    await page.getByText("2 selected", { exact: true }).waitFor()
    await page.keyboard.press("Control+k")
    await page.getByRole("option", { name: /^Set status Responded: 2 selected/ }).waitFor()
    await page.keyboard.press("Escape")
    await page.keyboard.press("3")
    await expect.poll(async () => (await cards.allTextContents()).filter((text) => text.includes("Responded")).length).toBe(2)
    expect(await page.getByText("2 selected", { exact: true }).count()).toBe(0)
    // The screen shows the change at once; the server has it when the two commands have gone out.
    const statuses = async () => {
      const listed = await call(product.server.url, "GET", `/api/core-team-contact?search=${encodeURIComponent(subject)}`, { token: admin })
      return (listed.body.data as { contacts: ReadonlyArray<{ status: string }> }).contacts.map((contact) => contact.status).sort()
    }
    await expect.poll(statuses).toEqual(["new", "responded", "responded"])
    expect(errors).toEqual([])
    await page.context().close()
  })
})
