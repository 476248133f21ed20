import { describe, expect } from "vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import type { EventObject } from "xstate"
import { scamReportMachine } from "../../machines/scam-report.ts"
import { scamReportTable } from "../spec/machine-tables.ts"
import { call } from "../support/http.ts"
import { drivesEveryPath, type MachineModel, type MachineSnapshot, type ScreenDriver } from "../support/screen-model.ts"
import { product, token, nextNumber, firstHeld, pathPage, closeRun, type HeldCall, type PathRun, pathHarness } from "../support/machine-screens.ts"

pathHarness()

/**
 * The scam-report triage machine's generated paths, executed on the real screen in Chromium against the real
 * server (docs/testing.md, "Machines"), on the shared harness (tests/support/machine-screens.ts).
 */
describe("scam-report triage: generated paths on /scam-reports", () => {
  // Each SET names a report no earlier step named (the model's ids count up), as each key press
  // on screen takes the next untouched card: every SET is a change in both. While the details
  // are open the cards are behind the modal, so the paths set nothing then (the machine allows
  // it; tests/unit/scam-report-machine.test.ts takes those paths). A change is a command of the
  // console (docs/architecture.md, "The browser's store"): it shows at once, and its request goes
  // out behind the others; the model has no step for its answer, so the driver lets every change
  // through as it is made and checks the server has it.
  let serial = 0
  const model: MachineModel<typeof scamReportMachine> = {
    machine: scamReportMachine,
    actorIds: ["saveNotes"],
    key: (snapshot) => {
      const context = snapshot.context as { notesError: unknown }
      return JSON.stringify([snapshot.value, context.notesError !== null])
    },
    events: (snapshot) => {
      const open = (snapshot.value as { notes: string }).notes !== "closed"
      const ref = (id: string) => ({ _id: id, status: "new", priority: "normal", adminNotes: "", version: 1 })
      serial++
      return [
        ...(open
          ? []
          : [
              { type: "SET", change: { field: "status", value: "resolved", report: ref(`s${serial}`) } },
              { type: "SET", change: { field: "priority", value: "urgent", report: ref(`p${serial}`) } }
            ]),
        { type: "OPEN_NOTES", report: ref("notes") },
        { type: "SAVE_NOTES", notes: "Checked" },
        { type: "CLOSE" },
        { type: "xstate.done.actor.saveNotes", output: {} },
        { type: "xstate.error.actor.saveNotes", error: { status: 409, message: "stale" } }
      ] as ReadonlyArray<EventObject>
    }
  }

  interface Acted {
    readonly id: string
    readonly field: "status" | "priority"
  }

  interface Run extends PathRun {
    /** Saves of the notes, held until the step that decides their answer. */
    readonly heldNotes: Array<HeldCall>
    /** Reports no step has touched yet, newest first (the screen's order). */
    readonly untouched: Array<string>
    /** The changes made, in order. */
    readonly made: Array<Acted>
    notesOf: string | null
  }

  const titleOf = (id: string) => `Report #${id.slice(-8)}`
  const card = (run: Run, id: string) =>
    run.page
      .getByRole("list", { name: "Scam Reports Management", includeHidden: true })
      .getByRole("listitem", { includeHidden: true })
      .filter({ has: run.page.getByLabel(titleOf(id), { exact: true }) })
  const select = (run: Run, id: string, field: "status" | "priority") =>
    card(run, id).getByLabel(`${field === "status" ? "Status" : "Priority"} of ${titleOf(id)}`)
  const onServer = async (id: string) =>
    (
      (await call(product.server.url, "GET", `/api/report-scam/${id}`, { token })).body.data as {
        report: { status: string; priority: string; adminNotes: string; version: number }
      }
    ).report
  /** Someone else changes the report first: the notes' version is stale, so the server refuses. */
  const changeElsewhere = async (id: string) => {
    const report = await onServer(id)
    expect(
      (await call(product.server.url, "PATCH", `/api/report-scam/${id}`, { token, body: { notes: `Elsewhere ${report.version}`, version: report.version } }))
        .status
    ).toBe(200)
  }
  const take = (run: Run) => {
    const id = run.untouched.shift()
    if (id === undefined) throw new Error("the path used every seeded report")
    return id
  }
  const press = async (run: Run, id: string, key: string) => {
    await card(run, id).focus()
    await run.page.keyboard.press(key)
  }
  const shownValue = (field: "status" | "priority") => (field === "status" ? "resolved" : "urgent")

  const seeNotes: Record<string, (run: Run, event: EventObject | undefined) => Promise<void>> = {
    closed: async (run, event) => {
      await run.page.getByRole("dialog").waitFor({ state: "detached" })
      if (event?.type === "xstate.done.actor.saveNotes") {
        await expect.poll(async () => (await onServer(run.notesOf!)).adminNotes).toBe("Checked")
        run.notesOf = null
      }
      expect(run.heldNotes).toEqual([])
    },
    open: async (run, event) => {
      const dialog = run.page.getByRole("dialog")
      await dialog.getByText(titleOf(run.notesOf!)).first().waitFor()
      if (event?.type === "xstate.error.actor.saveNotes") await dialog.getByRole("alert").filter({ hasText: "Failed to add admin notes" }).waitFor()
      else expect(await dialog.getByRole("alert").count()).toBe(0)
    },
    saving: async (run) => {
      await run.page.getByRole("dialog").getByRole("button", { name: "Saving…" }).waitFor()
      const held = await firstHeld(run.heldNotes)
      run.heldNotes.unshift(held)
      expect(JSON.parse(held.request.postData() ?? "{}")).toMatchObject({ notes: "Checked" })
    }
  }

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await pathPage()
      const marker = `triage-model-${nextNumber()}`
      // Seeded in one statement (the public POST is tested elsewhere), newest first as the screen lists them.
      const rows = await product.server.sql(
        Effect.flatMap(
          SqlClient,
          (sql) => sql<{ id: string }>`
        INSERT INTO scam_reports (id, scam_type, description, created_at)
        SELECT gen_random_uuid(), 'other', ${marker} || ' ' || i, now() - make_interval(secs => i)
        FROM generate_series(1, 14) AS i RETURNING id::text AS id`
        )
      )
      const run: Run = { context, page, errors, heldNotes: [], untouched: rows.map((row) => row.id), made: [], notesOf: null }
      const ids = run.untouched.slice()
      await page.route("**/api/report-scam/*", (route, request) => {
        if (request.method() !== "PATCH") return route.continue()
        const notes = (JSON.parse(request.postData() ?? "{}") as { notes?: unknown }).notes !== undefined
        if (notes) run.heldNotes.push({ route, request })
        else void route.continue()
      })
      await page.goto(`${product.server.url}/scam-reports?search=${marker}`)
      await card(run, ids[0]!).waitFor()
      await page.locator(".sync-status").waitFor({ state: "attached" })
      return run
    },
    close: closeRun,
    act: {
      SET: async (run, event) => {
        const field = (event as unknown as { change: { field: "status" | "priority" } }).change.field
        const id = take(run)
        run.made.push({ id, field })
        await press(run, id, field === "status" ? "3" : "Shift+Digit4")
      },
      OPEN_NOTES: async (run) => {
        const id = take(run)
        run.notesOf = id
        await press(run, id, "n")
      },
      SAVE_NOTES: async (run) => {
        await run.page.getByLabel("Admin Notes").fill("Checked")
        await run.page.getByRole("dialog").getByRole("button", { name: "Save notes" }).click()
      },
      CLOSE: async (run) => {
        await run.page.getByRole("dialog").getByRole("button", { name: "Close" }).click()
        run.notesOf = null
      },
      "xstate.done.actor.saveNotes": async (run) => (await firstHeld(run.heldNotes)).route.continue(),
      "xstate.error.actor.saveNotes": async (run) => {
        const held = await firstHeld(run.heldNotes)
        await changeElsewhere(run.notesOf!)
        await held.route.continue()
      }
    },
    see: Object.fromEntries(
      Object.keys(seeNotes).map((notes) => [
        `changes.idle|notes.${notes}`,
        async (run: Run, _snapshot: MachineSnapshot, event: EventObject | undefined) => {
          // Every change made shows its value at once, and reaches the server, in order, once.
          if (event?.type === "SET") {
            const last = run.made.at(-1)!
            await expect.poll(() => select(run, last.id, last.field).inputValue()).toBe(shownValue(last.field))
            await expect.poll(async () => (await onServer(last.id))[last.field]).toBe(shownValue(last.field))
            expect((await onServer(last.id)).version).toBe(2)
          }
          await seeNotes[notes]!(run, event)
        }
      ])
    )
  }

  drivesEveryPath("scam-report triage", model, scamReportTable, driver)
})
