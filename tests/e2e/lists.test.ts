import { beforeAll, describe, expect, it } from "vitest"
import { addressModalErrors, addressTexts as t, blogTexts, listTexts } from "../spec/texts.ts"
import { chromiumWithServer, holdStartChunk, newPage, linkLive, signedInTab } from "../support/browser.ts"
import { csvObjects } from "../support/csv.ts"
import { coldLoad, FIRST_SCREEN_BUDGET_KB, TWENTY_ROWS } from "../support/first-screen.ts"
import { call } from "../support/http.ts"
import { signedInAs } from "../support/session.ts"

const product = chromiumWithServer()
let token: string
const TITLE = "Generated Addresses"
const LIST_PATH = "/api/admin/addresses/generated"

beforeAll(async () => {
  token = await signedInAs(product.server, "admin")
  for (let n = 1; n <= 45; n++) {
    const identifier = n <= 3 ? `pi-star-${n}` : `seed-${String(n).padStart(2, "0")}`
    const answer = await call(product.server.url, "POST", LIST_PATH, { token, body: { identifier, Name: `Seed ${n}`, Rank: n } })
    if (answer.status !== 200) throw new Error(answer.text)
  }
})

/** A page of the console with the admin's token stored, as after an earlier sign-in. */
const withStoredToken = () => signedInTab(product, token)

const isListCall = (url: string) => new URL(url).pathname === LIST_PATH

