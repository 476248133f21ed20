import type { Locator, Page, Request } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { chromiumWithServer, fieldMessage, openSignedIn } from "../support/browser.ts"
import { call, freshIp } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"

/**
 * The one form pattern in Chromium (docs/architecture.md, "Forms"): bad values people type are
 * said under their fields in the labels' words, the cursor goes to the first, nothing is sent
 * or stored, and the server refuses the same payload naming the same fields; a refusal only the
 * server can make lands on its field too.
 */
const product = chromiumWithServer()
let admin: string

beforeAll(async () => {
  admin = await signedInAs(product.server, "admin")
})

const opened = (path: string) => openSignedIn(product, admin, path)

/** Every write the page sends to the API (not the reads, the session check or the change stream). */
const writesOf = (page: Page) => {
  const writes: Array<Request> = []
  page.on("request", (request) => {
    if (request.method() !== "GET" && new URL(request.url()).pathname.startsWith("/api/")) writes.push(request)
  })
  return writes
}

const isFocused = (control: Locator) => control.evaluate((element) => element === document.activeElement)

/** The part of the control the viewport shows, 0 to 1. */
const shownShare = (control: Locator) =>
  control.evaluate(
    (element) =>
      new Promise<number>((resolve) => {
        const observer = new IntersectionObserver(([entry]) => {
          observer.disconnect()
          resolve(entry?.intersectionRatio ?? 0)
        })
        observer.observe(element)
      })
  )

const issuePaths = (body: Record<string, unknown>) =>
  [...new Set(((body.issues ?? []) as ReadonlyArray<{ readonly path: string }>).map((issue) => issue.path))].sort()

const URL_MESSAGE = "must be an http:// or https:// address, or an uploaded image (/uploads/…)"

