import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium } from "playwright-core"
import { afterEach, describe, expect, it } from "vitest"
import { findChromium, systemBrowsers } from "../support/browser.ts"

/** The order the browser tests find Chromium in (docs/testing.md, "The browser"): each step is taken when the one before is missing. */
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

  it("takes the headless shell before the full browser on PATH, and the full browser when it is alone", async () => {
    delete process.env.CHROMIUM_PATH
    const dir = mkdtempSync(join(tmpdir(), "chromium-lookup-"))
    try {
      const place = (name: string) => {
        writeFileSync(join(dir, name), "#!/bin/sh\n")
        chmodSync(join(dir, name), 0o755)
      }
      process.env.PATH = dir
      place("chromium")
      expect(await findChromium()).toEqual({ path: join(dir, "chromium"), source: "system" })
      place("chromium-headless-shell")
      expect(await findChromium()).toEqual({ path: join(dir, "chromium-headless-shell"), source: "system" })
      expect(systemBrowsers.indexOf("chromium-headless-shell")).toBeLessThan(systemBrowsers.indexOf("chromium"))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
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
