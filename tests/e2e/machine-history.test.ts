import type { Request } from "playwright-core"
import { describe, expect } from "vitest"
import type { EventObject } from "xstate"
import type { CoreTeamContact } from "../../contract/contacts.ts"
import type { HistoryEntry } from "../../contract/history.ts"
import { type HistoryContext, historyMachine, type HistoryPageLoaded, historyTexts, type VersionContent } from "../../machines/history.ts"
import { historyTable } from "../spec/machine-tables.ts"
import { call } from "../support/http.ts"
import { drivesEveryPath, type MachineModel, type ScreenDriver } from "../support/screen-model.ts"
import { closeRun, type HeldCall, nextNumber, pathPage, type PathRun, product, quiet, token, pathHarness, serverFails } from "../support/machine-screens.ts"

pathHarness()

/**
 * The record-history machine's generated paths, executed on the real history dialog in Chromium
 * against the real server (docs/testing.md, "Machines"), opened with `h` on a core-team contact's
 * row. Every call the dialog makes is held, so each path decides its answers: let through, or cut
 * off (a restore cut off changes nothing on the server).
 */
describe("record history: generated paths on /core-team", () => {
  /** The record's newest version as the machine knows it: three on arrival, one more per restore. */
  const newestOf = (context: HistoryContext) => Math.max(context.page?.current.version ?? 3, context.restored?.as ?? 0)
  const entry = (version: number): HistoryEntry => ({
    eventId: String(version),
    version,
    at: "2026-11-25T00:00:00.000Z",
    actorEmail: "admin@example.com",
    actorName: null,
    action: version === 1 ? "contact.create" : "contact.update",
    removed: false,
    changes: []
  })
  const pageOf = (newest: number): HistoryPageLoaded => ({
    entries: Array.from({ length: newest }, (_, at) => entry(newest - at)),
    current: { version: newest, removed: false }
  })
  const content = (version: number): VersionContent => ({ version, removed: false, content: {}, hidden: [] })
  const cutOff = { status: undefined, message: "offline" }

  const model: MachineModel<typeof historyMachine> = {
    machine: historyMachine,
    actorIds: ["loadHistory", "compare", "prepare", "restore"],
    key: (snapshot) => {
      const context = snapshot.context as HistoryContext
      const newest = newestOf(context)
      const selected = context.selected === null ? null : context.selected === newest ? "newest" : context.selected === 1 ? "oldest" : "between"
      // What the guards read (which version is selected) and what the dialog shows (a comparison, a failure, a restore done).
      return JSON.stringify([snapshot.value, selected, context.pair !== null, context.error !== null, context.restored !== null])
    },
    events: (snapshot) => {
      const context = snapshot.context as HistoryContext
      const newest = newestOf(context)
      return [
        { type: "OPEN", record: { kind: "contact", id: "model", label: "model" } },
        { type: "CLOSE" },
        { type: "SELECT", version: 1 },
        { type: "SELECT", version: newest },
        { type: "COMPARE", with: 2 },
        { type: "COMPARE", with: newest },
        { type: "RESTORE" },
        { type: "CONFIRM" },
        { type: "CANCEL" },
        { type: "RETRY" },
        { type: "xstate.done.actor.loadHistory", output: pageOf(newest) },
        { type: "xstate.error.actor.loadHistory", error: cutOff },
        { type: "xstate.done.actor.compare", output: [content(1), content(2)] },
        { type: "xstate.error.actor.compare", error: cutOff },
        { type: "xstate.done.actor.prepare", output: [content(1), content(newest)] },
        { type: "xstate.error.actor.prepare", error: cutOff },
        { type: "xstate.done.actor.restore", output: { version: newest + 1 } },
        { type: "xstate.error.actor.restore", error: cutOff }
      ] as ReadonlyArray<EventObject>
    }
  }

  type Call = "load" | "version" | "restore"
  interface Held extends HeldCall {
    readonly kind: Call
  }
  interface Run extends PathRun {
    readonly id: string
    readonly subject: string
    readonly held: Array<Held>
  }

  const notes = ["", "Called on Monday", "Called on Tuesday about the grant"]
  const read = async (id: string) =>
    ((await call(product.server.url, "GET", `/api/core-team-contact/${id}`, { token })).body.data as { contact: CoreTeamContact }).contact
  const dialog = (run: Run) => run.page.getByRole("dialog")
  const versions = (run: Run) => dialog(run).getByRole("listbox", { name: "Versions, newest first" }).getByRole("option")
  const callOf = (request: Request): Call =>
    request.method() === "POST" ? "restore" : /\/versions\/\d+$/.test(new URL(request.url()).pathname) ? "version" : "load"
  /** Waits until `count` calls of a kind are held, and takes them off the list. */
  const take = async (run: Run, kind: Call, count = 1): Promise<ReadonlyArray<Held>> => {
    await expect.poll(() => run.held.filter((held) => held.kind === kind).length, { timeout: 10_000 }).toBe(count)
    const taken = run.held.filter((held) => held.kind === kind)
    run.held.splice(0, run.held.length, ...run.held.filter((held) => held.kind !== kind))
    return taken
  }
  const through = async (run: Run, kind: Call, count = 1) => {
    for (const held of await take(run, kind, count)) await held.route.continue()
  }
  const cut = async (run: Run, kind: Call, count = 1) => {
    for (const held of await take(run, kind, count)) await held.route.abort("connectionreset")
  }
  /** The notes a version had, as the API rebuilds it. */
  const notesAt = async (run: Run, version: number) =>
    (
      (await call(product.server.url, "GET", `/api/admin/history/contact/${run.id}/versions/${version}`, { token })).body.data as {
        content: { internalNotes?: string }
      }
    ).content.internalNotes ?? ""
  /**
   * The failure the dialog shows: the model's message for a call cut off is its own, the
   * browser's is "Failed to fetch" or the like, so what is compared is the dialog's words before it.
   */
  const seeFailure = async (run: Run, error: string) => {
    const alert = dialog(run).getByRole("alert")
    await alert.waitFor()
    const lead = [historyTexts.failed, historyTexts.restoreFailed].find((words) => error.startsWith(`${words}: `))
    // The last step's alert may still be there for a moment: the words are awaited, not read once.
    const shown = async () => (await alert.textContent()) ?? ""
    if (lead === undefined) await expect.poll(async () => (await shown()).length).toBeGreaterThan(0)
    else await expect.poll(async () => (await shown()).startsWith(`${lead}: `)).toBe(true)
  }
  const holding = async (run: Run, kind: Call, count = 1) => {
    await expect.poll(() => run.held.filter((held) => held.kind === kind).length, { timeout: 10_000 }).toBe(count)
    return run.held.filter((held) => held.kind === kind)
  }

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await pathPage()
      const subject = `history-model-${nextNumber()}`
      const made = await call(product.server.url, "POST", "/api/core-team-contact", {
        token,
        body: { contactInfo: { name: "Grace", role: "Founder" }, inquiry: { subject, details: "Details" } }
      })
      const id = (made.body.data as { _id: string })._id
      // Versions 2 and 3: two notes.
      for (const version of [1, 2]) {
        const contact = await read(id)
        const saved = await call(product.server.url, "PUT", `/api/core-team-contact/${id}`, {
          token,
          body: { contactInfo: contact.contactInfo, inquiry: contact.inquiry, status: contact.status, internalNotes: notes[version], version }
        })
        expect(saved.status, saved.text).toBe(200)
      }
      const run: Run = { context, page, errors, id, subject, held: [] }
      await page.route(`**/api/admin/history/contact/${id}**`, (route, request) => void run.held.push({ kind: callOf(request), route, request }))
      await page.goto(`${product.server.url}/core-team?search=${subject}`)
      await page.locator("[data-current=true]").filter({ hasText: subject }).waitFor()
      return run
    },
    close: closeRun,
    act: {
      OPEN: async (run) => {
        await run.page.locator("[data-current=true]").focus()
        await run.page.keyboard.press("h")
      },
      CLOSE: async (run) => {
        await run.page.keyboard.press("Escape")
      },
      SELECT: async (run, event) => {
        await dialog(run)
          .locator(`#history-version-${(event as unknown as { version: number }).version}`)
          .click()
      },
      COMPARE: async (run, event) => {
        await dialog(run).getByRole("combobox", { name: "Compare with" }).click()
        await run.page.getByRole("option", { name: `Version ${(event as unknown as { with: number }).with}`, exact: true }).click()
      },
      RESTORE: async (run) =>
        dialog(run)
          .getByRole("button", { name: /^Restore this version/ })
          .click(),
      CONFIRM: async (run) => dialog(run).getByRole("button", { name: "Restore", exact: true }).click(),
      CANCEL: async (run) => dialog(run).getByRole("button", { name: "Cancel" }).click(),
      RETRY: async (run) => dialog(run).getByRole("button", { name: "Try again" }).click(),
      "xstate.done.actor.loadHistory": (run) => through(run, "load"),
      "xstate.error.actor.loadHistory": (run) => cut(run, "load"),
      "xstate.done.actor.compare": (run) => through(run, "version", 2),
      "xstate.error.actor.compare": (run) => cut(run, "version", 2),
      "xstate.done.actor.prepare": (run) => through(run, "version", 2),
      "xstate.error.actor.prepare": (run) => cut(run, "version", 2),
      "xstate.done.actor.restore": (run) => through(run, "restore"),
      "xstate.error.actor.restore": async (run) => {
        for (const held of await take(run, "restore")) await serverFails(held.route)
      }
    },
    see: {
      closed: async (run) => {
        await dialog(run).waitFor({ state: "detached" })
        await quiet(run.page)
        // Closing drops what was on its way; nothing of the dialog is left asking.
        for (const held of run.held.splice(0)) await held.route.abort("connectionreset")
      },
      loading: async (run) => {
        await dialog(run).getByRole("status").getByText("Loading history...").waitFor()
        await holding(run, "load")
      },
      failed: async (run, snapshot) => {
        const context = snapshot.context as HistoryContext
        await seeFailure(run, context.error!)
        await dialog(run).getByRole("button", { name: "Try again" }).waitFor()
      },
      ready: async (run, snapshot) => {
        const context = snapshot.context as HistoryContext
        const newest = newestOf(context)
        await expect.poll(() => versions(run).count()).toBe(newest)
        expect(await dialog(run).locator(`#history-version-${context.selected}`).getAttribute("aria-selected")).toBe("true")
        if (context.error === null) expect(await dialog(run).getByRole("alert").count()).toBe(0)
        else await seeFailure(run, context.error)
        if (context.restored !== null && context.error === null) {
          await dialog(run).getByText(`Version ${context.restored.from} is restored as version ${context.restored.as}.`).waitFor()
          // The server holds the version brought back, as a new one.
          const now = await read(run.id)
          expect([now.version, now.internalNotes ?? ""]).toEqual([newest, await notesAt(run, context.restored.from)])
        } else expect((await read(run.id)).version).toBe(newest)
        const compared = dialog(run).locator(".history-comparison")
        if (context.pair === null) expect(await compared.count()).toBe(0)
        else {
          // Older first, the selected version one of the two (the model's pair is its own).
          const caption = (await compared.getByRole("table").locator("caption").textContent()) ?? ""
          const [older, newer] = (/^From version (\d+) to version (\d+)$/.exec(caption) ?? []).slice(1).map(Number)
          expect(older! < newer! && [older, newer].includes(context.selected!), caption).toBe(true)
        }
        // Restoring is offered for any version but the newest.
        expect(
          await dialog(run)
            .getByRole("button", { name: /^Restore this version/ })
            .isEnabled()
        ).toBe(context.selected !== newest)
      },
      comparing: async (run) => {
        await dialog(run).getByRole("status").getByText("Loading both versions...").waitFor()
        await holding(run, "version", 2)
      },
      preparing: async (run, snapshot) => {
        const context = snapshot.context as HistoryContext
        const asked = await holding(run, "version", 2)
        // The version to bring back and the record now: what the confirmation compares.
        expect(asked.map((held) => Number(/(\d+)$/.exec(new URL(held.request.url()).pathname)?.[1])).sort()).toEqual(
          [context.selected!, newestOf(context)].sort()
        )
        expect(
          await dialog(run)
            .getByRole("button", { name: /^Restore this version/ })
            .isDisabled()
        ).toBe(true)
      },
      confirming: async (run, snapshot) => {
        const context = snapshot.context as HistoryContext
        const group = dialog(run).getByRole("group", { name: `Restore version ${context.selected}?` })
        await group.waitFor()
        // What the restore will change: the notes, when the version's differ from the record's now.
        const now = await read(run.id)
        expect(now.version).toBe(newestOf(context))
        if ((await notesAt(run, context.selected!)) === (now.internalNotes ?? "")) await group.getByText("No field changed.").waitFor()
        else await group.getByRole("table", { name: "What the restore will change" }).getByRole("rowheader", { name: "Internal notes" }).waitFor()
      },
      restoring: async (run, snapshot) => {
        const context = snapshot.context as HistoryContext
        await dialog(run).getByRole("button", { name: "Restoring..." }).waitFor()
        const [held] = await holding(run, "restore")
        expect(JSON.parse(held!.request.postData() ?? "{}")).toEqual({ version: context.selected, expectedVersion: newestOf(context) })
      }
    }
  }

  drivesEveryPath("history", model, historyTable, driver)
})