describe("the list pattern in Chromium", () => {
  it("asks for each query once: the first page (not again once its stream is live), a search, a page and back again", async () => {
    const { page, errors } = await withStoredToken()
    const asked: Array<string> = []
    page.on("request", (request) => isListCall(request.url()) && asked.push(new URL(request.url()).search))
    await page.goto(`${product.server.url}/generated-addresses`)
    await page.getByRole("table", { name: TITLE }).getByRole("row").nth(20).waitFor()
    // The stream starts where the server read the page (its Stream-Position): what the page could
    // lack comes in its catch-up, and the page is not read again when the stream is live.
    await linkLive(page)
    await page.waitForFunction(() => document.querySelector("[aria-busy]")?.getAttribute("aria-busy") === "false")
    await page.waitForTimeout(300)
    expect(asked).toEqual([""])

    await page.getByRole("searchbox", { name: t.searchLabel }).fill("seed")
    await page.waitForURL(/search=seed/)
    await page.waitForFunction(() => document.querySelector("[aria-busy]")?.getAttribute("aria-busy") === "false")
    await page.getByRole("button", { name: listTexts.next }).click()
    await page.getByText(listTexts.page(2, 3)).waitFor()
    expect(asked).toEqual(["", "?search=seed", "?search=seed&page=2"])
    expect(new URL(page.url()).search).toBe("?search=seed&page=2")

    await page.goBack()
    await page.getByText(listTexts.page(1, 3)).waitFor()
    await expect(page.getByRole("searchbox", { name: t.searchLabel }).inputValue()).resolves.toBe("seed")
    await page.goForward()
    await page.getByText(listTexts.page(2, 3)).waitFor()
    await page.waitForTimeout(300)
    expect(asked).toHaveLength(5)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("shows a signed-in first screen whole, with its rows, when start-up's answers are in before its code", async () => {
    const { context, page, errors } = await withStoredToken()
    // Everything the page shows, as it shows it: a spinner or a loading text in between is a
    // render the first screen did not need.
    await context.addInitScript(() => {
      const shown: Array<string> = []
      const busy: Array<string | null> = []
      new MutationObserver(() => {
        const text = document.getElementById("root")?.textContent ?? ""
        if (text !== "" && shown.at(-1) !== text) shown.push(text)
        const frame = document.querySelector("[aria-busy]")
        if (frame !== null && busy.at(-1) !== frame.getAttribute("aria-busy")) busy.push(frame.getAttribute("aria-busy"))
      }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ["aria-busy"] })
      Object.assign(window, { shown, busy })
    })
    const answers = Promise.all([page.waitForResponse("**/api/admin/auth/check"), page.waitForResponse((answer) => isListCall(answer.url()))])
    // The console's code waits until both answers are in, as on a fast server; the signed-in
    // screens' chunk comes a moment after the rest of the code.
    const codeWasHeld = await holdStartChunk(page, answers)
    await page.route(
      /\/assets\/signed-in-[\w-]+\.js$/,
      async (route) => void (await answers, await new Promise((resolve) => setTimeout(resolve, 300)), await route.continue())
    )
    await page.goto(`${product.server.url}/generated-addresses`)
    await page.getByRole("table", { name: TITLE }).getByRole("row").nth(20).waitFor()
    codeWasHeld()
    const shown = await page.evaluate(() => (window as unknown as { shown: ReadonlyArray<string> }).shown)
    expect(shown[0]).toContain("Welcome back")
    expect(shown[0]).toContain("seed-45")
    expect(shown.filter((text) => /Checking your session|Loading/.test(text))).toEqual([])
    // The rows are already here: the list starts ready (machines/list.ts) and is never busy.
    await expect(page.evaluate(() => (window as unknown as { busy: ReadonlyArray<string | null> }).busy)).resolves.toEqual(["false"])
    expect(errors).toEqual([])
    await context.close()
  })

  it("loads a signed-in first screen's code as one start chunk and one signed-in chunk, and the sign-in form without the latter", async () => {
    const { page, errors } = await withStoredToken()
    const assets: Array<string> = []
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname
      if (path.startsWith("/assets/")) assets.push(path.replace(/-[\w-]{8}(\.\w+)$/, "$1"))
    })
    await page.goto(`${product.server.url}/generated-addresses`)
    await page.getByRole("table", { name: TITLE }).getByRole("row").nth(20).waitFor()
    const beforeRows = [...assets]
    // tools/first-screen/: what the sign-in form needs is one chunk, the signed-in screens another.
    expect(beforeRows).toEqual(expect.arrayContaining(["/assets/start.js", "/assets/signed-in.js", "/assets/index.js"]))
    // Every script is one the page names up front (the entry, the bundler's small shared helpers
    // beside it, the start chunk) or the signed-in chunk: none is found only once another has run.
    const html = await fetch(`${product.server.url}/generated-addresses`).then((answer) => answer.text())
    const named = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!.replace(/-[\w-]{8}(\.\w+)$/, "$1"))
    expect(new Set(beforeRows.filter((path) => path.endsWith(".js")))).toEqual(new Set([...named, "/assets/signed-in.js"]))
    expect(beforeRows.filter((path) => path.endsWith(".js")).length).toBeLessThanOrEqual(5)
    expect(beforeRows.filter((path) => path.endsWith(".css")).length).toBeLessThanOrEqual(2)
    expect(errors).toEqual([])

    const signIn = await newPage(product.browser)
    const signInAssets: Array<string> = []
    signIn.page.on("request", (request) => signInAssets.push(new URL(request.url()).pathname))
    await signIn.page.goto(`${product.server.url}/login`)
    await signIn.page.locator("input[name=email]").waitFor()
    expect(signInAssets.some((path) => /^\/assets\/start-/.test(path))).toBe(true)
    expect(signInAssets.some((path) => /^\/assets\/signed-in-/.test(path))).toBe(false)
    await page.context().close()
    await signIn.context.close()
  })

  it("has the page ask for the signed-in chunk only with a stored token, and for the blog's screens only under /blog", async () => {
    // What the inline script at the top of index.html (src/app/start/preload-signed-in.ts) added to the page.
    const preloaded = async (path: string, stored: boolean) => {
      const { page, context } = stored ? await withStoredToken() : await newPage(product.browser)
      await page.goto(`${product.server.url}${path}`, { waitUntil: "domcontentloaded" })
      const hrefs = await page.evaluate(() =>
        [...document.head.querySelectorAll("link[rel=modulepreload], link[rel=preload]")].map((link) => new URL((link as HTMLLinkElement).href).pathname)
      )
      await context.close()
      return hrefs.map((href) => href.replace(/-[\w-]{8}(\.\w+)$/, "$1"))
    }
    const directory = await preloaded("/generated-addresses", true)
    expect(directory).toEqual(expect.arrayContaining(["/assets/start.js", "/assets/signed-in.js", "/assets/signed-in.css"]))
    expect(directory).not.toContain("/assets/screens.js")
    expect(await preloaded("/blog/new", true)).toContain("/assets/screens.js")
    const signIn = await preloaded("/login", false)
    expect(signIn).toContain("/assets/start.js")
    expect(signIn.filter((href) => href.startsWith("/assets/signed-in") || href === "/assets/screens.js")).toEqual([])
  })

  it(`sends at most ${FIRST_SCREEN_BUDGET_KB} kB of JS and CSS before a signed-in first screen's rows, and before the sign-in form`, async () => {
    const rows = await coldLoad(product.browser, token, `${product.server.url}/generated-addresses`, TWENTY_ROWS)
    const signIn = await coldLoad(product.browser, null, `${product.server.url}/login`, "input[name=email]")
    expect(rows.kb, JSON.stringify(rows.waterfall)).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_KB)
    expect(signIn.kb, JSON.stringify(signIn.waterfall)).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_KB)
    // What it counted is the first screen's code: the start chunk is among it.
    expect(rows.waterfall.map((request) => request.path)).toContain("/assets/start.js")
  })

  it("keeps the focused row focused when the list reloads under it", async () => {
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/generated-addresses?sort=rank&order=asc`)
    const rows = page.getByRole("table", { name: TITLE }).getByRole("row")
    await rows.nth(5).waitFor()
    await rows.nth(1).focus()
    await page.keyboard.press("j")
    await page.keyboard.press("j")
    await page.keyboard.press("ArrowDown")
    await expect(rows.nth(4).evaluate((row) => row === document.activeElement)).resolves.toBe(true)
    await page.keyboard.press("Control+k")
    await page.getByPlaceholder("Type a command or search…").fill("Reload the addresses")
    await page.keyboard.press("Enter")
    await page.waitForFunction(() => document.querySelector("[aria-busy]")?.getAttribute("aria-busy") === "false")
    await expect(rows.nth(4).evaluate((row) => row === document.activeElement)).resolves.toBe(true)
    await expect(rows.nth(4).innerText()).resolves.toContain("seed-04")
    await page.context().close()
  })

  it("blurs nothing behind its table or cards, in either theme (a software compositor redraws a blur every frame)", async () => {
    const { page } = await withStoredToken()
    /** Elements (or their ::before / ::after) with a backdrop filter, by class. */
    const blurred = () =>
      page.evaluate(() =>
        [...document.querySelectorAll("*")].flatMap((element) =>
          [null, "::before", "::after"]
            .filter((pseudo) => getComputedStyle(element, pseudo).backdropFilter !== "none")
            .map((pseudo) => `${element.tagName.toLowerCase()}.${[...element.classList].join(".")}${pseudo ?? ""}`)
        )
      )
    for (const theme of ["light", "dark"]) {
      await page.context().addInitScript((value) => localStorage.setItem("theme", value), theme)
      await page.goto(`${product.server.url}/generated-addresses`)
      await page.getByRole("table", { name: TITLE }).getByRole("row").nth(20).waitFor()
      await expect(page.locator(".rt-TableRoot").count()).resolves.toBe(1)
      await expect(blurred()).resolves.toEqual([])
      await page.goto(`${product.server.url}/settings`)
      await page.locator(".rt-Card").first().waitFor()
      await expect(blurred()).resolves.toEqual([])
    }
    await page.context().close()
  })

  it("preloads the other screens' code only after a second without keys, clicks or scrolling", async () => {
    const { page, errors } = await withStoredToken()
    // Someone pressing keys from the moment the page opens, every 200 ms for four seconds.
    await page.context().addInitScript(() => {
      const until = performance.now() + 4_000
      const press = () => {
        document.dispatchEvent(new KeyboardEvent("keydown", { key: "Shift", bubbles: true }))
        Object.assign(window, { lastKeyAt: performance.now() })
        if (performance.now() < until) setTimeout(press, 200)
      }
      press()
    })
    await page.goto(`${product.server.url}/generated-addresses`)
    await page.getByRole("table", { name: TITLE }).getByRole("row").nth(20).waitFor()
    // Other screens' chunks (src/ui/deferred.tsx, `loadScreen`) as the page's resource timings list them.
    const screenChunks = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .filter((entry) => /^\/assets\/(\w+Screen|screens)-[\w-]+\.js$/.test(new URL(entry.name).pathname))
          .map((entry) => entry.startTime)
      )
    await expect.poll(async () => (await screenChunks()).length).toBeGreaterThan(0)
    const firstAt = Math.min(...(await screenChunks()))
    const lastKeyAt = await page.evaluate(() => (window as unknown as { lastKeyAt: number }).lastKeyAt)
    expect(firstAt).toBeGreaterThan(lastKeyAt + 1_000)
    // None of them is what the directory screen needed: it was whole before them.
    await expect(page.getByRole("table", { name: TITLE }).getByRole("row").count()).resolves.toBe(21)
    expect(errors).toEqual([])
    await page.context().close()
  })

  it("exports what the filters match as a CSV file from the button and the palette", async () => {
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/generated-addresses?search=pi-star`)
    await page.getByRole("table", { name: TITLE }).getByRole("row").nth(3).waitFor()
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: listTexts.exportCsv }).click()])
    expect(download.suggestedFilename()).toMatch(/^generated-addresses-\d{4}-\d{2}-\d{2}\.csv$/)
    const text = await download.path().then((path) => import("node:fs").then((fs) => fs.readFileSync(path, "utf8")))
    expect(
      csvObjects(text)
        .map((row) => row.identifier)
        .sort()
    ).toEqual(["pi-star-1", "pi-star-2", "pi-star-3"])

    await page.keyboard.press("Control+k")
    await page.getByPlaceholder("Type a command or search…").fill("Export addresses")
    const [again] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")])
    expect(csvObjects(await again.path().then((path) => import("node:fs").then((fs) => fs.readFileSync(path, "utf8"))))).toHaveLength(3)
    await page.context().close()
  })

  it("opens a post far down the blog list from its page", async () => {
    // Scheduled days ahead, so the scheduler leaves them alone however long this takes; post 1
    // goes out last and so comes first in the list, post 55 on the third page.
    for (let n = 1; n <= 60; n++) {
      const due = new Date(Date.now() + (100 - n) * 86_400_000).toISOString()
      const answer = await call(product.server.url, "POST", "/api/blog/admin/posts", {
        token,
        body: { title: `Archive post ${n}`, content: `<p>Body ${n}</p>`, status: "scheduled", scheduledAt: due }
      })
      if (answer.status !== 200) throw new Error(answer.text)
    }
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/blog?status=scheduled&page=3`)
    await page.getByText(listTexts.page(3, 3)).waitFor()
    const row = page.getByRole("row").filter({ hasText: "Archive post 55" })
    await row.focus()
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Edit Post" }).waitFor()
    await expect(page.getByLabel("Title").inputValue()).resolves.toBe("Archive post 55")
    await page.context().close()
  })
})

describe("the blog list", () => {
  it("searches excerpts and tags as its placeholder says", async () => {
    const answer = await call(product.server.url, "POST", "/api/blog/admin/posts", {
      token,
      body: { title: "Tagged", excerpt: "about mainnet", content: "<p>x</p>", status: "draft", tags: ["kyc-news"] }
    })
    expect(answer.status).toBe(200)
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/blog`)
    const search = page.getByRole("searchbox", { name: blogTexts.searchLabel })
    await search.fill("kyc-news")
    await page.getByRole("row").filter({ hasText: "Tagged" }).waitFor()
    await search.fill("mainnet")
    await page.getByRole("row").filter({ hasText: "Tagged" }).waitFor()
    await page.context().close()
  })
})

