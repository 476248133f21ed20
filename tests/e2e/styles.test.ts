import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { radixUse } from "../../tools/first-screen/radix-use.ts"
import { seriousViolations } from "../support/axe.ts"
import { chromiumWithServer, isDark, newPage, requestsInFlight, signInThroughScreen, visitInApp, linkLive } from "../support/browser.ts"
import { call, freshIp } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"
import { openRecordTexts } from "../spec/texts.ts"

const product = chromiumWithServer()

/** Every Radix class and colour on the page now, dialogs and portals included. */
const radixInUse = (page: Page) =>
  page.evaluate(() => {
    const classes = new Set<string>()
    const colors = new Set<string>()
    for (const element of document.querySelectorAll("*")) {
      for (const name of element.classList) if (/(^|:)rt-/.test(name)) classes.add(name)
      for (const attribute of ["data-accent-color", "data-gray-color"]) {
        const value = element.getAttribute(attribute)
        if (value !== null && value !== "") colors.add(value)
      }
    }
    return { classes: [...classes], colors: [...colors] }
  })

/** Every signed-in screen, by its path: a new screen is scanned by being listed here. */
const screens = [
  "/",
  "/triage",
  "/generated-addresses",
  "/cex-addresses",
  "/core-team-addresses",
  "/blog",
  "/blog/new",
  "/settings",
  "/communities",
  "/influencers",
  "/businesses",
  "/startups",
  "/projects",
  "/events",
  "/hackathons",
  "/scam-reports",
  "/core-team",
  "/advertising-inquiries",
  "/activity",
  "/settings/admins",
  "/settings/ips",
  "/settings/sessions",
  "/settings/passkeys"
]

/** The screens that keep the change stream open (they never go network-idle), and what shows they have loaded. */
const liveScreens: Readonly<Record<string, string>> = {
  "/scam-reports": "[role=list][aria-busy=false]",
  "/advertising-inquiries": "[role=list][aria-busy=false]",
  "/": "ol[aria-label='Recent Activity'] li",
  // The desk's keys act on the current item: it must be there before a key is pressed.
  "/triage?area=scam-report": "[aria-current='true'] .triage-card"
}

/**
 * Goes to a screen inside the loaded console and waits until it has settled: nothing it asked for
 * is in flight, and on a live screen what shows it has loaded is there.
 */
const visitSettled = async (page: Page, network: ReturnType<typeof requestsInFlight>, path: string) => {
  await visitInApp(page, path)
  const loaded = liveScreens[path]
  if (loaded !== undefined) await page.waitForSelector(loaded)
  await network.quiet()
}

/** A record as an answer names it: enough to change it again. */
interface Written {
  readonly _id: string
  readonly version: number
}

