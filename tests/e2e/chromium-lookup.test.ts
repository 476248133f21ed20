import { existsSync } from "node:fs"
import { chromium } from "playwright-core"
import { afterEach, describe, expect, it } from "vitest"
import { findChromium } from "../support/browser.ts"

/** The order the browser tests find Chromium in (README, "Run it"): each step is taken when the one before is missing. */
describe("finding Chromium", () => {
  const saved = { path: process.env.PATH, chromium: process.env.CHROMIUM_PATH }
  afterEach(() => {
    process.env.PATH = saved.path
    if (saved.chromium === undefined) delete process.env.CHROMIUM_PATH
    else process.env.CHROMIUM_PATH = saved.chromium
  })

  it("takes CHROMIUM_PATH first and names it when it does not exist", async () => {
    process.env.CHROMIUM_PATH = "/nowhere/chromium"
    await expect(findChromium()).rejects.toThrow("CHROMIUM_PATH is /nowhere/chromium")
    process.env.CHROMIUM_PATH = process.execPath
    expect(await findChromium()).toEqual({ path: process.execPath, source: "CHROMIUM_PATH" })
  })

  it("falls back to the build inside @sparticuz/chromium when no browser is on PATH, and that build runs a page", async () => {
    delete process.env.CHROMIUM_PATH
    process.env.PATH = ""
    const found = await findChromium()
    expect(found.source).toBe("@sparticuz/chromium")
    expect(existsSync(found.path)).toBe(true)
    const browser = await chromium.launch({
      executablePath: found.path,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
    })
    try {
      const page = await browser.newPage()
      await page.setContent("<h1>Pi admin</h1>")
      expect(await page.textContent("h1")).toBe("Pi admin")
    } finally {
      await browser.close()
    }
  }, 60_000)
})
