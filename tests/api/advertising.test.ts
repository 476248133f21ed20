import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { type AdvertisingInquiry, type InquiryCounts, inquiryMessages } from "../../contract/advertising.ts"
import { canMoveInquiry, inquiryStatuses } from "../../contract/advertising-rules.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { serverWithStaff } from "../support/session.ts"

const form = (companyName: string, extra: Record<string, unknown> = {}) => ({
  companyName,
  contactName: "Grace Hopper",
  email: "grace@example.com",
  industry: "Wallet Services",
  budget: "1000-5000 Pi",
  website: "https://wallet.example.com",
  selectedPlan: "Premium",
  ...extra
})

describe.each(engines)("advertising inquiries on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  let serial = 0
  const submit = async (body: Record<string, unknown>, ip = freshIp()) => {
    const answer = await call(url(), "POST", "/api/advertising-inquiries", { ip, body })
    expect(answer.status, answer.text).toBe(200)
    return (answer.body.data as { _id: string })._id
  }
  const listed = async (query = "", path = "/api/advertising-inquiries") => {
    const answer = await call(url(), "GET", `${path}${query}`, { token: staff.moderator })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as { inquiries: ReadonlyArray<AdvertisingInquiry>; pagination: { total: number }; counts: InquiryCounts }
  }
  /** The four counts as a count of the rows gives them. */
  const expectCountsTrue = async () => {
    const rows = await staff.server.sql(Effect.flatMap(SqlClient, (sql) => sql<{ status: string }>`SELECT status FROM advertising_inquiries`))
    const of = (status: string) => rows.filter((row) => row.status === status).length
    expect((await listed()).counts).toEqual({ total: rows.length, pending: of("pending"), contacted: of("contacted"), converted: of("converted") })
  }

  it("takes the public form, paid when it carries a payment and its transaction, and limits it per address", async () => {
    const ip = freshIp()
    const plain = await submit(form(`Plain ${++serial}`, { status: "converted" }), ip)
    const paid = await submit(form(`Paid ${serial}`, { paymentId: "pay_123", txid: "tx_abc", amount: 250.5, selectedPlan: "Gold" }), ip)
    const rows = (await listed(`?search=${serial}`)).inquiries
    expect(rows.find((row) => row._id === plain)).toMatchObject({ status: "pending", paymentId: "", amount: null })
    expect(rows.find((row) => row._id === paid)).toMatchObject({ status: "paid", paymentId: "pay_123", txid: "tx_abc", amount: 250.5, selectedPlan: "Gold" })
    for (const body of [
      form(""),
      { ...form("x"), email: "nope" },
      { ...form("x"), industry: "Casinos" },
      { ...form("x"), amount: -1 },
      { ...form("x"), website: "ftp://x" }
    ]) {
      expect((await call(url(), "POST", "/api/advertising-inquiries", { ip: freshIp(), body })).status, JSON.stringify(body)).toBe(400)
    }
    for (let n = 0; n < 3; n++) await submit(form(`More ${n}`), ip)
    expect((await call(url(), "POST", "/api/advertising-inquiries", { ip, body: form("Too many") })).status).toBe(429)
    await expectCountsTrue()
  })

  it("moves an inquiry only as the funnel allows, with notes, at the version read, at both addresses", async () => {
    const id = await submit(form(`Funnel ${++serial}`))
    const put = (body: Record<string, unknown>, path = `/api/advertising-inquiries/${id}`) => call(url(), "PUT", path, { token: staff.moderator, body })
    const early = await put({ status: "converted", version: 1 })
    expect(early.status).toBe(409)
    expect(early.body.error).toBe(inquiryMessages.illegal("pending", "converted"))
    const contacted = await put({ status: "contacted", adminNotes: " Called on Monday ", version: 1 })
    expect((contacted.body.data as { inquiry: AdvertisingInquiry }).inquiry).toMatchObject({ status: "contacted", adminNotes: "Called on Monday", version: 2 })
    expect((await put({ status: "contacted", version: 1 })).status).toBe(409)
    const notes = await put({ status: "contacted", adminNotes: "Sent the deck", version: 2 })
    expect((notes.body.data as { inquiry: AdvertisingInquiry }).inquiry).toMatchObject({ status: "contacted", adminNotes: "Sent the deck", version: 3 })
    const converted = await put({ status: "converted", version: 3 }, `/api/listings/admin/advertising/${id}/status`)
    expect(converted.status, converted.text).toBe(200)
    expect((await put({ status: "rejected", version: 4 })).status).toBe(409)
    expect((await listed(`?search=Funnel ${serial}`, "/api/listings/admin/advertising")).inquiries[0]).toMatchObject({ _id: id, status: "converted" })
    const log = await staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ action: string; fromState: string; toState: string }>`
      SELECT action, from_state, to_state FROM activity_log WHERE entity_id = ${id} ORDER BY id`
      )
    )
    expect(log.map((row) => `${row.action} ${row.fromState ?? ""}>${row.toState}`)).toEqual([
      "inquiry.create >pending",
      "inquiry.status pending>contacted",
      "inquiry.notes contacted>contacted",
      "inquiry.status contacted>converted"
    ])
    expect(
      (
        await call(url(), "PUT", `/api/advertising-inquiries/00000000-0000-4000-8000-000000000000`, {
          token: staff.moderator,
          body: { status: "contacted", version: 1 }
        })
      ).status
    ).toBe(404)
    await expectCountsTrue()
  })

  it("holds the funnel's table: every pair of statuses is allowed exactly when the rules say", () => {
    for (const from of inquiryStatuses) {
      for (const to of inquiryStatuses) {
        const expected =
          from === to ||
          (["pending", "paid", "reviewed"].includes(from) && to === "contacted") ||
          (from === "contacted" && ["converted", "rejected"].includes(to))
        expect(canMoveInquiry(from, to), `${from} → ${to}`).toBe(expected)
      }
    }
  })

  it("filters by status and industry, searches company, contact and e-mail, pages, and exports CSV", async () => {
    const marker = `filters${++serial}`
    await submit(form(`${marker} one`, { industry: "Gaming" }))
    await submit(form(`${marker} two`, { industry: "Gaming", paymentId: "p", txid: "t" }))
    await submit(form(`${marker} three`, { industry: "Other", contactName: `${marker}-contact` }))
    expect((await listed(`?search=${marker}&industry=Gaming&status=all`)).pagination.total).toBe(2)
    expect((await listed(`?search=${marker}&status=paid`)).inquiries.map((row) => row.companyName)).toEqual([`${marker} two`])
    expect((await listed(`?search=${marker}&limit=1&page=3`)).inquiries).toHaveLength(1)
    expect((await listed(`?search=${marker}&limit=1&page=9`)).pagination.total).toBe(3)
    const csv = await call(url(), "GET", `/api/advertising-inquiries?search=${marker}&format=csv`, { token: staff.moderator })
    expect(csv.text.trim().split("\r\n")).toHaveLength(4)
    expect((await call(url(), "GET", "/api/advertising-inquiries")).status).toBe(401)
    await expectCountsTrue()
  })
})
