import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Page, Route } from "playwright-core"
import { describe, expect, it } from "vitest"
import { blogMessages } from "../spec/texts.ts"
import { uploadMessages } from "../spec/texts.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { blogTexts as t } from "../spec/texts.ts"
import { chromiumWithServer, newPage, signInThroughScreen } from "../support/browser.ts"
import * as images from "../support/images.ts"
import { chipTexts } from "../spec/texts.ts"
import { imageFieldTexts } from "../spec/texts.ts"

// The publishing job looks every second here (every 15 s in the product): the scheduled post's
// story waits for its time, not for the job's next round.
const product = chromiumWithServer(undefined, { schedulerInterval: "1 second" })
let counter = 0
const files = mkdtempSync(join(tmpdir(), "blog-e2e-"))

const signedInPage = async () => {
  const email = `blog-staff-${++counter}@example.com`
  await product.server.sql(addAdmin(email, "admin"))
  const opened = await newPage(product.browser)
  await opened.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: product.server.url })
  await signInThroughScreen(opened.page, product.server, email, "Admin")
  return opened
}

const storedPost = async (slug: string) =>
  (
    await product.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) =>
          sql<{ content: string; status: string; publishedAt: string | null; version: number }>`
      SELECT content, status, published_at, version FROM blog_posts WHERE slug = ${slug}`
      )
    )
  )[0]

/** The editor's own selection (TipTap puts the editor on its ProseMirror element), as the toolbar's commands see it. */
const editorSelection = (page: Page) =>
  page.evaluate(() => {
    const editor = (
      document.querySelector(".ProseMirror") as unknown as {
        editor?: { state: { selection: { empty: boolean; from: number; to: number }; doc: { textBetween: (from: number, to: number) => string } } }
      }
    ).editor
    if (editor === undefined) return undefined
    const { selection, doc } = editor.state
    return { empty: selection.empty, text: doc.textBetween(selection.from, selection.to) }
  })

const body = (page: Page) => page.locator(".bn-editor")
const tool = (page: Page, name: string) => page.getByRole("toolbar", { name: t.toolbar }).getByRole("button", { name, exact: true })
const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true })
const mod = "Control"

/** `datetime-local` text for `date` in the browser's zone (the test's TZ is the machine's). */
const localInput = (date: Date) => {
  const pad = (n: number) => String(n).padStart(2, "0")
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}