describe("forms say what is wrong, under the field, in the user's words", () => {
  it("a CEX address: an over-long identifier, a Buy that is no address and a javascript: logo, each under its field; nothing sent or stored", async () => {
    const { page, errors } = await opened("/cex-addresses")
    const writes = writesOf(page)
    await page.getByRole("button", { name: "Add Address" }).click()
    const dialog = page.getByRole("dialog")
    const identifier = dialog.getByLabel("Identifier")
    await identifier.fill("i".repeat(10_000))
    await dialog.getByLabel("Name").fill("Forms Exchange")
    await dialog.getByLabel("Buy").fill("buy here")
    await dialog.getByLabel("Logo").fill("javascript:alert(1)")
    await dialog.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => fieldMessage(identifier)).toBe("Identifier must be at most 200 characters")
    expect(await fieldMessage(dialog.getByLabel("Buy"))).toBe(`Buy ${URL_MESSAGE}`)
    expect(await fieldMessage(dialog.getByLabel("Logo"))).toBe(`Logo ${URL_MESSAGE}`)
    expect(await fieldMessage(dialog.getByLabel("Name"))).toBeUndefined()
    expect(await isFocused(identifier)).toBe(true)
    // Each problem once, and no banner blaming the server.
    expect(await dialog.getByText(`Buy ${URL_MESSAGE}`).count()).toBe(1)
    expect(await dialog.getByText(/Failed to|Unexpected answer/).count()).toBe(0)
    expect(writes).toEqual([])
    // The same payload to the server: refused, naming the same fields, and nothing stored.
    const payload = { identifier: "i".repeat(10_000), name: "Forms Exchange", buy: "buy here", logo: "javascript:alert(1)" }
    const refused = await call(product.server.url, "POST", "/api/admin/addresses/cex", { token: admin, body: payload })
    expect(refused.status).toBe(400)
    expect(issuePaths(refused.body)).toEqual(["buy", "identifier", "logo"])
    const stored = await call(product.server.url, "GET", "/api/admin/addresses/cex?search=Forms%20Exchange", { token: admin })
    expect(JSON.stringify(stored.body)).not.toContain("Forms Exchange")

    // Corrected, each message goes as its field is, and the address is saved.
    await identifier.fill("forms-cex-1")
    await expect.poll(() => fieldMessage(identifier)).toBeUndefined()
    await dialog.getByLabel("Buy").fill("https://buy.example/pi")
    await dialog.getByLabel("Logo").fill("")
    await dialog.getByRole("button", { name: "Save" }).click()
    await dialog.waitFor({ state: "detached" })
    expect(writes.map((request) => request.method())).toEqual(["POST"])
    expect(errors).toEqual([])
  })

  it("a generated address: a rank of 99999999999 is out of range, said in the label's words", async () => {
    const { page, errors } = await opened("/generated-addresses")
    const writes = writesOf(page)
    await page.getByRole("button", { name: "Add Address" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByLabel("Identifier").fill("forms-generated-1")
    await dialog.getByLabel("Name").fill("Forms Generated")
    const rank = dialog.getByLabel("Rank")
    await rank.fill("99999999999")
    await dialog.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => fieldMessage(rank)).toBe("Rank must be between -1000000 and 1000000")
    expect(await isFocused(rank)).toBe(true)
    // A rank is a whole number: 12.5 and 12abc are said alike, never read as 12.
    await rank.fill("12abc")
    await expect.poll(() => fieldMessage(rank)).toBe("Rank must be a whole number")
    await rank.fill("12.5")
    await dialog.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => fieldMessage(rank)).toBe("Rank must be a whole number")
    expect(writes).toEqual([])
    expect(errors).toEqual([])
  })

  it("a business in its tall dialog: Founded 99999 said once, Employees 12abc, the first in view with the cursor; nothing sent", async () => {
    const { page, errors } = await opened("/businesses")
    const writes = writesOf(page)
    await page.setViewportSize({ width: 1280, height: 560 })
    await page.getByRole("button", { name: "Add Business" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByLabel("Name").fill("Forms Bakery")
    await dialog.getByLabel("Category").fill("Food")
    await dialog.getByLabel("Industry").fill("Hospitality")
    await dialog.getByLabel("Description").fill("Bread")
    const founded = dialog.getByLabel("Founded (year)")
    const employees = dialog.getByLabel("Employees")
    await founded.fill("99999")
    await employees.fill("12abc")
    await dialog.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => fieldMessage(founded)).toBe("Founded (year) must be a year such as 2021")
    expect(await fieldMessage(employees)).toBe("Employees must be a whole number")
    expect(await dialog.getByText("Founded (year) must be a year such as 2021").count()).toBe(1)
    expect(await dialog.getByText(/employees|Unexpected answer|Failed to save/).count()).toBe(0)
    expect(await isFocused(founded)).toBe(true)
    await expect.poll(() => shownShare(founded)).toBeGreaterThan(0.99)
    expect(writes).toEqual([])
    expect(errors).toEqual([])
  })

  it("a refusal only the server makes lands on its field, with the typed values kept", async () => {
    const { page, errors } = await opened("/businesses")
    // The request leaves the console whole; on its way a name over 200 characters is put in, as
    // an older console or another client might send: the real server refuses it.
    await page.route("**/api/admin/businesses", async (route, request) => {
      if (request.method() !== "POST") return route.continue()
      const body = JSON.parse(request.postData() ?? "{}") as Record<string, unknown>
      await route.continue({ postData: JSON.stringify({ ...body, name: "n".repeat(300) }) })
    })
    await page.getByRole("button", { name: "Add Business" }).click()
    const dialog = page.getByRole("dialog")
    const name = dialog.getByLabel("Name")
    await name.fill("Forms Server Refusal")
    await dialog.getByLabel("Category").fill("Food")
    await dialog.getByLabel("Industry").fill("Hospitality")
    await dialog.getByLabel("Description").fill("Bread")
    const answered = page.waitForResponse((response) => response.url().endsWith("/api/admin/businesses") && response.request().method() === "POST")
    await dialog.getByRole("button", { name: "Save" }).click()
    expect((await answered).status()).toBe(400)
    await expect.poll(() => fieldMessage(name)).toBe("Name must be at most 200 characters")
    expect(await isFocused(name)).toBe(true)
    expect(await name.inputValue()).toBe("Forms Server Refusal")
    expect(await dialog.getByLabel("Description").inputValue()).toBe("Bread")
    expect(errors).toEqual([])
  })

  it("an event that ends before it starts is refused under Ends, at once with the other fields' problems", async () => {
    const { page, errors } = await opened("/events")
    const writes = writesOf(page)
    await page.getByRole("button", { name: "Add Event" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByLabel("Starts").fill("2026-12-20T10:00")
    const ends = dialog.getByLabel("Ends")
    await ends.fill("2026-12-19T10:00")
    // Name and description still empty: all three are said on the first Save.
    await dialog.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => fieldMessage(ends)).toBe("Ends must be at or after Starts")
    expect(await fieldMessage(dialog.getByLabel("Name"))).toBe("Name is required")
    await dialog.getByLabel("Name").fill("Forms Meetup")
    await dialog.getByLabel("Description").fill("A meetup")
    await dialog.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => fieldMessage(ends)).toBe("Ends must be at or after Starts")
    expect(writes).toEqual([])
    expect(errors).toEqual([])
  })

  it("a post title over 200 characters, saved from another tab: the editor opens the Content tab on the title and says why", async () => {
    const { page, errors } = await opened("/blog/new")
    const writes = writesOf(page)
    const title = page.getByLabel("Title", { exact: true })
    await title.fill("t".repeat(201))
    await page.locator(".bn-editor").click()
    await page.keyboard.type("A body")
    await page.getByRole("tab", { name: "SEO" }).click()
    await page.keyboard.press("Control+s")
    await expect.poll(() => fieldMessage(title)).toBe("Title must be at most 200 characters")
    expect(await page.getByRole("tab", { name: "Content" }).getAttribute("aria-selected")).toBe("true")
    expect(await isFocused(title)).toBe(true)
    expect(await page.getByText(/Unexpected answer/).count()).toBe(0)
    expect(writes).toEqual([])
    expect(errors).toEqual([])
  })

  it.each([
    ["/communities", "Add Community"],
    ["/influencers", "Add Influencer"],
    ["/businesses", "Add Business"],
    ["/startups", "Add Startup"],
    ["/projects", "Add Project"],
    ["/events", "Add Event"],
    ["/hackathons", "Add Hackathon"]
  ] as const)("the %s form: empty, then a 300-character name, each said under Name with the cursor there; nothing sent", async (path, button) => {
    const { page, errors } = await opened(path)
    const writes = writesOf(page)
    await page.getByRole("button", { name: button }).click()
    const dialog = page.getByRole("dialog")
    const name = dialog.getByLabel("Name")
    await dialog.getByRole("button", { name: "Save" }).click()
    await expect.poll(() => fieldMessage(name)).toBe("Name is required")
    expect(await isFocused(name)).toBe(true)
    expect(await fieldMessage(dialog.getByLabel("Description"))).toBe("Description is required")
    await name.fill("n".repeat(300))
    await expect.poll(() => fieldMessage(name)).toBe("Name must be at most 200 characters")
    expect(writes).toEqual([])
    const api = await call(
      product.server.url,
      "POST",
      path === "/events" || path === "/hackathons" ? `/api/ecosystem?type=${path.slice(1)}` : `/api/admin${path}`,
      { token: admin, body: { name: "n".repeat(300), description: "" } }
    )
    expect(api.status).toBe(400)
    expect(issuePaths(api.body)).toEqual(expect.arrayContaining(["description", "name"]))
    expect(errors).toEqual([])
  })

  it("a core-team contact: an e-mail that is none and a javascript: website, under their fields; nothing sent", async () => {
    const { page, errors } = await opened("/core-team")
    const writes = writesOf(page)
    await page.getByRole("button", { name: "Add New Contact" }).click()
    const form = page.getByRole("form", { name: "Add New Core Team Contact" })
    await form.getByLabel("Contact Name").fill("Forms Contact")
    const email = form.getByLabel("Email")
    await email.fill("not an e-mail")
    const website = form.getByLabel("Project Website")
    await website.fill("javascript:alert(1)")
    await form
      .getByRole("button", { name: /Add|Create|Save/ })
      .first()
      .click()
    await expect.poll(() => fieldMessage(email)).toBe("Email must be a valid e-mail address")
    expect(await fieldMessage(website)).toMatch(/^Project Website must be/)
    expect(await fieldMessage(form.getByLabel("Subject"))).toBe("Subject is required")
    expect(await isFocused(email)).toBe(true)
    expect(writes).toEqual([])
    expect(errors).toEqual([])
  })

  it("a core-team contact: hours that are not a whole number and an emptied date, in the labels' words; nothing stored as 72", async () => {
    const { page, errors } = await opened("/core-team")
    const writes = writesOf(page)
    await page.getByRole("button", { name: "Add New Contact" }).click()
    const form = page.getByRole("form", { name: "Add New Core Team Contact" })
    await form.getByLabel("Contact Name").fill("Hours Contact")
    await form.getByLabel("Role").fill("Founder")
    await form.getByLabel("Subject").fill("Hours")
    await form.getByLabel("Details").fill("Typed letters into the hours")
    const hours = form.getByLabel("Expected Response Time (hours)")
    const submitted = form.getByLabel("Submitted At")
    await hours.fill("abc")
    await submitted.fill("")
    const save = form.getByRole("button", { name: /Add|Create|Save/ }).first()
    await save.click()
    await expect.poll(() => fieldMessage(hours)).toBe("Expected Response Time (hours) must be a whole number")
    expect(await fieldMessage(submitted)).toBe("Submitted At is required")
    await hours.fill("12.5")
    await save.click()
    await expect.poll(() => fieldMessage(hours)).toBe("Expected Response Time (hours) must be a whole number")
    expect(writes).toEqual([])
    expect(errors).toEqual([])
  })

  it("an inquiry's and a scam report's notes over 5,000 characters: said under Admin Notes, nothing sent", async () => {
    const company = "Forms Notes Company"
    expect(
      (
        await call(product.server.url, "POST", "/api/advertising-inquiries", {
          ip: freshIp(),
          body: { companyName: company, contactName: "Ann", email: "ann@example.com", industry: "Gaming" }
        })
      ).status
    ).toBe(200)
    const description = "Forms notes scam report"
    expect(
      (
        await call(product.server.url, "POST", "/api/report-scam", {
          ip: freshIp(),
          body: { scamType: "phishing", description, walletAddress: "GFORMSNOTES" }
        })
      ).status
    ).toBe(200)

    const inquiries = await opened(`/advertising-inquiries?search=${encodeURIComponent(company)}`)
    const inquiryWrites = writesOf(inquiries.page)
    await inquiries.page.getByRole("button", { name: "View" }).first().click()
    const inquiry = inquiries.page.getByRole("dialog")
    const inquiryNotes = inquiry.getByLabel("Admin Notes")
    await inquiryNotes.fill("a".repeat(5_001))
    await inquiry
      .getByRole("button", { name: /Contacted/ })
      .first()
      .click()
    await expect.poll(() => fieldMessage(inquiryNotes)).toBe("Admin Notes must be at most 5000 characters")
    expect(await isFocused(inquiryNotes)).toBe(true)
    expect(inquiryWrites).toEqual([])
    expect(inquiries.errors).toEqual([])

    const reports = await opened(`/scam-reports?search=${encodeURIComponent(description)}`)
    const reportWrites = writesOf(reports.page)
    await reports.page.getByRole("button", { name: "Details" }).first().click()
    const report = reports.page.getByRole("dialog")
    const reportNotes = report.getByLabel("Admin Notes")
    await reportNotes.fill("b".repeat(5_001))
    await report.getByRole("button", { name: /Save/ }).first().click()
    await expect.poll(() => fieldMessage(reportNotes)).toBe("Admin Notes must be at most 5000 characters")
    expect(reportWrites).toEqual([])
    expect(reports.errors).toEqual([])
  })

  /**
   * Types `text` a character at a time inside the page, each an input event as a key makes, each
   * in a task of its own behind a 0 ms timer: the field renders and runs its effects between two
   * keys, and a loaded machine can't let the preview's 500 ms pause fire between them (timers run
   * in the order they are due, the next key's first).
   */
  const typeInOneGo = (control: Locator, text: string) =>
    control.evaluate(async (element, value) => {
      const input = element as HTMLInputElement
      // The prototype's setter, as a key's edit sets it, so React's own tracking sees a change.
      const property = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!
      input.focus()
      for (const character of value) {
        // eslint-disable-next-line @typescript-eslint/unbound-method -- applied to the input right here
        Reflect.apply(property.set!, input, [input.value + character])
        input.dispatchEvent(new InputEvent("input", { bubbles: true, data: character, inputType: "insertText" }))
        await new Promise((resolve) => setTimeout(resolve, 0))
      }
    }, text)

  it("previews a featured image typed key by key once, says when it cannot be loaded, and never asks for a javascript: address", async () => {
    const { page, errors } = await opened("/blog/new")
    const asked: Array<string> = []
    await page.route("https://img.forms.example/**", async (route, request) => {
      asked.push(request.url())
      await route.fulfill({ status: 404, body: "" })
    })
    const consoleErrors: Array<string> = []
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text())
    })
    const address = page.getByRole("textbox", { name: "Featured image" })
    // Key by key with no gap a loaded machine could stretch past the preview's pause: one
    // preview is the field's doing, not the machine's.
    await typeInOneGo(address, "https://img.forms.example/missing.png")
    await page.getByText("The image at this address cannot be loaded. Check the address, or upload the file.").waitFor()
    expect(asked).toEqual(["https://img.forms.example/missing.png"])
    const before = consoleErrors.length
    await address.fill("")
    await typeInOneGo(address, "javascript:alert(1)")
    // Longer than the preview's pause: nothing was asked for, nothing refused by the page's policy.
    await page.waitForTimeout(800)
    expect(asked).toHaveLength(1)
    expect(consoleErrors.slice(before)).toEqual([])
    expect(await page.locator(".featured-image-preview img").count()).toBe(0)
    expect(errors).toEqual([])
  })
})
