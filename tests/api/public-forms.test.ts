import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { serverWithStaff } from "../support/session.ts"

/** A valid body for each public form, and its refusal when one address sends too many. */
const forms = [
  { path: "/api/listings/community", body: { name: "Pi Lagos", description: "Meetups" }, refusal: "submissions", table: "listings" },
  {
    path: "/api/listings/project",
    body: { name: "PiScan", category: "Tools", projectStatus: "beta", description: "An explorer" },
    refusal: "submissions",
    table: "listings"
  },
  { path: "/api/report-scam", body: { scamType: "phishing", description: "A fake wallet site" }, refusal: "reports", table: "scam_reports" },
  {
    path: "/api/core-team-contact",
    body: {
      contactInfo: { name: "Ada", email: "ada@example.com", organization: "PiPay", role: "CTO" },
      inquiry: { category: "Partnership Proposal", priority: "medium", subject: "Hello", details: "Let us talk" },
      projectInfo: { name: "PiPay", stage: "mvp", piIntegration: "payments", website: "https://pipay.example.com" }
    },
    refusal: "messages",
    table: "core_team_contacts"
  },
  {
    path: "/api/advertising-inquiries",
    body: { companyName: "Acme", contactName: "Ada", email: "ada@example.com", industry: "Wallet Services", budget: "1000-5000 Pi", selectedPlan: "Premium" },
    refusal: "inquiries",
    table: "advertising_inquiries"
  }
] as const

/** A body of about 1 MB that fails its schema at every one of its 250,000 items. */
const megabyteOfBadItems = (body: object) => JSON.stringify({ ...body, team: Array(250_000).fill(1), tags: Array(250_000).fill(2) })

describe.each(engines)("the public forms under attack on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  const rows = (table: string) =>
    staff.server.sql(Effect.flatMap(SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`)).then((result) => result[0]?.n ?? 0)

  it("answers a megabyte of bad items with one problem in a small answer, quickly", async () => {
    const started = performance.now()
    const answer = await call(url(), "POST", "/api/listings/project", {
      ip: freshIp(),
      raw: JSON.stringify({ name: "p", category: "c", projectStatus: "beta", description: "d", team: Array(499_990).fill(1) })
    })
    expect(answer.status).toBe(400)
    expect(answer.text.length).toBeLessThan(2_000)
    expect(answer.body.error).toBe("Invalid request body: team: must have at most 50 items")
    // Generous on a loaded machine: unbounded, this took 1.6 s and answered 40 MB.
    expect(performance.now() - started).toBeLessThan(1_500)
  })

  it("names the first ten problems and how many there were", async () => {
    const answer = await call(url(), "POST", "/api/listings/project", {
      ip: freshIp(),
      body: { name: "p", category: "c", projectStatus: "beta", description: "d", team: Array(50).fill(1), technologies: Array(20).fill(2) }
    })
    expect(answer.status).toBe(400)
    expect(answer.body.issues).toHaveLength(10)
    expect(answer.body.issueCount).toBe(70)
    expect(answer.body.error).toMatch(/^Invalid request body: team\.0: .*; and 60 more$/)
  })

  it.each(forms)(
    "counts $path against the address before reading the body: bad bodies count, and past the limit nothing is read",
    async ({ path, body, refusal, table }) => {
      const ip = freshIp()
      const before = await rows(table)
      for (let n = 0; n < 5; n++) expect((await call(url(), "POST", path, { ip, raw: JSON.stringify([body]) })).status).toBe(400)
      for (const sent of [{ body }, { raw: megabyteOfBadItems(body) }, { raw: "{not json" }]) {
        const refused = await call(url(), "POST", path, { ip, ...sent })
        expect(refused.status).toBe(429)
        expect(refused.body.error).toMatch(new RegExp(`^Too many ${refusal} from your address\\. Try again in \\d+ minutes?\\.$`))
        expect(refused.body.retryAfterSeconds).toBeGreaterThan(0)
      }
      expect(await rows(table)).toBe(before)
      // Another address is not affected.
      expect((await call(url(), "POST", path, { ip: freshIp(), body })).status).toBe(200)
    }
  )

  it("lets exactly five of twenty parallel submissions from one address through", async () => {
    const ip = freshIp()
    const form = forms[2]
    const before = await rows(form.table)
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(url(), "POST", form.path, { ip, body: form.body })))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5)
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(15)
    expect(await rows(form.table)).toBe(before + 5)
  })

  it("shares one budget among the listing forms, as one address submits listings of any type", async () => {
    const ip = freshIp()
    for (const [path, body] of [
      [forms[0].path, forms[0].body],
      [forms[1].path, forms[1].body]
    ] as const) {
      for (let n = 0; n < 2; n++) expect((await call(url(), "POST", path, { ip, body })).status).toBe(200)
    }
    expect((await call(url(), "POST", "/api/listings/influencer", { ip, body: forms[0].body })).status).toBe(200)
    expect((await call(url(), "POST", "/api/listings/business", { ip, body: { name: "b", category: "c", industry: "i", description: "d" } })).status).toBe(429)
  })

  it("checks a token on the core-team form before the body, and never counts staff", async () => {
    const ip = freshIp()
    const form = forms[3]
    const dead = await call(url(), "POST", form.path, { ip, token: "not-a-session", raw: megabyteOfBadItems(form.body) })
    expect(dead.status).toBe(401)
    for (let n = 0; n < 6; n++) expect((await call(url(), "POST", form.path, { ip, token: staff.admin, body: form.body })).status).toBe(200)
    for (let n = 0; n < 5; n++) expect((await call(url(), "POST", form.path, { ip, body: form.body })).status).toBe(200)
    expect((await call(url(), "POST", form.path, { ip, body: form.body })).status).toBe(429)
  })
})