describe('keys on arrival (docs/architecture.md, "Keys on a list")', () => {
  const currentText = (page: import("playwright-core").Page) =>
    page.evaluate(() => document.querySelector("[data-current='true']")?.querySelector("td")?.textContent ?? null)
  const focusedText = (page: import("playwright-core").Page) =>
    page.evaluate(() => document.activeElement?.closest("tr")?.querySelector("td")?.textContent ?? null)
  const rankOrder = "?sort=rank&order=asc"

  it("makes the first row current however the screen is reached, and j acts at once", async () => {
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/`)
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
    // A g sequence.
    await page.keyboard.press("g")
    await page.keyboard.press("g")
    await expect.poll(() => focusedText(page)).not.toBeNull()
    const first = await currentText(page)
    expect(await focusedText(page)).toBe(first)
    await page.keyboard.press("j")
    await expect.poll(() => currentText(page)).not.toBe(first)
    // The palette.
    await page.keyboard.press("Control+k")
    await page.getByPlaceholder("Type a command or search…").fill("Go to CEX Addresses")
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { level: 1, name: "CEX Addresses" }).waitFor()
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest("tbody") !== null || document.querySelector("tbody td")?.textContent === "No addresses found")
      )
      .toBe(true)
    // The sidebar, with the pointer, then a key.
    await page.getByRole("link", { name: "Generated Addresses" }).click()
    await expect.poll(() => focusedText(page)).toBe(first)
    await page.keyboard.press("j")
    await expect.poll(() => currentText(page)).not.toBe(first)
    // A link, loaded whole.
    await page.goto(`${product.server.url}/generated-addresses${rankOrder}`)
    await expect.poll(() => focusedText(page)).toBe("pi-star-1")
    await page.context().close()
  })

  it("returns to the row that was current when coming back with back, and forward", async () => {
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/generated-addresses${rankOrder}`)
    await expect.poll(() => focusedText(page)).toBe("pi-star-1")
    for (let n = 0; n < 3; n++) await page.keyboard.press("j")
    await expect.poll(() => currentText(page)).toBe("seed-04")
    await page.keyboard.press("g")
    await page.keyboard.press("x")
    await page.getByRole("heading", { level: 1, name: "CEX Addresses" }).waitFor()
    await page.goBack()
    await expect.poll(() => focusedText(page)).toBe("seed-04")
    // Page 2 of the same list keeps the current place (the fourth row), j moves there even with
    // the focus on the pager's button, and back to page 1 is its row again, forward page 2's.
    await page.getByRole("button", { name: "Next" }).click()
    await expect.poll(() => currentText(page)).toBe("seed-24")
    await page.keyboard.press("j")
    await expect.poll(() => focusedText(page)).toBe("seed-25")
    await page.goBack()
    await expect.poll(() => currentText(page)).toBe("seed-04")
    await page.goForward()
    await expect.poll(() => currentText(page)).toBe("seed-25")
    await page.context().close()
  })

  it("puts the cursor in the search with s, types there, and gives the rows back on Escape", async () => {
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/generated-addresses${rankOrder}`)
    await expect.poll(() => focusedText(page)).toBe("pi-star-1")
    await page.keyboard.press("j")
    await page.keyboard.press("s")
    const search = page.getByRole("searchbox", { name: t.searchLabel })
    await expect.poll(() => search.evaluate((input) => input === document.activeElement)).toBe(true)
    // The search's read is held until the rows are checked: on a loaded machine its answer
    // (no rows) could otherwise come before the check.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(
      (url) => url.pathname === LIST_PATH && (url.searchParams.get("search") ?? "").length > 0,
      async (route) => (await held, await route.continue().catch(() => undefined))
    )
    await page.keyboard.type("jk")
    await expect.poll(() => search.inputValue()).toBe("jk")
    // Keys in the field were typing: the current row did not move.
    expect(await currentText(page)).toBe("pi-star-2")
    release()
    // A search that leaves rows to come back to (an empty list keeps the keyboard in the field),
    // applied before Escape: on a slow run "jk" may already have emptied the list.
    await search.fill("pi-star")
    await expect.poll(() => new URL(page.url()).searchParams.get("search")).toBe("pi-star")
    await expect.poll(() => page.getByText("pi-star-1").isVisible()).toBe(true)
    await page.keyboard.press("Escape")
    await expect.poll(() => focusedText(page)).not.toBeNull()
    expect(await search.inputValue()).toBe("pi-star")
    await page.context().close()
  })

  it("shows the last page for a page past it, and says a search over 200 characters was cut", async () => {
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/generated-addresses${rankOrder}&page=999`)
    await page.getByText("Page 3 of 3").waitFor()
    await expect.poll(() => new URL(page.url()).searchParams.get("page")).toBe("3")
    await page.goto(`${product.server.url}/generated-addresses?search=${"seed-".padEnd(250, "x")}`)
    await page.getByText("A search is at most 200 characters: the list shows what the first 200 find.").waitFor()
    await page.getByText(t.empty).waitFor()
    await page.context().close()
  })
})

