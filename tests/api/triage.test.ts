import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import type { TriageItem, TriagePage } from "../../contract/triage.ts"
import { triageMessages } from "../../contract/triage-rules.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { serverWithStaff } from "../support/session.ts"

/**
 * The triage desk over HTTP (docs/api.md, "The triage desk"): every waiting record of the four
 * areas in one list, its counts as a count of the rows gives them, and its own changes (owner,
 * snooze, duplicate) on the one write path: versions, history, refusals that change nothing.
 */
describe.each(engines)("the triage desk on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  let serial = 0

  const made = async (path: string, body: Record<string, unknown>, token?: string) => {
    const answer = await call(url(), "POST", path, token === undefined ? { ip: freshIp(), body } : { token, body })
    expect(answer.status, answer.text).toBe(200)
    const data = answer.body.data as { _id?: string; listing?: { _id: string } }
    return data._id ?? data.listing?._id ?? ""
  }
  const report = (wallet = `GWALLET${++serial}`) =>
    made("/api/report-scam", { scamType: "phishing", description: `A fake wallet site ${++serial}`, walletAddress: wallet })
  const contact = () =>
    made("/api/core-team-contact", {
      contactInfo: { name: "Ada", role: "Founder" },
      inquiry: { subject: `Desk ${++serial}`, details: "Pi payments" },
      projectInfo: { name: "PiPay" }
    })
  const inquiry = () =>
    made("/api/advertising-inquiries", { companyName: `Desk Co ${++serial}`, contactName: "Grace", email: "g@example.com", industry: "Gaming" })
  const community = () => made("/api/admin/communities", { name: `Desk community ${++serial}`, description: "Waiting" }, staff.admin)

  const desk = async (query = "", token = staff.moderator) => {
    const answer = await call(url(), "GET", `/api/admin/triage${query}`, { token })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as TriagePage
  }
  const change = (area: string, id: string, body: Record<string, unknown>, token = staff.moderator) =>
    call(url(), "PATCH", `/api/admin/triage/${area}/${id}`, { token, body })
  const versionOf = async (area: string, id: string) => {
    const table = { listing: "listings", "scam-report": "scam_reports", contact: "core_team_contacts", inquiry: "advertising_inquiries" }[area] ?? ""
    const rows = await staff.server.sql(Effect.flatMap(SqlClient, (sql) => sql<{ version: number }>`SELECT version FROM ${sql(table)} WHERE id = ${id}`))
    return rows[0]?.version ?? 0
  }
  const myId = async (token: string) => ((await call(url(), "GET", "/api/admin/auth/check", { token })).body as { user: { _id: string } }).user._id
  /** The waiting records as the tables say, oldest first: what the desk must show. */
  const waitingInTables = () =>
    staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ area: string; id: string; snoozed: boolean; owner: string }>`
          SELECT area, id, snoozed, coalesce(owner, '') AS owner FROM (
            SELECT 'listing' AS area, id::text, created_at AS at, coalesce(snoozed_until > now(), false) AS snoozed, owner_id::text AS owner FROM listings WHERE status = 'pending'
            UNION ALL SELECT 'scam-report', id::text, created_at, coalesce(snoozed_until > now(), false), owner_id::text FROM scam_reports WHERE status IN ('new', 'under_review')
            UNION ALL SELECT 'contact', id::text, submitted_at, coalesce(snoozed_until > now(), false), owner_id::text FROM core_team_contacts WHERE status = 'new'
            UNION ALL SELECT 'inquiry', id::text, created_at, coalesce(snoozed_until > now(), false), owner_id::text FROM advertising_inquiries WHERE status IN ('pending', 'paid')
          ) AS waiting ORDER BY at, id`
      )
    )
  /** The desk's counts and its whole waiting list agree with the tables. */
  const expectDeskTrue = async () => {
    const rows = await waitingInTables()
    const awake = rows.filter((row) => !row.snoozed)
    const page = await desk("?limit=100")
    expect(page.items.map((item) => `${item.area}:${item._id}`)).toEqual(awake.slice(0, 100).map((row) => `${row.area}:${row.id}`))
    expect(page.pagination.total).toBe(awake.length)
    expect(page.snoozed).toBe(rows.length - awake.length)
    for (const count of page.areaCounts) expect(count.count, count._id).toBe(awake.filter((row) => row.area === count._id).length)
    // What waits on each owner, and on nobody (the dashboard's figures).
    const owners = (await call(url(), "GET", "/api/admin/triage/owners", { token: staff.moderator })).body.data as {
      owners: ReadonlyArray<{ _id: string; waiting: number }>
      unowned: number
    }
    expect(owners.unowned).toBe(awake.filter((row) => row.owner === "").length)
    for (const owner of owners.owners) expect(owner.waiting, owner._id).toBe(awake.filter((row) => row.owner === owner._id).length)
  }

  it("shows every waiting record of the four areas, oldest first, as each area answers it; a decision takes it off", async () => {
    const ids = { community: await community(), report: await report(), contact: await contact(), inquiry: await inquiry() }
    const page = await desk("?limit=100")
    const shown = (id: string) => page.items.find((item) => item._id === id)
    expect(shown(ids.community)).toMatchObject({ area: "listing", type: "community", status: "pending", ownerId: null, snoozedUntil: null, duplicateOf: null })
    expect(shown(ids.report)).toMatchObject({ area: "scam-report", status: "new", priority: "normal", walletAddress: expect.stringMatching(/^GWALLET/) })
    expect(shown(ids.contact)).toMatchObject({ area: "contact", status: "new", inquiry: { priority: "medium" } })
    expect(shown(ids.inquiry)).toMatchObject({ area: "inquiry", status: "pending", companyName: expect.stringMatching(/^Desk Co/) })
    await expectDeskTrue()
    // Decided on each area's own screen: off the desk.
    const approved = await call(url(), "PUT", `/api/admin/listings/${ids.community}`, { token: staff.moderator, body: { action: "approve", version: 1 } })
    expect(approved.status, approved.text).toBe(200)
    const resolved = await call(url(), "PATCH", `/api/report-scam/${ids.report}`, { token: staff.moderator, body: { status: "resolved", version: 1 } })
    expect(resolved.status, resolved.text).toBe(200)
    const after = await desk("?limit=100")
    expect(after.items.map((item) => item._id)).not.toContain(ids.community)
    expect(after.items.map((item) => item._id)).not.toContain(ids.report)
    await expectDeskTrue()
    // Under review still waits; a contact's urgent priority is the desk's urgent.
    const second = await report()
    expect((await call(url(), "PATCH", `/api/report-scam/${second}`, { token: staff.moderator, body: { status: "under_review", version: 1 } })).status).toBe(
      200
    )
    expect((await call(url(), "PATCH", `/api/report-scam/${second}`, { token: staff.moderator, body: { priority: "urgent", version: 2 } })).status).toBe(200)
    const urgent = await desk("?priority=urgent&limit=100")
    expect(urgent.items.map((item) => item._id)).toContain(second)
    expect(urgent.items.every((item) => item.area === "scam-report" || item.area === "contact")).toBe(true)
    const reports = await desk("?area=scam-report&limit=100")
    expect(reports.items.every((item) => item.area === "scam-report")).toBe(true)
    expect(reports.pagination.total).toBe(reports.areaCounts.find((count) => count._id === "scam-report")?.count)
    const newest = await desk("?order=newest&limit=100")
    expect(newest.items.map((item) => item._id)).toEqual([...(await desk("?limit=100")).items.map((item) => item._id)].reverse())
  })

  it("assigns an owner (me, a colleague, nobody), filters by owner, keeps it in the history, and refuses an unknown or disabled one", async () => {
    const id = await report()
    const me = await myId(staff.moderator)
    const mine = await change("scam-report", id, { owner: me, version: 1 })
    expect(mine.status, mine.text).toBe(200)
    expect((mine.body.data as { item: TriageItem }).item).toMatchObject({ area: "scam-report", ownerId: me, version: 2 })
    expect((await desk("?owner=me&limit=100")).items.map((item) => item._id)).toContain(id)
    expect((await desk("?owner=none&limit=100")).items.map((item) => item._id)).not.toContain(id)
    expect((await desk(`?owner=${me}&limit=100`)).items.map((item) => item._id)).toContain(id)
    expect((await desk("?owner=me&limit=100", staff.admin)).items.map((item) => item._id)).not.toContain(id)
    const counts = (await desk("?owner=me")).areaCounts.find((count) => count._id === "scam-report")?.count
    expect(counts).toBe((await desk("?owner=me&area=scam-report&limit=100")).items.length)
    const history = await call(url(), "GET", `/api/admin/history/scam-report/${id}`, { token: staff.moderator })
    expect(history.status, history.text).toBe(200)
    expect(history.text).toContain("ownerId")
    // Someone unknown, or disabled: refused, nothing written.
    const unknown = await change("scam-report", id, { owner: "00000000-0000-4000-8000-000000000000", version: 2 })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toBe(triageMessages.noOwner)
    const gone = await staff.server.sql(addAdmin(`gone-${++serial}@example.com`, "moderator"))
    await staff.server.sql(Effect.flatMap(SqlClient, (sql) => sql`UPDATE admins SET disabled = true WHERE id = ${gone.id}`))
    expect((await change("scam-report", id, { owner: gone.id, version: 2 })).status).toBe(400)
    expect(await versionOf("scam-report", id)).toBe(2)
    // Everyone who may own items, the disabled one not among them.
    const listed = await call(url(), "GET", "/api/admin/triage/owners", { token: staff.moderator })
    const ids = (listed.body.data as { owners: ReadonlyArray<{ _id: string }> }).owners.map((owner) => owner._id)
    expect(ids).toContain(me)
    expect(ids).not.toContain(gone.id)
    // Nobody again.
    const freed = await change("scam-report", id, { owner: null, version: 2 })
    expect((freed.body.data as { item: TriageItem }).item.ownerId).toBe(null)
    await expectDeskTrue()
  })

  it("snoozes an item off the desk until the server's clock reaches the time, and wakes it early on asking", async () => {
    const id = await contact()
    const soon = new Date(Date.now() + 2_000).toISOString()
    const slept = await change("contact", id, { snoozedUntil: soon, version: 1 })
    expect(slept.status, slept.text).toBe(200)
    expect((await desk("?limit=100")).items.map((item) => item._id)).not.toContain(id)
    expect((await desk("?view=snoozed&limit=100")).items.map((item) => item._id)).toContain(id)
    await expectDeskTrue()
    await expect.poll(async () => (await desk("?limit=100")).items.map((item) => item._id), { timeout: 10_000, interval: 300 }).toContain(id)
    await expectDeskTrue()
    const later = await change("contact", id, { snoozedUntil: new Date(Date.now() + 86_400_000).toISOString(), version: 2 })
    expect(later.status, later.text).toBe(200)
    const woken = await change("contact", id, { snoozedUntil: null, version: 3 })
    expect(woken.status, woken.text).toBe(200)
    expect((await desk("?limit=100")).items.map((item) => item._id)).toContain(id)
    // The past, a day that does not exist, past a year: refused with the field named, nothing written.
    for (const snoozedUntil of [
      new Date(Date.now() - 60_000).toISOString(),
      "2031-02-30T10:00:00Z",
      "2031-01-01T25:00:00Z",
      new Date(Date.now() + 400 * 86_400_000).toISOString()
    ]) {
      const refused = await change("contact", id, { snoozedUntil, version: 4 })
      expect(refused.status, `${snoozedUntil}: ${refused.text}`).toBe(400)
      expect(refused.body.issues).toEqual([expect.objectContaining({ path: "snoozedUntil" })])
    }
    expect(await versionOf("contact", id)).toBe(4)
  })

  it("closes a duplicate as its area's decision, naming the record it repeats, with the reason in its notes", async () => {
    const first = await report("GSAMEWALLET")
    const second = await report("GSAMEWALLET")
    const duplicate = await change("scam-report", second, { duplicateOf: first, reason: "Same wallet as the first report", version: 1 })
    expect(duplicate.status, duplicate.text).toBe(200)
    expect((duplicate.body.data as { item: TriageItem }).item).toMatchObject({
      status: "dismissed",
      duplicateOf: first,
      adminNotes: "Same wallet as the first report",
      version: 2
    })
    expect((await desk("?limit=100")).items.map((item) => item._id)).not.toContain(second)
    // Each area's closing status.
    const listing = await community()
    const listed = await change("listing", listing, { duplicateOf: await community(), version: 1 })
    expect((listed.body.data as { item: TriageItem }).item).toMatchObject({ status: "rejected" })
    const contacted = await contact()
    expect(((await change("contact", contacted, { duplicateOf: await contact(), version: 1 })).body.data as { item: TriageItem }).item.status).toBe("closed")
    const asked = await inquiry()
    expect(((await change("inquiry", asked, { duplicateOf: await inquiry(), version: 1 })).body.data as { item: TriageItem }).item.status).toBe("rejected")
    // Itself, a record that is not there, another area's record, a closed one, an old version: refused, nothing written.
    const open = await report()
    const refusals: ReadonlyArray<readonly [Record<string, unknown>, number, string]> = [
      [{ duplicateOf: open, version: 1 }, 400, triageMessages.duplicateSelf],
      [{ duplicateOf: "00000000-0000-4000-8000-000000000000", version: 1 }, 400, triageMessages.duplicateMissing],
      [{ duplicateOf: listing, version: 1 }, 400, triageMessages.duplicateMissing],
      [{ duplicateOf: first, version: 5 }, 409, "This report was changed by someone else since you read it."]
    ]
    for (const [body, status, error] of refusals) {
      const refused = await change("scam-report", open, body)
      expect(refused.status, refused.text).toBe(status)
      expect(refused.body.error).toBe(error)
    }
    expect(await versionOf("scam-report", open)).toBe(1)
    const closed = await change("scam-report", second, { snoozedUntil: new Date(Date.now() + 60_000).toISOString(), version: 2 })
    expect(closed.status).toBe(409)
    expect(closed.body.error).toBe(triageMessages.notWaiting)
    await expectDeskTrue()
  })

  it("finds a report's related reports: the same wallet, or an address of its evidence, with their statuses", async () => {
    const wallet = `GRELATED${++serial}`
    const first = await report(wallet)
    const second = await report(wallet)
    const evidence = `https://fake-airdrop-${serial}.example/claim`
    const byEvidence = await made("/api/report-scam", { scamType: "phishing", description: "Same page", evidence: `Seen at ${evidence}.` })
    const alsoEvidence = await made("/api/report-scam", {
      scamType: "other",
      description: "Again",
      evidence: `${evidence.toUpperCase()} and more`,
      walletAddress: `${wallet}X`
    })
    const unrelated = await report()
    expect((await call(url(), "PATCH", `/api/report-scam/${second}`, { token: staff.moderator, body: { status: "resolved", version: 1 } })).status).toBe(200)
    const related = async (id: string) => {
      const answer = await call(url(), "GET", `/api/report-scam/${id}/related`, { token: staff.moderator })
      expect(answer.status, answer.text).toBe(200)
      return (answer.body.data as { reports: ReadonlyArray<{ _id: string; status: string }> }).reports
    }
    expect((await related(first)).map((one) => [one._id, one.status])).toEqual([[second, "resolved"]])
    expect((await related(byEvidence)).map((one) => one._id)).toEqual([alsoEvidence])
    expect(await related(unrelated)).toEqual([])
    expect((await call(url(), "GET", "/api/report-scam/00000000-0000-4000-8000-000000000000/related", { token: staff.moderator })).status).toBe(404)
  })

  it("takes exactly one change, and one of twenty racing on one version", async () => {
    const id = await inquiry()
    for (const body of [{ version: 1 }, { owner: null, snoozedUntil: null, version: 1 }, { owner: null, reason: "why", version: 1 }]) {
      const refused = await change("inquiry", id, body)
      expect(refused.status, refused.text).toBe(400)
      expect(refused.body.error).toBe(triageMessages.oneChange)
    }
    expect((await change("inquiry", "00000000-0000-4000-8000-000000000000", { owner: null, version: 1 })).status).toBe(404)
    const me = await myId(staff.admin)
    const answers = await Promise.all(Array.from({ length: 20 }, () => change("inquiry", id, { owner: me, version: 1 }, staff.admin)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(19)
    expect(await versionOf("inquiry", id)).toBe(2)
    await expectDeskTrue()
  })

  it("keeps its counts true under many changes at once across areas", async () => {
    const me = await myId(staff.moderator)
    const ids = await Promise.all([report(), report(), contact(), inquiry(), community(), report()])
    const areas = ["scam-report", "scam-report", "contact", "inquiry", "listing", "scam-report"]
    await Promise.all(
      ids.map((id, index) =>
        index % 3 === 0
          ? change(areas[index]!, id, { owner: me, version: 1 })
          : index % 3 === 1
            ? change(areas[index]!, id, { snoozedUntil: new Date(Date.now() + 3_600_000).toISOString(), version: 1 })
            : change(areas[index]!, id, { duplicateOf: ids[(index + 1) % ids.length]!, version: 1 })
      )
    )
    await expectDeskTrue()
    const rows = await staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ owner: string; n: number }>`SELECT coalesce(owner_id::text, '') AS owner, count(*)::int AS n FROM triage_items GROUP BY 1`
      )
    )
    const sleeping = await staff.server.sql(
      Effect.flatMap(SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM triage_items WHERE owner_id = ${me} AND snoozed_until > now()`)
    )
    const mine = (await desk("?owner=me")).areaCounts.reduce((sum, count) => sum + count.count, 0)
    expect(mine).toBe((rows.find((row) => row.owner === me)?.n ?? 0) - (sleeping[0]?.n ?? 0))
  })
})
