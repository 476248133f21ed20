import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { consoleDir } from "../../server/platform/console.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { launchChromium, requireBuiltConsole, signInThroughScreen } from "../support/browser.ts"
import { engines } from "../support/database.ts"
import { startTestServer } from "../support/server.ts"

const gzipKb = (files: Iterable<string>) =>
  Math.round([...files].reduce((sum, file) => sum + gzipSync(readFileSync(join(consoleDir, file))).length, 0) / 102.4) / 10

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0)
}

/**
 * Waits until no console file has arrived for half a second. Not Playwright's "networkidle": a
 * signed-in console keeps the change stream open (GET /api/admin/stream), so the network is
 * never idle.
 */
const assetsSettled = async (page: import("playwright-core").Page) => {
  let last = performance.now()
  const seen = (response: import("playwright-core").Response) => {
    if (new URL(response.url()).pathname.startsWith("/assets/")) last = performance.now()
  }
  page.on("response", seen)
  while (performance.now() - last < 500) await page.waitForTimeout(100)
  page.off("response", seen)
}

/**
 * What the console costs a browser: gzip size of the JavaScript and CSS Chromium actually
 * loads for /login and for the shell, and the time from navigation to a usable sign-in form.
 */
export const measureConsole = async () => {
  requireBuiltConsole()
  const database = await engines[0]!.fresh()
  const server = await startTestServer(database)
  const browser = await launchChromium()
  try {
    const loaded = async (action: (page: import("playwright-core").Page) => Promise<void>) => {
      const context = await browser.newContext()
      const page = await context.newPage()
      const files = new Set<string>()
      page.on("response", (response) => {
        const path = new URL(response.url()).pathname
        if (path.startsWith("/assets/")) files.add(path.slice(1))
      })
      await action(page)
      await assetsSettled(page)
      await context.close()
      return files
    }
    const loginFiles = await loaded(async (page) => {
      await page.goto(`${server.url}/login`)
      await page.getByLabel("Email").waitFor()
    })
    await server.sql(addAdmin("bench@example.com", "super_admin"))
    const shellFiles = await loaded((page) => signInThroughScreen(page, server, "bench@example.com"))
    await server.sql(addAdmin("writer@example.com", "admin"))
    let listFiles = new Set<string>()
    const editorFiles = await loaded(async (page) => {
      await signInThroughScreen(page, server, "writer@example.com", "Admin")
      await page.goto(`${server.url}/blog`)
      await page.getByRole("button", { name: "Add New Post" }).waitFor()
      await assetsSettled(page)
      const before = await page.evaluate(() => performance.getEntriesByType("resource").map((entry) => new URL(entry.name).pathname.slice(1)))
      listFiles = new Set(before.filter((path) => path.startsWith("assets/")))
      await page.getByRole("button", { name: "Add New Post" }).click()
      await page.locator(".bn-editor").waitFor()
    })
    const editorOnly = new Set([...editorFiles].filter((file) => !listFiles.has(file)))
    const js = (files: Set<string>) => [...files].filter((file) => file.endsWith(".js"))
    const css = (files: Set<string>) => [...files].filter((file) => file.endsWith(".css"))

    const timings: Array<number> = []
    for (let run = 0; run < 15; run++) {
      const context = await browser.newContext()
      const page = await context.newPage()
      const started = performance.now()
      await page.goto(`${server.url}/login`, { waitUntil: "commit" })
      await page.getByLabel("Email").waitFor({ state: "visible" })
      await page.getByLabel("Email").isEnabled()
      timings.push(performance.now() - started)
      await context.close()
    }
    console.log("\nConsole in headless Chromium on localhost")
    console.table({
      "/login": { "JS gzip kB": gzipKb(js(loginFiles)), "CSS gzip kB": gzipKb(css(loginFiles)), files: loginFiles.size },
      "shell (after sign-in)": { "JS gzip kB": gzipKb(js(shellFiles)), "CSS gzip kB": gzipKb(css(shellFiles)), files: shellFiles.size },
      "/blog list (after sign-in)": { "JS gzip kB": gzipKb(js(listFiles)), "CSS gzip kB": gzipKb(css(listFiles)), files: listFiles.size },
      "editor, loaded on Add New Post": { "JS gzip kB": gzipKb(js(editorOnly)), "CSS gzip kB": gzipKb(css(editorOnly)), files: editorOnly.size }
    })
    console.log(
      `navigation → sign-in form usable: p50 ${percentile(timings, 50)} ms, p95 ${percentile(timings, 95)} ms (${timings.length} runs, fresh context each)`
    )
  } finally {
    await browser.close()
    await server.stop()
    await database.drop()
  }
}
