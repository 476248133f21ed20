import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { scamReportMessages } from "../../contract/scam-reports.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { serverWithStaff } from "../support/session.ts"
import { csvObjects } from "../support/csv.ts"

interface Report {
  readonly _id: string
  readonly status: string
  readonly priority: string
  readonly adminNotes: string
  readonly ipAddress: string
  readonly version: number
}
interface Listed {
  readonly reports: ReadonlyArray<Report>
  readonly pagination: { readonly total: number }
  readonly statusCounts: ReadonlyArray<{ _id: string; count: number }>
  readonly scamTypeCounts: ReadonlyArray<{ _id: string; count: number }>
}

describe.each(engines)("scam reports on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  let serial = 0

  const report = async (body: Record<string, unknown> = {}, ip = freshIp()) => {
    const answer = await call(url(), "POST", "/api/report-scam", {
      ip,
      body: { scamType: "phishing", description: `A fake wallet site ${++serial}`, walletAddress: `GWALLET${serial}`, ...body }
    })
    expect(answer.status, answer.text).toBe(200)
    expect(answer.text).not.toContain(ip)
    return (answer.body.data as { _id: string })._id
  }
  const listed = async (query = "") => {
    const answer = await call(url(), "GET", `/api/report-scam${query}`, { token: staff.moderator })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as Listed
  }
  /** The counts as a count of the rows would give them. */
  const actual = async () => {
    const rows = await staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ dimension: string; value: string; n: number }>`
      SELECT 'status' AS dimension, status AS value, count(*)::int AS n FROM scam_reports GROUP BY status
      UNION ALL SELECT 'scamType', scam_type, count(*)::int FROM scam_reports GROUP BY scam_type`
      )
    )
    return (dimension: string, value: string) => rows.find((row) => row.dimension === dimension && row.value === value)?.n ?? 0
  }
  const expectCountsTrue = async () => {
    const data = await listed()
    const of = await actual()
    for (const count of data.statusCounts) expect(count.count, `status ${count._id}`).toBe(of("status", count._id))
    for (const count of data.scamTypeCounts) expect(count.count, `type ${count._id}`).toBe(of("scamType", count._id))
  }

  it("takes a public report as new and normal, with the client address staff see and the public never does", async () => {
    const ip = freshIp()
    const id = await report({ status: "resolved", priority: "urgent", ipAddress: "1.2.3.4" }, ip)
    const found = (await listed(`?search=${encodeURIComponent(`GWALLET${serial}`)}`)).reports
    expect(found).toMatchObject([{ _id: id, status: "new", priority: "normal", ipAddress: ip, adminNotes: "" }])
    expect((await call(url(), "GET", "/api/report-scam")).status).toBe(401)
    await expectCountsTrue()
  })

  it("refuses unknown types, missing descriptions and overlong fields, and limits reports per address", async () => {
    for (const body of [
      { scamType: "rugpull", description: "x" },
      { scamType: "other", description: " " },
      { scamType: "other", description: "x", walletAddress: "w".repeat(201) }
    ]) {
      expect((await call(url(), "POST", "/api/report-scam", { ip: freshIp(), body })).status, JSON.stringify(body)).toBe(400)
    }
    const ip = freshIp()
    for (let n = 0; n < 5; n++) await report({}, ip)
    const limited = await call(url(), "POST", "/api/report-scam", { ip, body: { scamType: "other", description: "one more" } })
    expect(limited.status).toBe(429)
    expect(limited.body.error).toMatch(/^Too many reports from your address\. Try again in \d+ minutes?\.$/)
  })

  it("filters by status, type and priority ('all' is none), pages, and keeps the counts of all reports", async () => {
    const marker = `filter-${++serial}`
    const ids = [
      await report({ scamType: "fake_giveaway", description: `${marker} one` }),
      await report({ scamType: "impersonation", description: `${marker} two` })
    ]
    const typed = await listed(`?search=${marker}&scamType=fake_giveaway&status=all&priority=all`)
    expect(typed.reports.map((row) => row._id)).toEqual([ids[0]])
    expect(typed.pagination.total).toBe(1)
    expect((await listed(`?search=${marker}&limit=1&page=2`)).reports).toHaveLength(1)
    await expectCountsTrue()
  })

  it("changes exactly one of status, priority or notes at the version read, logging each; moderators may, deleting is for admins", async () => {
    const id = await report()
    const change = (body: Record<string, unknown>, token = staff.moderator) => call(url(), "PATCH", `/api/report-scam/${id}`, { token, body })
    const both = await change({ status: "resolved", priority: "high", version: 1 })
    expect(both.status).toBe(400)
    expect(both.body.error).toBe(scamReportMessages.oneChange)
    expect((await change({ version: 1 })).status).toBe(400)
    expect(((await change({ status: "under_review", version: 1 })).body.data as { report: Report }).report).toMatchObject({
      status: "under_review",
      version: 2
    })
    expect(((await change({ priority: "urgent", version: 2 })).body.data as { report: Report }).report).toMatchObject({ priority: "urgent", version: 3 })
    expect(((await change({ notes: " Same wallet as last week ", version: 3 })).body.data as { report: Report }).report).toMatchObject({
      adminNotes: "Same wallet as last week",
      version: 4
    })
    // Status moves freely, back included.
    expect((await change({ status: "new", version: 4 })).status).toBe(200)
    const one = await call(url(), "GET", `/api/report-scam/${id}`, { token: staff.moderator })
    expect((one.body.data as { report: Report }).report).toMatchObject({ _id: id, status: "new", priority: "urgent", version: 5 })
    expect((await call(url(), "GET", `/api/report-scam/${id}`)).status).toBe(401)
    const stale = await change({ status: "dismissed", version: 2 })
    expect(stale.status).toBe(409)
    expect(stale.body.error).toBe(scamReportMessages.stale)
    await expectCountsTrue()
    expect((await call(url(), "DELETE", `/api/report-scam/${id}?version=5`, { token: staff.moderator })).status).toBe(403)
    expect((await call(url(), "DELETE", `/api/report-scam/${id}?version=5`, { token: staff.admin })).status).toBe(200)
    expect((await change({ status: "new", version: 5 })).status).toBe(404)
    expect((await call(url(), "GET", `/api/report-scam/${id}`, { token: staff.moderator })).status).toBe(404)
    const log = await staff.server.sql(
      Effect.flatMap(SqlClient, (sql) => sql<{ action: string }>`SELECT action FROM activity_log WHERE entity_id = ${id} ORDER BY id`)
    )
    expect(log.map((row) => row.action)).toEqual([
      "scam-report.create",
      "scam-report.status",
      "scam-report.priority",
      "scam-report.notes",
      "scam-report.status",
      "scam-report.delete"
    ])
    await expectCountsTrue()
  })

  it("answers every filter combination's total from the kept counts, as a count of the rows gives it", async () => {
    const statuses = ["new", "under_review", "resolved", "dismissed"] as const
    const priorities = ["low", "normal", "high", "urgent"] as const
    const types = ["fake_project", "phishing", "impersonation"] as const
    for (let n = 0; n < 12; n++) {
      const id = await report({ scamType: types[n % types.length] })
      if (n % 4 !== 0) await call(url(), "PATCH", `/api/report-scam/${id}`, { token: staff.admin, body: { status: statuses[n % 4], version: 1 } })
      if (n % 3 !== 0)
        await call(url(), "PATCH", `/api/report-scam/${id}`, { token: staff.admin, body: { priority: priorities[n % 4], version: n % 4 !== 0 ? 2 : 1 } })
    }
    const rows = await staff.server.sql(
      Effect.flatMap(SqlClient, (sql) => sql<{ status: string; scamType: string; priority: string }>`SELECT status, scam_type, priority FROM scam_reports`)
    )
    for (const status of ["all", ...statuses]) {
      for (const scamType of ["all", "phishing", "other"]) {
        for (const priority of ["all", ...priorities]) {
          const data = await listed(`?status=${status}&scamType=${scamType}&priority=${priority}&limit=100`)
          const expected = rows.filter(
            (row) =>
              (status === "all" || row.status === status) &&
              (scamType === "all" || row.scamType === scamType) &&
              (priority === "all" || row.priority === priority)
          )
          expect(data.pagination.total, `${status} ${scamType} ${priority}`).toBe(expected.length)
          expect(data.reports).toHaveLength(Math.min(100, expected.length))
        }
      }
    }
    await expectCountsTrue()
  })

  it("exports every report the filters match as CSV, the client address included for staff", async () => {
    const marker = `export-${++serial}`
    const ip = freshIp()
    const ids = [await report({ description: `${marker} =HYPERLINK("x")` }, ip), await report({ description: `${marker} second` }, ip)]
    const answer = await call(url(), "GET", `/api/report-scam?format=csv&search=${marker}&limit=1`, { token: staff.moderator })
    expect(answer.status).toBe(200)
    expect(answer.headers.get("content-type")).toContain("text/csv")
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="scam-reports-\d{4}-\d{2}-\d{2}\.csv"$/)
    const rows = csvObjects(answer.text)
    expect(rows.map((row) => row._id)).toEqual([...ids].reverse())
    expect(rows.every((row) => row.ipAddress === ip)).toBe(true)
    expect((await call(url(), "GET", `/api/report-scam?format=csv`)).status).toBe(401)
  })
})