describe("blog in Chromium", () => {
  it("writes, uploads, classifies, previews and schedules a post that then publishes itself; saves it unchanged; deletes it", async () => {
    const { page, context, errors } = await signedInPage()
    const loaded: Array<string> = []
    page.on("request", (request) => loaded.push(new URL(request.url()).pathname))

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog Management" }).click()
    await page.getByRole("heading", { level: 1, name: t.title }).waitFor()
    await page.getByText(t.empty).waitFor()
    // The list does not load the editor.
    expect(loaded.some((path) => path.includes("RichTextEditor"))).toBe(false)

    await page.getByRole("button", { name: t.add }).click()
    await page.getByRole("heading", { level: 1, name: t.createTitle }).waitFor()
    await body(page).waitFor()
    expect(loaded.some((path) => path.includes("RichTextEditor"))).toBe(true)

    // The spec's checks, before anything is sent.
    await page.getByRole("button", { name: t.save, exact: true }).click()
    await page.getByText(blogMessages.titleRequired).waitFor()
    await page.getByText(blogMessages.contentRequired).waitFor()

    const title = `Pi mainnet story ${counter}`
    await page.getByLabel(t.postTitle).fill(title)
    await body(page).click()
    // Toolbar: a heading, then shortcuts: bold, a list, a quote, centred text, a line break, a link.
    await tool(page, "H2 Heading 2").click()
    await page.keyboard.type("Section one")
    await page.keyboard.press("Enter")
    await page.keyboard.type("Some ")
    await page.keyboard.press(`${mod}+b`)
    await page.keyboard.type("strong")
    await page.keyboard.press(`${mod}+b`)
    await page.keyboard.type(" words")
    await page.keyboard.press("Enter")
    await page.keyboard.press(`${mod}+Shift+8`)
    await page.keyboard.type("first item")
    await page.keyboard.press("Enter")
    await page.keyboard.type("second item")
    await page.keyboard.press("Enter")
    await page.keyboard.press("Enter")
    await tool(page, "Quote").click()
    await page.keyboard.type("A quote")
    await page.keyboard.press("Enter")
    await page.keyboard.type("line one")
    await page.keyboard.press("Shift+Enter")
    await page.keyboard.type("line two")
    await page.keyboard.press(`${mod}+Shift+e`)
    await page.keyboard.press("Enter")
    await page.keyboard.type("Read the docs")
    for (let i = 0; i < "Read the docs".length; i++) await page.keyboard.press("Shift+ArrowLeft")
    // ProseMirror reads the DOM selection on its next "selectionchange"; a person is never this
    // fast, so the test waits until the editor itself holds the selection.
    await expect.poll(() => page.evaluate(() => getSelection()?.toString())).toBe("Read the docs")
    await expect.poll(() => editorSelection(page)).toEqual({ empty: false, text: "Read the docs" })
    await page.keyboard.press(`${mod}+Shift+k`)
    await page.getByRole("dialog", { name: t.linkTitle }).getByRole("textbox").fill("https://minepi.com/docs")
    await page.getByRole("button", { name: t.linkApply }).click()
    await page.getByRole("dialog", { name: t.linkTitle }).waitFor({ state: "hidden" })
    await expect.poll(() => body(page).evaluate((element) => element.querySelector("a")?.textContent)).toBe("Read the docs")
    await page.keyboard.press("ArrowRight")
    await expect.poll(() => editorSelection(page)).toEqual({ empty: true, text: "" })
    await page.keyboard.press("Enter")
    // Paste is plain text, whatever the clipboard holds.
    await page.evaluate(() => {
      const data = new DataTransfer()
      data.setData("text/html", "<h1>Loud</h1><p><b>bold paste</b><img src=x onerror=alert(1)></p>")
      data.setData("text/plain", "pasted as text")
      document.querySelector(".bn-editor")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }))
    })
    await body(page).getByText("pasted as text").waitFor()
    await body(page).locator("h1").waitFor({ state: "detached" })
    await body(page).locator("b, strong").filter({ hasText: "bold paste" }).waitFor({ state: "detached" })
    // Undo and redo from the toolbar.
    await tool(page, "Undo").click()
    await body(page).getByText("pasted as text").waitFor({ state: "detached" })
    await tool(page, "Redo").click()
    await body(page).getByText("pasted as text").waitFor()
    await page.getByLabel(t.excerpt).fill("What mainnet means for pioneers")

    // Featured image: a ~4.9 MB PNG over a throttled link, so the real progress shows.
    const picture = join(files, "noise.png")
    writeFileSync(picture, images.noisePng(1024, 1190))
    const cdp = await context.newCDPSession(page)
    await cdp.send("Network.enable")
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 2_500_000 })
    await page.getByTestId("featured-image-file").setInputFiles(picture)
    const progress = page.getByRole("progressbar", { name: imageFieldTexts.progress })
    await progress.waitFor()
    // Every value the bar takes, recorded in the page as it changes, until the bar goes.
    const seen = await progress.evaluate(
      (bar) =>
        new Promise<ReadonlyArray<number>>((resolve) => {
          const values: Array<number> = []
          const record = () => {
            const value = Number(bar.getAttribute("aria-valuenow"))
            if (value > 0 && values.at(-1) !== value) values.push(value)
          }
          record()
          const observer = new MutationObserver(() => (bar.isConnected ? record() : (observer.disconnect(), resolve(values))))
          observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] })
        })
    )
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    expect(seen.length).toBeGreaterThan(2)
    expect(Math.max(...seen)).toBeLessThanOrEqual(90)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    const preview = page.getByRole("img", { name: imageFieldTexts.preview })
    await preview.waitFor()
    // The element appears before its image has loaded: wait for the load, then check the pixels.
    await preview.evaluate((img: HTMLImageElement) =>
      img.complete
        ? undefined
        : new Promise((resolve) => {
            img.addEventListener("load", resolve, { once: true })
            img.addEventListener("error", resolve, { once: true })
          })
    )
    await expect(preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).resolves.toBe(1024)
    const url = await page.getByLabel(imageFieldTexts.label, { exact: true }).inputValue()
    expect(url).toMatch(new RegExp(`^${product.server.url}/uploads/blog/[0-9a-f]{32}\\.png$`))
    await page.getByText(`${url.slice(0, 50)}…`, { exact: true }).waitFor()
    await page.getByRole("button", { name: imageFieldTexts.copy }).click()
    await page.getByRole("button", { name: imageFieldTexts.copied }).waitFor()
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(url)
    await page.getByRole("button", { name: imageFieldTexts.copy }).waitFor({ timeout: 4000 })
    // A file that is not an image is refused in the console with the spec's words.
    writeFileSync(join(files, "notes.txt"), "not an image")
    await page.getByTestId("featured-image-file").setInputFiles(join(files, "notes.txt"))
    await page.getByText(uploadMessages.notAnImage).waitFor()

    // Categories, flags, tags.
    await tab(page, t.tabs.categories).click()
    await page.getByText(t.noCategories).waitFor()
    await page.getByLabel(t.newCategory).fill("Mainnet News")
    await page.getByRole("button", { name: t.addCategory }).click()
    await expect(page.getByRole("checkbox", { name: "Mainnet News" }).getAttribute("aria-checked")).resolves.toBe("true")
    await page.getByRole("checkbox", { name: t.flags.isFeatured }).click()
    await page.getByLabel(t.tags).fill("pi, news,")
    await page.getByRole("button", { name: chipTexts.remove("pi") }).waitFor()
    // SEO keywords.
    await tab(page, t.tabs.seo).click()
    await page.getByLabel(t.seoTitle).fill("Pi mainnet, explained")
    await page.getByLabel(t.seoKeywords).fill("pi network")
    await page.getByLabel(t.seoKeywords).press("Enter")
    await page.getByLabel(t.seoKeywords).fill("mainnet")
    await page.getByRole("button", { name: chipTexts.add, exact: true }).click()
    await page.getByRole("button", { name: chipTexts.remove("mainnet") }).waitFor()
    await expect(page.getByLabel(t.seoKeywords).inputValue()).resolves.toBe("")
    // Preview through the palette.
    await page.keyboard.press(`${mod}+k`)
    await page.getByRole("dialog").getByRole("combobox").fill("Preview")
    await page.keyboard.press("Enter")
    const article = page.getByRole("article", { name: t.tabs.preview })
    await article.getByRole("heading", { name: title }).waitFor()
    await article.getByRole("heading", { level: 2, name: "Section one" }).waitFor()
    await article.locator("strong", { hasText: "strong" }).waitFor()
    await expect(article.locator(".post-body").innerHTML()).resolves.toMatch(/<a href="https:\/\/minepi\.com\/docs"[^>]*>Read the docs<\/a>/)

    // Scheduled 12 seconds ahead (the steps before the job publishes it take a few), saved with Ctrl+S from the keyboard.
    await tab(page, t.tabs.settings).click()
    await page.getByLabel(t.status).click()
    await page.getByRole("option", { name: t.statuses.scheduled }).click()
    const at = new Date(Date.now() + 12_000)
    await page.getByLabel(t.scheduleDate).fill(localInput(at))
    await page.keyboard.press(`${mod}+s`)
    await page.getByRole("heading", { level: 1, name: t.editTitle }).waitFor()
    await page.getByText(t.saved, { exact: true }).waitFor()
    const slug = `pi-mainnet-story-${counter}`
    await page.waitForURL(`${product.server.url}/blog/${slug}/edit`)
    const saved = await storedPost(slug)
    expect(saved).toMatchObject({ status: "scheduled", publishedAt: null })
    for (const fragment of [
      "<h2",
      "<strong>strong</strong>",
      "<ul>",
      "<blockquote",
      "text-align:center",
      "<br",
      'href="https://minepi.com/docs"',
      "pasted as text"
    ]) {
      expect(saved!.content).toContain(fragment)
    }
    expect(saved!.content).not.toMatch(/<h1|bold paste|onerror|<img/)

    // The list shows when it will go out; the job then publishes it without anyone touching it.
    await page.getByRole("button", { name: t.cancel }).click()
    await page.getByRole("heading", { level: 1, name: t.title }).waitFor()
    const row = page.getByRole("row").filter({ hasText: title })
    await row.getByText(/^Scheduled for /).waitFor()
    await row.getByText("Mainnet News").waitFor()
    await row.getByText("What mainnet means for pioneers").waitFor()
    await expect.poll(async () => (await storedPost(slug))?.status, { timeout: 30_000, interval: 250 }).toBe("published")
    const published = await storedPost(slug)
    expect(Math.abs(new Date(published!.publishedAt!).getTime() - at.getTime())).toBeLessThan(1000)
    await page.reload()
    await page.getByRole("row").filter({ hasText: title }).getByText("published", { exact: true }).waitFor()

    // Opened and saved without changes, the stored HTML is the same.
    await page.getByRole("row").filter({ hasText: title }).getByRole("button", { name: t.edit }).click()
    await page.getByRole("heading", { level: 1, name: t.editTitle }).waitFor()
    await body(page).getByText("Section one").waitFor()
    await page.getByRole("button", { name: t.save, exact: true }).click()
    await page.getByText(t.saved, { exact: true }).waitFor()
    const again = await storedPost(slug)
    expect(again!.version).toBe(published!.version + 1)
    expect(again!.content).toBe(published!.content)

    // Leaving with unsaved changes asks first.
    await page.getByLabel(t.postTitle).fill(`${title} (edited)`)
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click()
    await page.getByRole("alertdialog", { name: t.leaveTitle }).waitFor()
    await page.getByRole("button", { name: t.stay }).click()
    await expect(page.getByLabel(t.postTitle).inputValue()).resolves.toBe(`${title} (edited)`)
    await page.getByRole("button", { name: t.cancel }).click()
    await page.getByRole("button", { name: t.leave }).click()
    await page.getByRole("heading", { level: 1, name: t.title }).waitFor()
    expect((await storedPost(slug))!.version).toBe(again!.version)

    // Delete after the spec's question.
    await page.getByRole("row").filter({ hasText: title }).getByRole("button", { name: t.delete }).click()
    await page.getByRole("alertdialog").getByText(t.confirmDelete).waitFor()
    await page.getByRole("alertdialog").getByRole("button", { name: t.delete }).click()
    await page.getByText(t.empty).waitFor()
    // Gone at once; gone on the server once the command has gone out (docs/architecture.md, "The browser's store").
    await expect.poll(() => storedPost(slug)).toBeUndefined()
    expect(errors).toEqual([])
    await context.close()
  }, 180_000)

  it("writes a post with a Russian title under a Russian slug, and opens and saves it again from the list", async () => {
    const { page, context } = await signedInPage()
    const title = `Новости сети Пи ${counter}`
    const slug = `новости-сети-пи-${counter}`
    await page.goto(`${product.server.url}/blog/new`)
    await page.getByLabel(t.postTitle).fill(title)
    await body(page).click()
    await page.keyboard.type("Первый абзац.")
    await page.getByRole("button", { name: t.save, exact: true }).click()
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/blog/${slug}/edit`)
    await expect.poll(async () => (await storedPost(slug))?.version).toBe(1)

    await page.goto(`${product.server.url}/blog?search=${encodeURIComponent("Новости")}`)
    await page.getByText(title).waitFor()
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { level: 1, name: t.editTitle }).waitFor()
    expect(await page.getByLabel(t.postTitle).inputValue()).toBe(title)
    await page.getByLabel(t.excerpt).fill("Что нового у пионеров")
    await page.getByRole("button", { name: t.save, exact: true }).click()
    await expect.poll(async () => (await storedPost(slug))?.version).toBe(2)
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/blog/${slug}/edit`)
    // Deleted from its row, as any post: the list is as the other tests found it.
    await page.goto(`${product.server.url}/blog?search=${encodeURIComponent("Новости")}`)
    await page.getByRole("row").filter({ hasText: title }).getByRole("button", { name: t.delete }).click()
    await page.getByRole("alertdialog").getByRole("button", { name: t.delete }).click()
    await expect.poll(async () => storedPost(slug)).toBeUndefined()
    await context.close()
  })

  it("keeps the fields below the body where they are while the body's editor arrives, so a click meant for them lands on them", async () => {
    const { page, context, errors } = await signedInPage()
    // The editor's code is held before the browser has it, as on a slow link.
    const held: Array<Route> = []
    await page.route(/RichTextEditor-[\w-]+\.js$/u, (route) => void held.push(route))
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog Management" }).click()
    await page.getByRole("button", { name: t.add }).click()
    await page.getByRole("status").filter({ hasText: "Loading the editor…" }).waitFor()
    await expect.poll(() => held.length).toBeGreaterThan(0)
    const upload = page.getByRole("button", { name: imageFieldTexts.upload, exact: true })
    const before = await upload.boundingBox()
    for (const route of held.splice(0)) await route.continue()
    await page.unroute(/RichTextEditor-[\w-]+\.js$/u)
    await body(page).waitFor()
    // Two frames after the body shows: its layout is done.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    expect(await upload.boundingBox()).toEqual(before)
    expect(errors).toEqual([])
    await context.close()
  })
})
