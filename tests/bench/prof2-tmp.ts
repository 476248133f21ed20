import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { launchChromium } from "../support/browser.ts"
import { engines } from "../support/database.ts"
import { startTestServer } from "../support/server.ts"
import { signedInAs } from "../support/session.ts"
const database = await engines[0]!.fresh()
const server = await startTestServer(database)
const token = await signedInAs(server, "admin")
await server.sql(Effect.flatMap(SqlClient, (sql) => sql`INSERT INTO addresses (id, kind, identifier, name, category, rank, created_at)
  SELECT gen_random_uuid(), 'generated', 'generated-addr-' || lpad(i::text, 6, '0'), 'Address ' || i, 'Wallet', i % 1000, now() - make_interval(secs => i) FROM generate_series(1, 10000) AS i`))
const browser = await launchChromium()
const context = await browser.newContext()
await context.addInitScript((v) => localStorage.setItem("adminToken", v), token)
const page = await context.newPage()
await page.goto(`${server.url}/generated-addresses`)
await page.waitForFunction(() => document.querySelectorAll("tbody tr").length >= 20)
const cdp = await context.newCDPSession(page)
const which = process.argv[2] ?? "next"
await cdp.send("Profiler.enable"); await cdp.send("Profiler.setSamplingInterval", { interval: 100 }); await cdp.send("Profiler.start")
for (let i = 0; i < 10; i++) {
  if (which === "next") {
    await page.getByRole("button", { name: "Next" }).click()
    await page.getByText(`Page ${i + 2} of`).waitFor()
  } else {
    await page.locator("body").click({ position: { x: 5, y: 5 } })
    await page.keyboard.press("Control+k")
    await page.locator("[cmdk-input]").waitFor()
    await page.keyboard.press("Escape")
    await page.locator("[cmdk-input]").waitFor({ state: "detached" })
  }
  await page.waitForTimeout(100)
}
const { profile } = await cdp.send("Profiler.stop") as any
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]))
const parent = new Map<number, number>(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const counts = new Map<number, number>(); profile.samples.forEach((id: number, i: number) => counts.set(id, (counts.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
const self = new Map<string, number>(); const incl = new Map<string, number>()
for (const [id, us] of counts) {
  const n: any = byId.get(id); const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`
  self.set(key, (self.get(key) ?? 0) + us)
  const seen = new Set<string>(); let cur: number | undefined = id
  while (cur !== undefined) { const m: any = byId.get(cur); const k = `${m.callFrame.functionName || "(anon)"} ${m.callFrame.url.split("/").pop()}:${m.callFrame.lineNumber}`; if (!seen.has(k)) { incl.set(k, (incl.get(k) ?? 0) + us); seen.add(k) } cur = parent.get(cur) }
}
console.log("SELF"); console.log([...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => `${Math.round(v / 1000)}ms ${k}`).join("\n"))
console.log("INCLUSIVE (app code)"); console.log([...incl.entries()].filter(([k]) => /AuthenticatedApp|theme|client-/.test(k) && !/^\(anon\)/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${Math.round(v / 1000)}ms ${k}`).join("\n"))
await browser.close(); await server.stop(); await database.drop()