describe("the list toolbar", () => {
  it("keeps the search and the filters on one row beside each other (three selects on the scam reports)", async () => {
    const { page } = await withStoredToken()
    await page.goto(`${product.server.url}/scam-reports`)
    const search = page.getByRole("searchbox", { name: "Search reports" })
    await search.waitFor()
    const tops = await Promise.all(
      [search, ...["Status", "Scam type", "Priority"].map((name) => page.getByRole("combobox", { name }))].map(
        async (control) => (await control.boundingBox())?.y ?? -1
      )
    )
    expect(
      tops.every((top) => top >= 0 && Math.abs(top - (tops[0] ?? 0)) < 12),
      JSON.stringify(tops)
    ).toBe(true)
    await page.context().close()
  })
})

describe("what a screen says when the server fails it", () => {
  /** Every screen that reads a list or figures, and the spec's one wording for a read that failed. */
  const screens: ReadonlyArray<readonly [string, string]> = [
    ["/", "Failed to fetch the dashboard"],
    ["/blog", "Failed to fetch posts"],
    ["/generated-addresses", "Failed to fetch addresses"],
    ["/communities", "Failed to fetch communities"],
    ["/businesses", "Failed to fetch businesses"],
    ["/events", "Failed to fetch events"],
    ["/core-team", "Failed to fetch core team contacts"],
    ["/advertising-inquiries", "Failed to fetch inquiries"],
    ["/scam-reports", "Failed to fetch reports"],
    ["/activity", "Failed to fetch the activity log"],
    ["/settings/admins", "Failed to fetch admins"],
    ["/settings/ips", "Failed to fetch the allowed addresses"],
    ["/settings/sessions", "Failed to fetch the sessions"],
    ["/settings/passkeys", "Failed to fetch passkeys"]
  ]

  it("words a failed read one way on every screen, with the server's own words after it", async () => {
    const superToken = await signedInAs(product.server, "super_admin")
    // One page shows each screen in turn: no read succeeds, so nothing of one screen is kept for the next.
    const opened = await signedInTab(product, superToken)
    // Every read but the session check fails as a broken server does: 500, with its own words.
    await opened.page.route("**/api/**", (route, request) =>
      request.method() === "GET" && !request.url().includes("/api/admin/auth/check") && !request.url().includes("/stream")
        ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ success: false, error: "The database is down" }) })
        : route.continue()
    )
    // The first screen is loaded, the others reached inside the console as its links do: each
    // costs its own reads only (docs/testing.md, "Where the time goes").
    for (const [index, [path, words]] of screens.entries()) {
      if (index === 0) await opened.page.goto(`${product.server.url}${path}`)
      else
        await opened.page.evaluate((to) => {
          history.pushState(null, "", to)
          dispatchEvent(new PopStateEvent("popstate"))
        }, path)
      await opened.page.getByText(`${words}: The database is down`).first().waitFor()
      expect(await opened.page.getByText(/HTTP 500|Could not load|Couldn't load|Failed to load/).count(), path).toBe(0)
    }
    await opened.context.close()
  })

  it("says the server's words for a 500 that carries them: an address created, a post saved", async () => {
    const { page, context } = await withStoredToken()
    await page.route("**/api/admin/addresses/cex", (route, request) =>
      request.method() === "POST"
        ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ success: false, error: "Identifier index is being rebuilt" }) })
        : route.continue()
    )
    await page.goto(`${product.server.url}/cex-addresses`)
    await page.getByRole("button", { name: t.add }).first().click()
    const dialog = page.getByRole("dialog")
    await dialog.getByLabel("Identifier").fill("cex-broken-1")
    await dialog.getByLabel("Name").fill("Broken")
    await dialog.getByRole("button", { name: t.save }).click()
    await page.getByText("Identifier index is being rebuilt").waitFor()
    expect(await page.getByText(/HTTP 500/).count()).toBe(0)
    // A 500 with no words of its own is said in the form's words alone.
    await page.unrouteAll({ behavior: "ignoreErrors" })
    await page.route("**/api/admin/addresses/cex", (route, request) =>
      request.method() === "POST" ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ success: false }) }) : route.continue()
    )
    await dialog.getByRole("button", { name: t.save }).click()
    await page.getByText(addressModalErrors.create, { exact: true }).waitFor()
    expect(await page.getByText(/HTTP 500|request failed/).count()).toBe(0)
    await page.keyboard.press("Escape")

    await page.route("**/api/blog/admin/posts", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ success: false, error: "Post store is read-only" }) })
    )
    await page.goto(`${product.server.url}/blog/new`)
    await page.getByLabel(blogTexts.postTitle).fill("Will not save")
    await page.locator(".bn-editor").click()
    await page.keyboard.type("Body.")
    await page.getByRole("button", { name: blogTexts.save, exact: true }).click()
    await page.getByText("Error saving post: Post store is read-only").waitFor()
    await context.close()
  })
})