/** Calls the API as `token` and gives the record the answer names under `key` (`data.key`, or `data` itself); anything but a 200 stops the file, so a scan never runs on less than it was meant to. */
const send = async (token: string, method: "POST" | "PUT" | "PATCH", path: string, body: object, key?: string): Promise<Written> => {
  const answer = await call(product.server.url, method, path, { token, body, ip: freshIp() })
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`)
  const data = (answer.body.data ?? answer.body) as Record<string, unknown>
  return (key === undefined ? data : data[key]) as Written
}

/**
 * A record in every state a screen colours: each listing status, a featured and a hidden listing,
 * each contact status and priority, each report status and priority, each status a post is saved with. A badge
 * that is not on the screen is not scanned (the queues were scanned empty, and their 12 px
 * badges at 3.99:1 went unseen).
 */
const everyState = async () => {
  const admin = await signedInAs(product.server, "admin")
  for (const [index, status] of ["pending", "approved", "rejected"].entries()) {
    const listing = await send(admin, "POST", "/api/admin/communities", { name: `Scanned community ${index}`, description: "Scanned" }, "listing")
    if (status !== "pending") await send(admin, "PUT", `/api/admin/communities/${listing._id}/status`, { status, version: listing.version })
  }
  await send(admin, "POST", "/api/ecosystem?type=events", { name: "Scanned event", description: "Scanned", featured: true })
  await send(admin, "POST", "/api/admin/businesses", {
    name: "Scanned business",
    category: "Retail",
    industry: "Retail",
    description: "Scanned",
    isActive: false
  })
  const priorities = ["low", "medium", "high", "urgent"]
  for (const [index, status] of ["new", "in_progress", "responded", "resolved", "closed"].entries()) {
    await send(admin, "POST", "/api/core-team-contact", {
      contactInfo: { name: `Scanned contact ${index}`, role: "Founder" },
      inquiry: { subject: "Scanned", details: "Scanned", priority: priorities[index % priorities.length] },
      status
    })
  }
  for (const [status, priority] of [
    ["new", "low"],
    ["under_review", "normal"],
    ["resolved", "high"],
    ["dismissed", "urgent"]
  ] as const) {
    const report = await send(admin, "POST", "/api/report-scam", { scamType: "phishing", description: `A ${status} report`, walletAddress: "GSCANNED" })
    if (status !== "new") await send(admin, "PATCH", `/api/report-scam/${report._id}`, { status, version: 1 })
    if (priority !== "normal") await send(admin, "PATCH", `/api/report-scam/${report._id}`, { priority, version: status === "new" ? 1 : 2 })
  }
  const inFiveDays = new Date(Date.now() + 5 * 24 * 3600_000).toISOString()
  await send(admin, "POST", "/api/blog/admin/posts", { title: "A draft post", content: "<p>Body</p>", status: "draft" })
  await send(admin, "POST", "/api/blog/admin/posts", { title: "A scheduled post", content: "<p>Body</p>", status: "scheduled", scheduledAt: inFiveDays })
}
beforeAll(everyState)

/** One report and one paid inquiry, so their screens have a card and a modal to scan. */
const reportOne = async () => {
  await call(product.server.url, "POST", "/api/report-scam", { body: { scamType: "phishing", description: "A scanned report", walletAddress: "GSCANNED" } })
  await call(product.server.url, "POST", "/api/advertising-inquiries", {
    body: {
      companyName: "Scanned Co",
      contactName: "Ann",
      email: "ann@example.com",
      industry: "Gaming",
      paymentId: "p",
      txid: "t",
      amount: 5,
      selectedPlan: "Gold"
    }
  })
}

/** The queue screens' add forms, by the screen and its button. */
const queueForms = [
  ["/communities", "Add Community"],
  ["/influencers", "Add Influencer"],
  ["/businesses", "Add Business"],
  ["/startups", "Add Startup"],
  ["/projects", "Add Project"],
  ["/events", "Add Event"],
  ["/hackathons", "Add Hackathon"]
] as const

describe.each(["light", "dark"] as const)("every screen in %s mode", (scheme) => {
  it("has no serious or critical axe violations, dialogs and the palette included", async () => {
    const { page } = await newPage(product.browser, { colorScheme: scheme })
    const network = requestsInFlight(page)
    // A super admin: the admin-management screens show their lists, not a refusal.
    const email = `axe-${scheme}@example.com`
    await product.server.sql(addAdmin(email, "super_admin"))
    const found: Record<string, ReadonlyArray<string>> = {}
    const scan = async (name: string) => {
      // Scanned at rest: no button under the pointer in its hover colours (the last click left it there).
      await page.mouse.move(0, 0)
      // A dialog still fading in has colours that are not yet its own.
      await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"))
      const violations = await seriousViolations(page)
      if (violations.length > 0) found[name] = violations
    }
    await page.goto(`${product.server.url}/login`)
    await page.getByLabel("Email").waitFor()
    expect(await isDark(page)).toBe(scheme === "dark")
    await scan("/login")
    // A form with its problems shown is scanned too: the messages' colours, names and targets.
    await page.getByRole("button", { name: "Send OTP" }).click()
    await page.locator("[aria-invalid='true']").first().waitFor()
    await scan("/login, refused")
    await signInThroughScreen(page, product.server, email, "Super Admin")
    await call(product.server.url, "POST", "/api/blog/admin/posts", {
      token: await signedInAs(product.server, "admin"),
      body: { title: `Scanned post ${scheme}`, excerpt: "An excerpt", content: "<p>Body</p>", status: "published" }
    })
    await reportOne()
    for (const path of screens) {
      await visitSettled(page, network, path)
      await scan(path)
    }
    // The desk's questions: a reason, a snooze, an owner, a duplicate.
    await visitSettled(page, network, "/triage?area=scam-report")
    for (const [key, name] of [
      ["4", "desk reason"],
      ["s", "desk snooze"],
      ["Shift+I", "desk owner"],
      ["m", "desk duplicate"]
    ] as const) {
      await page.keyboard.press(key)
      await page.getByRole("dialog").waitFor()
      await scan(name)
      await page.keyboard.press("Escape")
      await page.getByRole("dialog").waitFor({ state: "detached" })
    }
    await visitSettled(page, network, "/scam-reports")
    await page.getByRole("button", { name: "Details" }).first().click()
    await page.getByRole("dialog").waitFor()
    await scan("scam report details")
    await page.keyboard.press("Escape")
    await visitSettled(page, network, "/advertising-inquiries")
    await page.getByRole("button", { name: "View" }).first().click()
    await page.getByRole("dialog").waitFor()
    await scan("inquiry detail")
    await page.keyboard.press("Escape")
    await visitSettled(page, network, "/core-team")
    await page.getByRole("button", { name: "Add New Contact" }).click()
    await page.getByRole("form", { name: "Add New Core Team Contact" }).waitFor()
    await scan("core-team form")
    await visitSettled(page, network, "/generated-addresses")
    await page.getByRole("button", { name: "Add Address" }).click()
    await page.getByRole("dialog").waitFor()
    await scan("address modal")
    await page.keyboard.press("Escape")
    // An open address a colleague changes: the view's notice, then the form's.
    const colleague = await signedInAs(product.server, "admin")
    const identifier = `axe-open-${scheme}`
    const made = await call(product.server.url, "POST", "/api/admin/addresses/generated", { token: colleague, body: { identifier, Name: "Scanned" } })
    const opened = (made.body.data as { address: { _id: string } }).address._id
    const changeOpened = (version: number) =>
      call(product.server.url, "PUT", `/api/admin/addresses/generated/${opened}`, {
        token: colleague,
        body: { identifier, Name: `Scanned ${version}`, version }
      })
    await page.getByRole("searchbox", { name: "Search addresses" }).fill(identifier)
    const openedRow = page.getByRole("row").filter({ hasText: identifier })
    await openedRow.waitFor()
    await linkLive(page)
    await openedRow.getByRole("button", { name: "View" }).click()
    await changeOpened(1)
    await page.getByRole("dialog").getByText(openRecordTexts.changed("address"), { exact: true }).waitFor()
    await scan("address modal, changed elsewhere")
    await page.getByRole("dialog").getByRole("button", { name: "Edit" }).click()
    await changeOpened(2)
    await page.getByRole("dialog").getByText(openRecordTexts.changedWhileEditing("address"), { exact: true }).waitFor()
    await scan("address form, changed elsewhere")
    await page.keyboard.press("Escape")
    for (const [path, button] of queueForms) {
      await visitSettled(page, network, path)
      await page.getByRole("button", { name: button }).click()
      await page.getByRole("dialog").waitFor()
      await scan(`${path} form`)
      await page.getByRole("dialog").getByRole("button", { name: "Save" }).click()
      await page.getByRole("dialog").locator("[aria-invalid='true']").first().waitFor()
      await scan(`${path} form, refused`)
      await page.keyboard.press("Escape")
    }
    await visitSettled(page, network, "/blog")
    await page
      .getByRole("row")
      .filter({ hasText: `Scanned post ${scheme}` })
      .getByRole("button", { name: "Delete" })
      .click()
    await page.getByRole("alertdialog").waitFor()
    await scan("delete post dialog")
    await page.keyboard.press("Escape")
    await visitSettled(page, network, "/settings/admins")
    await page.getByRole("button", { name: "Add admin" }).click()
    await page.getByRole("form", { name: "Add an admin" }).waitFor()
    await scan("add admin form")
    await page
      .getByRole("form", { name: "Add an admin" })
      .getByRole("button", { name: /Add|Save/ })
      .first()
      .click()
    await page.getByRole("form", { name: "Add an admin" }).locator("[aria-invalid='true']").first().waitFor()
    await scan("add admin form, refused")
    await page.getByRole("row").filter({ hasText: "@example.com" }).filter({ hasNotText: email }).first().getByRole("button", { name: "Disable" }).click()
    await page.getByRole("alertdialog").waitFor()
    await scan("disable admin dialog")
    await page.keyboard.press("Escape")
    await page.keyboard.press("Control+k")
    await page.getByPlaceholder("Type a command or search…").waitFor()
    await scan("palette")
    expect(found).toEqual({})
    await page.context().close()
    // Twenty-two screens and thirteen dialogs, each scanned whole and nine forms again with their
    // problems shown: longer than one screen's test.
  }, 240_000)
})

describe("the console's styles", () => {
  it("renders only the Radix components, colours and breakpoints the build keeps", async () => {
    const { page, errors } = await newPage(product.browser)
    const network = requestsInFlight(page)
    const seen = { classes: new Set<string>(), colors: new Set<string>() }
    const collect = async () => {
      const now = await radixInUse(page)
      now.classes.forEach((name) => seen.classes.add(name))
      now.colors.forEach((color) => seen.colors.add(color))
    }
    await page.goto(`${product.server.url}/login`)
    await page.getByLabel("Email").waitFor()
    await collect()
    await product.server.sql(addAdmin("styles@example.com", "super_admin"))
    await signInThroughScreen(page, product.server, "styles@example.com", "Super Admin")
    await reportOne()
    for (const path of [
      "/",
      "/triage",
      "/activity",
      "/settings/admins",
      "/settings/ips",
      "/settings/sessions",
      "/settings/passkeys",
      "/generated-addresses",
      "/blog",
      "/settings",
      "/blog/new",
      "/communities",
      "/projects",
      "/events",
      "/scam-reports",
      "/core-team",
      "/advertising-inquiries"
    ]) {
      await visitSettled(page, network, path)
      await collect()
    }
    await page.getByRole("button", { name: "View" }).first().click()
    await page.getByRole("dialog").waitFor()
    await collect()
    await page.keyboard.press("Escape")
    await visitSettled(page, network, "/triage?area=scam-report")
    await page.keyboard.press("s")
    await page.getByRole("dialog").waitFor()
    await collect()
    await page.keyboard.press("Escape")
    await visitSettled(page, network, "/scam-reports")
    await page.getByRole("button", { name: "Details" }).first().click()
    await page.getByRole("dialog").waitFor()
    await collect()
    await page.keyboard.press("Escape")
    await visitSettled(page, network, "/core-team")
    await page.getByRole("button", { name: "Add New Contact" }).click()
    await page.getByRole("form", { name: "Add New Core Team Contact" }).waitFor()
    await collect()
    await visitSettled(page, network, "/generated-addresses")
    await page.getByRole("button", { name: "Add Address" }).click()
    await page.getByRole("dialog").waitFor()
    await collect()
    await page.keyboard.press("Escape")
    await visitSettled(page, network, "/projects")
    await page.getByRole("button", { name: "Add Project" }).click()
    await page.getByRole("dialog").waitFor()
    await collect()
    await page.keyboard.press("Escape")
    await page.keyboard.press("Control+k")
    await page.getByPlaceholder("Type a command or search…").waitFor()
    await collect()

    const components = [...seen.classes].filter((name) =>
      radixUse.unusedComponents.some((prefix) => name === prefix || (name.startsWith(prefix) && /^[A-Z]/.test(name.slice(prefix.length))))
    )
    expect(components).toEqual([])
    const breakpoints = [...seen.classes].map((name) => name.match(/^(\w+):rt-/)?.[1]).filter((bp) => bp !== undefined)
    expect(breakpoints.length).toBeGreaterThan(0)
    expect(breakpoints.filter((bp) => !radixUse.breakpoints.includes(bp ?? ""))).toEqual([])
    // A prop given a responsive value keeps its classes at the breakpoint only when it is listed.
    const responsive = [...seen.classes].filter((name) => /^\w+:-?rt-/.test(name))
    expect(responsive.length).toBeGreaterThan(0)
    expect(responsive.filter((name) => !radixUse.responsive.some((prop) => new RegExp(`^\\w+:-?${prop}(-|$)`).test(name)))).toEqual([])
    expect([...seen.colors].filter((color) => !radixUse.colors.includes(color))).toEqual([])
    expect(seen.classes.size).toBeGreaterThan(20)
    expect(errors).toEqual([])
  })
})
