import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect } from "vitest"
import type { EventObject } from "xstate"
import { triageDeskMachine } from "../../machines/triage-desk.ts"
import { triageDeskTable } from "../spec/machine-tables.ts"
import { call } from "../support/http.ts"
import { closeRun, nextNumber, type PathRun, pathHarness, pathPage, product, token } from "../support/machine-screens.ts"
import { drivesEveryPath, type MachineModel, type MachineSnapshot, type ScreenDriver } from "../support/screen-model.ts"

pathHarness()

/**
 * The triage desk machine's generated paths, executed on /triage in Chromium against the real
 * server (docs/testing.md, "Machines"): each DECIDE or ASK takes an item no earlier step touched,
 * by focusing its card and pressing its key; each answer is checked on the screen and on the
 * server. A reason may be left empty; a snooze's time may not (its field left empty changes
 * nothing); an owner and a duplicate always have a choice selected, so they are never answered empty.
 */
describe("triage desk: generated paths on /triage", () => {
  const model: MachineModel<typeof triageDeskMachine> = {
    machine: triageDeskMachine,
    actorIds: [],
    key: (snapshot) => JSON.stringify([snapshot.value, (snapshot.context as { question: unknown }).question]),
    events: (snapshot) => {
      const question = (snapshot.context as { question: string | null }).question
      const item = { _id: "x", area: "scam-report", version: 1 }
      if (question === null)
        return [
          { type: "DECIDE", item, decision: { id: "scam-report:status:resolved", asksReason: false } },
          { type: "DECIDE", item: { ...item, area: "listing" }, decision: { id: "listing:reject", asksReason: true } },
          { type: "ASSIGN_ME", item },
          { type: "ASK", item, question: "snooze" },
          { type: "ASK", item: { ...item, area: "listing" }, question: "owner" },
          { type: "ASK", item, question: "duplicate" }
        ] as unknown as ReadonlyArray<EventObject>
      return [
        ...(question === "reason" || question === "snooze" ? [{ type: "ANSWER", value: "" }] : []),
        { type: "ANSWER", value: "answered" },
        { type: "CANCEL" }
      ] as ReadonlyArray<EventObject>
    }
  }

  interface Run extends PathRun {
    readonly marker: string
    readonly reports: Array<string>
    readonly listings: Array<string>
    /** The item the last step acted on, its area, and what that step was. */
    last: { readonly id: string; readonly area: "scam-report" | "listing"; readonly step: string } | null
  }

  const desk = (run: Run) => run.page.getByRole("list", { name: "Triage", includeHidden: true })
  const card = (run: Run, title: string) =>
    desk(run)
      .getByRole("listitem", { includeHidden: true })
      .filter({ has: run.page.locator(`.triage-card[aria-label="${title}"]`) })
  const titleOf = (run: Run, area: "scam-report" | "listing", id: string) =>
    area === "listing" ? `${run.marker} listing ${id.slice(0, 8)}` : `G${run.marker.replace(/\W/g, "")}${id.slice(0, 8).toUpperCase()}`
  const take = (run: Run, area: "scam-report" | "listing") => {
    const id = (area === "listing" ? run.listings : run.reports).shift()
    if (id === undefined) throw new Error(`the path used every seeded ${area}`)
    return id
  }
  const press = async (run: Run, area: "scam-report" | "listing", step: string, key: string) => {
    const id = take(run, area)
    run.last = { id, area, step }
    await card(run, titleOf(run, area, id)).focus()
    await run.page.keyboard.press(key)
  }
  /** The record as the database has it now, in the API's names. */
  const record = async (area: "scam-report" | "listing", id: string) => {
    const rows = await product.server.sql(
      Effect.flatMap(SqlClient, (sql) =>
        area === "listing"
          ? sql<Record<string, unknown>>`SELECT status, version, owner_id::text AS "ownerId", snoozed_until AS "snoozedUntil",
              duplicate_of::text AS "duplicateOf", moderation_notes AS "moderationNotes" FROM listings WHERE id = ${id}`
          : sql<Record<string, unknown>>`SELECT status, version, owner_id::text AS "ownerId", snoozed_until AS "snoozedUntil",
              duplicate_of::text AS "duplicateOf", admin_notes AS "adminNotes" FROM scam_reports WHERE id = ${id}`
      )
    )
    return rows[0] ?? {}
  }
  const me = async () => ((await call(product.server.url, "GET", "/api/admin/auth/check", { token })).body as { user: { _id: string } }).user._id

  /** What the server and the card show after the step that left the question, by the step. */
  const outcome = async (run: Run, event: EventObject | undefined) => {
    const last = run.last
    if (last === null || event === undefined) return
    const title = titleOf(run, last.area, last.id)
    const answered = event.type === "ANSWER" && (event as unknown as { value: string }).value !== ""
    // A decision takes the item off the desk at once, and the next is current.
    if (event.type === "DECIDE" && last.step === "resolve") {
      await card(run, title).waitFor({ state: "detached" })
      await expect.poll(async () => (await record(last.area, last.id)).status).toBe("resolved")
    } else if (event.type === "ASSIGN_ME") await expect.poll(async () => (await record(last.area, last.id)).ownerId).toBe(await me())
    else if (event.type === "ANSWER" && last.step === "reject") {
      await card(run, title).waitFor({ state: "detached" })
      await expect.poll(async () => (await record(last.area, last.id)).status).toBe("rejected")
      expect((await record(last.area, last.id)).moderationNotes).toBe(answered ? "answered" : "")
    } else if (answered && last.step === "snooze") await expect.poll(async () => (await record(last.area, last.id)).snoozedUntil).not.toBe(null)
    else if (answered && last.step === "owner") await expect.poll(async () => (await record(last.area, last.id)).ownerId).not.toBe(null)
    else if (answered && last.step === "duplicate") await expect.poll(async () => (await record(last.area, last.id)).duplicateOf).not.toBe(null)
    else if (event.type === "CANCEL") {
      const now = await record(last.area, last.id)
      expect([now.version, now.ownerId, now.snoozedUntil, now.duplicateOf]).toEqual([1, null, null, null])
    }
  }

  const titles = { reason: "a reason?", snooze: "Snooze until", owner: "Assign to", duplicate: "Duplicate of" } as const

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await pathPage()
      const number = nextNumber()
      const marker = `desk-model-${number}`
      const wallet = `G${marker.replace(/\W/g, "")}`
      // Seeded in one statement each (the public forms are tested elsewhere), dated ahead so that, newest first, this
      // path's items are the desk's first page whatever earlier paths left.
      const reports = await product.server.sql(
        Effect.flatMap(
          SqlClient,
          (sql) => sql<{ id: string }>`
        WITH made AS (SELECT gen_random_uuid() AS id, i FROM generate_series(1, 10) AS i)
        INSERT INTO scam_reports (id, scam_type, description, wallet_address, created_at)
        SELECT id, 'other', ${marker}, ${wallet} || upper(substr(id::text, 1, 8)), now() + make_interval(mins => ${number} * 100 + 20 - i) FROM made RETURNING id::text AS id`
        )
      )
      const listings = await product.server.sql(
        Effect.flatMap(
          SqlClient,
          (sql) => sql<{ id: string }>`
        WITH made AS (SELECT gen_random_uuid() AS id, i FROM generate_series(1, 6) AS i)
        INSERT INTO listings (id, type, name, description, created_at)
        SELECT id, 'community', ${marker} || ' listing ' || substr(id::text, 1, 8), 'Waiting', now() + make_interval(mins => ${number} * 100 + 50 - i) FROM made RETURNING id::text AS id`
        )
      )
      const run: Run = { context, page, errors, marker, reports: reports.map((row) => row.id), listings: listings.map((row) => row.id), last: null }
      await page.goto(`${product.server.url}/triage?order=newest`)
      await card(run, titleOf(run, "scam-report", run.reports[0]!)).waitFor()
      await page.locator(".sync-status").waitFor({ state: "attached" })
      return run
    },
    close: closeRun,
    act: {
      DECIDE: async (run, event) => {
        const reject = (event as unknown as { decision: { asksReason: boolean } }).decision.asksReason
        await (reject ? press(run, "listing", "reject", "r") : press(run, "scam-report", "resolve", "3"))
      },
      ASSIGN_ME: (run) => press(run, "scam-report", "assign", "i"),
      ASK: async (run, event) => {
        const question = (event as unknown as { question: "snooze" | "owner" | "duplicate" }).question
        if (question === "owner") await press(run, "listing", "owner", "Shift+I")
        else await press(run, "scam-report", question, question === "snooze" ? "s" : "m")
      },
      ANSWER: async (run, event) => {
        const value = (event as unknown as { value: string }).value
        const dialog = run.page.getByRole("dialog")
        if (run.last?.step === "reject") {
          if (value !== "") await dialog.getByLabel("Reason (optional, kept in the notes)").fill(value)
          await dialog.getByLabel("Reason (optional, kept in the notes)").press("Enter")
        } else if (run.last?.step === "snooze") {
          // "answered": the first quick choice (an hour on); empty: the time field left empty, Enter.
          if (value === "") await dialog.getByLabel("Back on the desk at").press("Enter")
          else await run.page.keyboard.press("1")
        } else if (run.last?.step === "duplicate") {
          // Nothing is chosen until the person chooses: ArrowDown from the search, onto the likeliest.
          await run.page.keyboard.press("ArrowDown")
          await run.page.keyboard.press("Enter")
        } else await run.page.keyboard.press("Enter")
      },
      CANCEL: (run) => run.page.keyboard.press("Escape")
    },
    see: {
      browsing: async (run: Run, _snapshot: MachineSnapshot, event: EventObject | undefined) => {
        await run.page.getByRole("dialog").waitFor({ state: "detached" })
        await outcome(run, event)
      },
      asking: async (run: Run, snapshot: MachineSnapshot) => {
        const question = (snapshot.context as { question: keyof typeof titles }).question
        await run.page.getByRole("dialog").getByRole("heading").filter({ hasText: titles[question] }).waitFor()
        // Nothing was changed by asking (nor by an answer the question cannot take).
        const last = run.last!
        expect((await record(last.area, last.id)).version).toBe(1)
      }
    }
  }

  drivesEveryPath("triage desk", model, triageDeskTable, driver)
})
