import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { launchChromium, requireBuiltConsole } from "../support/browser.ts"
import { registerPasskey, softAuthenticator, virtualAuthenticator } from "../support/authenticator.ts"
import { type BenchRow, benchDatabases, percentile, signInFirstAdmin, startProduct } from "./product.ts"

/** Sign-ins timed per database. */
const SIGN_INS = 20

/**
 * `npm run bench -- auth`, passkeys (docs/performance.md): from /login, what a person
 * does to sign in with a passkey (keys and clicks, counted in the page) and the time from the
 * click to the dashboard's heading, in Chromium with its virtual authenticator holding the
 * first admin's passkey, on the product as `npm start` runs it. Both ends are taken in the page
 * (the click's event, the heading's insertion): a Playwright wait polls at up to 500 ms, and timed
 * from outside it added that to every sign-in (docs/performance.md).
 */
export const measurePasskeySignIn = async (postgresUrl: string | undefined): Promise<Record<string, BenchRow>> => {
  requireBuiltConsole()
  const rows: Record<string, BenchRow> = {}
  for (const [engine, env] of benchDatabases(postgresUrl)) {
    const dataDir = mkdtempSync(join(tmpdir(), "admin-bench-passkey-"))
    const product = await startProduct(env, dataDir)
    const browser = await launchChromium()
    try {
      const origin = `http://localhost:${new URL(product.url).port}`
      const token = await signInFirstAdmin(product.url, dataDir)
      const key = softAuthenticator()
      await registerPasskey(product.url, token, key, origin, "Bench key")
      const times: Array<number> = []
      const actions: Array<number> = []
      for (let run = 0; run < SIGN_INS; run++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
        const page = await context.newPage()
        await (await virtualAuthenticator(page)).holds(key, "localhost", run * 10)
        // Every key and click the person makes on the way, and the moments of the click and the heading, from the page itself.
        await context.addInitScript(() => {
          const seen = { actions: 0, clicked: 0, heading: 0 }
          Object.assign(window, { seen })
          for (const type of ["keydown", "click"])
            addEventListener(
              type,
              (event) => {
                if (!event.isTrusted) return
                seen.actions++
                if (seen.clicked === 0) seen.clicked = event.timeStamp
              },
              true
            )
          new MutationObserver(() => {
            if (seen.heading === 0 && [...document.querySelectorAll("h1")].some((heading) => heading.textContent === "Dashboard"))
              seen.heading = performance.now()
          }).observe(document, { subtree: true, childList: true, characterData: true })
        })
        await page.goto(`${origin}/login`)
        const button = page.getByRole("button", { name: "Sign in with a passkey" })
        await button.waitFor()
        await button.click()
        await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor()
        const seen = await page.evaluate(() => (window as unknown as { seen: { actions: number; clicked: number; heading: number } }).seen)
        times.push(seen.heading - seen.clicked)
        actions.push(seen.actions)
        await context.close()
      }
      rows[engine] = {
        "sign-ins": times.length,
        "keys and clicks each": Math.max(...actions),
        "click → dashboard p50 / p95 ms": `${percentile(times, 50)} / ${percentile(times, 95)}`
      }
    } finally {
      await browser.close()
      await product.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  return rows
}
