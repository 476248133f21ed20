import { chromium } from "playwright-core"
import { readdirSync, readFileSync } from "node:fs"
const base = "http://127.0.0.1:8091"
const post = (path: string, body: unknown, token?: string) => fetch(base + path, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) }).then(r => r.json())
await post("/api/admin/auth", { email: "admin@example.com", role: "super_admin" })
const files = readdirSync("/tmp/d1/outbox").sort()
const code = readFileSync(`/tmp/d1/outbox/${files.at(-1)}`, "utf8").match(/code: (\d{6})/)?.[1]
const { token } = await post("/api/admin/auth", { email: "admin@example.com", otp: code }) as { token: string }
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] })
const context = await browser.newContext()
await context.addInitScript((v) => {
  localStorage.setItem("adminToken", v)
  const marks: string[] = []; (window as any).__marks = marks
  const seen = new Set<string>()
  const probes: Record<string, string> = { spinner: "[role=status]", shell: "nav", table: "table", rows: "tbody tr:nth-child(20)" }
  new MutationObserver(() => { for (const [k, sel] of Object.entries(probes)) if (!seen.has(k) && document.querySelector(sel)) { seen.add(k); marks.push(`${Math.round(performance.now())} ${k}`) } }).observe(document, { subtree: true, childList: true })
  new PerformanceObserver((l) => l.getEntries().forEach((e) => marks.push(`${Math.round(e.startTime)}+${Math.round(e.duration)} ${e.entryType} ${e.name.replace(location.origin, "")}`))).observe({ entryTypes: ["longtask", "paint", "resource"] })
}, token)
const page = await context.newPage()
await page.goto(base + "/generated-addresses", { waitUntil: "commit" })
await page.waitForFunction(() => document.querySelectorAll("tbody tr").length >= 20, undefined, { polling: "raf" })
await page.waitForTimeout(100)
console.log((await page.evaluate(() => (window as any).__marks)).join("\n"))
await browser.close()