describe("keys a role may not use, and the palette's order", () => {
  it("says in one line why a moderator's e, Delete or n does nothing, on the queues, the directories and the contacts", async () => {
    const moderator = await signedInAs(product.server, "moderator")
    await call(product.server.url, "POST", "/api/admin/communities", { token, body: { name: "Role Keys Community", description: "For the keys" } })
    const checks: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]> = [
      [
        "/communities",
        [
          ["e", "Moderators can't edit communities: an admin can."],
          ["Delete", "Moderators can't delete communities: an admin can."],
          ["n", "Moderators can't add communities: an admin can."]
        ]
      ],
      [
        "/generated-addresses",
        [
          ["e", "Moderators can't edit addresses: an admin can."],
          ["Delete", "Moderators can't delete addresses: an admin can."],
          ["n", "Moderators can't add addresses: an admin can."]
        ]
      ]
    ]
    const opened = await signedInTab(product, moderator)
    for (const [path, keys] of checks) {
      await opened.page.goto(`${product.server.url}${path}`)
      await opened.page.locator("[data-current=true]").waitFor()
      for (const [key, said] of keys) {
        await opened.page.keyboard.press(key)
        await opened.page.getByRole("status").filter({ hasText: said }).waitFor()
        // Nothing opened: no form, no confirmation.
        expect(await opened.page.getByRole("dialog").count(), `${path} ${key}`).toBe(0)
        expect(await opened.page.getByRole("alertdialog").count(), `${path} ${key}`).toBe(0)
      }
      // The palette offers none of them.
      await opened.page.keyboard.press("Control+k")
      const options = await opened.page.getByRole("dialog", { name: "Command palette" }).getByRole("option").allTextContents()
      expect(options.length).toBeGreaterThan(0)
      expect(options.filter((text) => /^(Edit |Delete |New |Add address)/.test(text))).toEqual([])
      expect(opened.errors).toEqual([])
    }
  })

  it("ranks the current item's actions before filters: convert finds Mark Converted first", async () => {
    const company = `Ranked Wallet ${Date.now()}`
    const submitted = await call(product.server.url, "POST", "/api/advertising-inquiries", {
      ip: "198.51.100.77",
      body: { companyName: company, contactName: "Ada", email: "ada@example.com", industry: "Wallet Services", budget: "100 Pi" }
    })
    expect(submitted.status, submitted.text).toBe(200)
    // Contacted: converting it is the move its card offers now.
    const found = await call(product.server.url, "GET", `/api/advertising-inquiries?search=${encodeURIComponent(company)}`, { token })
    const [inquiry] = (found.body.data as { inquiries: ReadonlyArray<{ _id: string; version: number }> }).inquiries
    const contacted = await call(product.server.url, "PUT", `/api/advertising-inquiries/${inquiry!._id}`, {
      token,
      body: { status: "contacted", version: inquiry!.version }
    })
    expect(contacted.status, contacted.text).toBe(200)
    const { page, context } = await withStoredToken()
    await page.goto(`${product.server.url}/advertising-inquiries?search=${encodeURIComponent(company)}`)
    await page.locator("[data-current=true]").filter({ hasText: company }).waitFor()
    await page.keyboard.press("Control+k")
    await page.keyboard.type("convert")
    const palette = page.getByRole("dialog", { name: "Command palette" })
    await expect.poll(async () => (await palette.getByRole("option").allTextContents()).slice(0, 1)).toEqual([expect.stringMatching(/^Mark Converted/)])
    const options = await palette.getByRole("option").allTextContents()
    expect(options.some((text) => text.startsWith("Show converted"))).toBe(true)
    await context.close()
  })
})
