import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type * as Store from "../../src/lib/store/browser-store.ts"
import type * as ConsoleStore from "../../src/lib/store/console-store.ts"
import { launchChromium, newPage } from "../support/browser.ts"
import { serveStoreModule } from "../support/store-page.ts"

/**
 * The browser's store (src/lib/store/browser-store.ts; docs/architecture.md, "The browser's
 * store") in Chromium's own IndexedDB: the module is bundled as the console bundles it and served
 * from a localhost origin, and every step runs in the page.
 */

type StoreModule = typeof Store
declare global {
  interface Window {
    storeModule: StoreModule
  }
}

let browser: Browser
let served: Awaited<ReturnType<typeof serveStoreModule>>
let origin: string

beforeAll(async () => {
  served = await serveStoreModule("src/lib/store/browser-store.ts")
  origin = served.origin
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await served?.close()
})

const open = async (page: Page) => {
  await page.goto(origin)
  await page.waitForFunction(() => window.storeModule !== undefined)
}

const listing = (status: string, name = "Pi Club") => ({ name, status })

describe("the browser's store", () => {
  it("keeps records by kind and id with their versions, never an older copy over a newer one", async () => {
    const { page, context } = await newPage(browser)
    await open(page)
    const seen = await page.evaluate(
      async (rows) => {
        const store = await window.storeModule.openBrowserStore("admin-1", "t-keep")
        await store.keep("communities", [
          { id: "a", version: 3, fields: rows.pending },
          { id: "b", version: 1, fields: rows.approved }
        ])
        // A page that left the server before version 3 arrived.
        await store.keep("communities", [{ id: "a", version: 2, fields: rows.approved }])
        const [a, b, missing] = await store.records("communities", ["a", "b", "c"])
        const other = await store.record("influencers", "a")
        store.close()
        return { a: [a?.version, a?.fields], b: [b?.version, b?.fields], missing: missing ?? null, other: other ?? null }
      },
      { pending: listing("pending"), approved: listing("approved") }
    )
    expect(seen).toEqual({ a: [3, listing("pending")], b: [1, listing("approved")], missing: null, other: null })
    await context.close()
  })

  it("applies the next version, ignores an older one, asks for a re-read after a gap, and drops a deleted record", async () => {
    const { page, context } = await newPage(browser)
    await open(page)
    const outcomes = await page.evaluate(
      async (rows) => {
        const store = await window.storeModule.openBrowserStore("admin-1", "t-apply")
        await store.keep("communities", [{ id: "a", version: 1, fields: rows.pending }])
        const next = await store.apply({ kind: "communities", id: "a", version: 2, fields: rows.approved })
        const older = await store.apply({ kind: "communities", id: "a", version: 2, fields: rows.pending })
        const gap = await store.apply({ kind: "communities", id: "a", version: 5, fields: rows.pending })
        const held = await store.record("communities", "a")
        const created = await store.apply({ kind: "communities", id: "new", version: 1, fields: rows.pending })
        const deleted = await store.apply({ kind: "communities", id: "a", version: null, fields: null })
        const deletedUnknown = await store.apply({ kind: "communities", id: "never", version: null, fields: null })
        const gone = await store.record("communities", "a")
        store.close()
        return { next, older, gap, held: [held?.version, held?.fields], created, deleted, deletedUnknown, gone: gone ?? null }
      },
      { pending: listing("pending"), approved: listing("approved") }
    )
    expect(outcomes).toEqual({
      next: "applied",
      older: "ignored",
      gap: "reread",
      held: [2, listing("approved")],
      created: "applied",
      deleted: "applied",
      deletedUnknown: "ignored",
      gone: null
    })
    await context.close()
  })

  it("keeps commands in the order made, each with the records it changes, and an answer an undo may name", async () => {
    const { page, context } = await newPage(browser)
    await open(page)
    const steps = await page.evaluate(async () => {
      const store = await window.storeModule.openBrowserStore("admin-1", "t-outbox")
      const command = (commandId: string, recordIds: ReadonlyArray<string>) => ({
        commandId,
        kind: "listing",
        recordIds,
        method: "PUT" as const,
        path: `/api/admin/listings/${recordIds[0]}`,
        body: { action: "approve", version: 1 },
        effect: { status: "approved" },
        label: "Approved",
        failed: "Failed to update status"
      })
      await store.enqueue(command("c1", ["a"]))
      await store.enqueue(command("c2", ["a", "b"]))
      const made = (await store.outbox()).map((one) => [one.commandId, one.records])
      await store.settle("c1", { data: { eventId: "7" } })
      // A refused command leaves with no answer kept.
      await store.settle("c2")
      const left = (await store.outbox()).length
      const answers = [await store.answerOf("c1"), (await store.answerOf("c2")) ?? null]
      store.close()
      return { made, left, answers }
    })
    expect(steps).toEqual({
      made: [
        ["c1", ["listing\u0000a"]],
        ["c2", ["listing\u0000a", "listing\u0000b"]]
      ],
      left: 0,
      answers: [{ data: { eventId: "7" } }, null]
    })
    await context.close()
  })

  it("keeps the outbox in the order the commands were made across a reload, for the same person only", async () => {
    const { page, context } = await newPage(browser)
    await open(page)
    await page.evaluate(async () => {
      const store = await window.storeModule.openBrowserStore("admin-1", "t-reload")
      for (const id of ["x", "y", "z"])
        await store.enqueue({
          kind: "communities",
          recordIds: [id],
          commandId: `c-${id}`,
          method: "PUT",
          path: `/p/${id}`,
          body: {},
          effect: { status: "approved" },
          label: id,
          failed: "Failed"
        })
      await store.keep("communities", [{ id: "x", version: 1, fields: { name: "x" } }])
      await store.keepLastEventId("41")
      store.close()
    })
    await page.reload()
    await page.waitForFunction(() => window.storeModule !== undefined)
    const samePerson = await page.evaluate(async () => {
      const store = await window.storeModule.openBrowserStore("admin-1", "t-reload")
      const kept = { outbox: (await store.outbox()).map((one) => one.commandId), last: await store.lastEventId(), records: await store.count() }
      store.close()
      return kept
    })
    expect(samePerson).toEqual({ outbox: ["c-x", "c-y", "c-z"], last: "41", records: 1 })
    const otherPerson = await page.evaluate(async () => {
      const store = await window.storeModule.openBrowserStore("admin-2", "t-reload")
      const kept = { outbox: (await store.outbox()).length, last: (await store.lastEventId()) ?? null, records: await store.count() }
      store.close()
      await window.storeModule.deleteBrowserStore("t-reload")
      return kept
    })
    expect(otherPerson).toEqual({ outbox: 0, last: null, records: 0 })
    await context.close()
  })

  it("drops the least recently used records past its bound, never one a waiting command is about", async () => {
    const { page, context } = await newPage(browser)
    await open(page)
    const left = await page.evaluate(async () => {
      const store = await window.storeModule.openBrowserStore("admin-1", "t-evict")
      // r0 is the oldest, and a command waits on it; then r1, r2… each used later than the last.
      await store.keep("communities", [{ id: "r0", version: 1, fields: { name: "r0" } }])
      await store.enqueue({
        kind: "communities",
        recordIds: ["r0"],
        commandId: "c0",
        method: "PUT",
        path: "/p",
        body: {},
        effect: { status: "approved" },
        label: "r0",
        failed: "Failed"
      })
      for (let index = 1; index < 10; index++) {
        await new Promise((resolve) => setTimeout(resolve, 2))
        await store.keep("communities", [{ id: `r${index}`, version: 1, fields: { name: `r${index}` } }])
      }
      const dropped = await store.evict(6)
      const kept = (
        await store.records(
          "communities",
          Array.from({ length: 10 }, (_, index) => `r${index}`)
        )
      ).map((one) => one?.id ?? null)
      store.close()
      return { dropped, kept }
    })
    expect(left).toEqual({ dropped: 4, kept: ["r0", null, null, null, null, "r5", "r6", "r7", "r8", "r9"] })
    await context.close()
  })
})

/**
 * The console's store over it (src/lib/store/console-store.ts): its copies in memory are bounded
 * as IndexedDB's records are, and a copy a waiting command is about stays. Its way to the server
 * never answers here (the link is down): the command stays waiting.
 */
describe("the console's store in memory", () => {
  let consoleServed: Awaited<ReturnType<typeof serveStoreModule>>
  beforeAll(async () => {
    consoleServed = await serveStoreModule("src/lib/store/console-store.ts")
  })
  afterAll(async () => {
    await consoleServed?.close()
  })
  /** A page with the console's store module loaded, as the console bundles it. */
  const storePage = async () => {
    const opened = await newPage(browser)
    await opened.page.goto(consoleServed.origin)
    await opened.page.waitForFunction(() => (window as unknown as { storeModule?: unknown }).storeModule !== undefined)
    return opened
  }

  it("judges a list's news against the rows of its read in flight: one read again only when they lack the record", async () => {
    const { page, context } = await storePage()
    const rereads = await page.evaluate(async () => {
      const module = (window as unknown as { storeModule: typeof ConsoleStore }).storeModule
      const store = await module.openConsoleStore({
        owner: "admin-1",
        name: "t-watch",
        transport: { send: () => new Promise(() => undefined), listen: () => () => undefined, sessionEnded: () => undefined }
      })
      const list = store.lists("address", "Addresses", (row) => (row as { _id: string })._id)
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
      // A screen whose read is in flight for `readMs` when a record's creation is heard; the read brings it or not.
      const run = async (readMs: number, brings: boolean, entityId: string) => {
        let reading = true
        let shown: ReadonlyArray<string> = []
        let count = 0
        const stop = list.watch(() => void count++, { unseen: (news) => !shown.includes(news.id), reading: () => reading })
        store.applyChange({
          id: `e-${entityId}`,
          type: "address.created",
          kind: "address",
          changes: {},
          area: "address",
          entityId,
          version: 1,
          fields: { _id: entityId, version: 1 }
        })
        await pause(readMs)
        shown = brings ? [entityId] : []
        reading = false
        await pause(900)
        stop()
        return count
      }
      const result = { brought: await run(1_000, true, "a1"), lacked: await run(1_000, false, "a2"), quick: await run(0, false, "a3") }
      store.close()
      return result
    })
    // The read answered after the moment had passed (1 s against 0.4 s): judged by its rows, not before them.
    expect(rereads).toEqual({ brought: 0, lacked: 1, quick: 1 })
    await context.close()
  })

  it("reads a list again when the stream it resumed says its catch-up was cut, and not when it was whole", async () => {
    const { page, context } = await storePage()
    const rereads = await page.evaluate(async () => {
      const module = (window as unknown as { storeModule: typeof ConsoleStore }).storeModule
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
      const opened = async (name: string, complete: boolean) => {
        let live: ((position?: string, complete?: boolean) => void) | undefined
        const store = await module.openConsoleStore({
          owner: "admin-1",
          name,
          transport: {
            send: () => new Promise(() => undefined),
            listen: (_after, _change, ready) => {
              live = ready
              return () => undefined
            },
            sessionEnded: () => undefined
          }
        })
        await pause(50)
        return { store, ready: () => live?.("20", complete) }
      }
      // A first start hears the stream from a position, which the store keeps: the next start resumes there.
      const run = async (name: string, complete: boolean) => {
        const first = await opened(name, true)
        first.ready()
        await pause(100)
        first.store.close()
        const next = await opened(name, complete)
        let count = 0
        // The list's rows were read at the page's start, before the stream went live.
        const stop = next.store.lists("address", "Addresses", (row) => (row as { _id: string })._id).watch(() => void count++, { readSince: () => 1 })
        next.ready()
        await pause(900)
        stop()
        next.store.close()
        return count
      }
      return { whole: await run("t-whole", true), cut: await run("t-cut", false) }
    })
    expect(rereads).toEqual({ whole: 0, cut: 1 })
    await context.close()
  })

  it("says a form's refusal in the tab it was made in when another tab sent it after the form was left", async () => {
    const { page, context } = await storePage()
    const said = await page.evaluate(async () => {
      const module = (window as unknown as { storeModule: typeof ConsoleStore }).storeModule
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
      const transport = (
        answer: (request: { readonly path: string }) => Promise<{ status: number; body: unknown; message: string; retryAfterMs: number }>
      ) => ({
        send: answer,
        listen: () => () => undefined,
        sessionEnded: () => undefined
      })
      // Two tabs of one browser: the first sends (the server refuses the form's save, takes the rest), the second has no link.
      const sender = await module.openConsoleStore({
        owner: "admin-1",
        name: "t-left-form",
        transport: transport((request) =>
          Promise.resolve(
            request.path.includes("core-team-contact")
              ? { status: 409, body: { error: "Changed by someone else." }, message: "Changed by someone else.", retryAfterMs: 0 }
              : { status: 200, body: {}, message: "", retryAfterMs: 0 }
          )
        )
      })
      const maker = await module.openConsoleStore({ owner: "admin-1", name: "t-left-form", transport: transport(() => new Promise(() => undefined)) })
      maker.sync.send({ type: "LINK_DOWN" })
      const answered = maker.call({
        quiet: true,
        kind: "contact",
        recordIds: ["k1"],
        method: "PUT",
        path: "/api/core-team-contact/k1",
        body: { version: 1 },
        effect: null,
        label: "Saved a contact",
        failed: "Failed to save the contact"
      })
      // The form is left while its save waits; the other tab's next command sends the outbox, the form's first.
      maker.abandon()
      await pause(100)
      sender.command({
        kind: "listing",
        recordIds: ["l1"],
        method: "PATCH",
        path: "/api/admin/listings/l1",
        body: { status: "approved", version: 1 },
        effect: { status: "approved" },
        label: "Approved",
        failed: "Failed to approve"
      })
      const answer = await answered
      await pause(100)
      const result = {
        status: answer.status,
        inTheMaker: maker.sync.getSnapshot().context.refusals.map((refusal) => refusal.message),
        inTheSender: sender.sync.getSnapshot().context.refusals.length
      }
      sender.close()
      maker.close()
      return result
    })
    expect(said).toEqual({ status: 409, inTheMaker: ["Failed to save the contact: Changed by someone else."], inTheSender: 0 })
    await context.close()
  })

  it("sends from one tab the command another tab made and could not send, without waiting for a command of its own", async () => {
    const { page, context } = await storePage()
    const sent = await page.evaluate(async () => {
      const module = (window as unknown as { storeModule: typeof ConsoleStore }).storeModule
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
      const paths: Array<string> = []
      const sender = await module.openConsoleStore({
        owner: "admin-1",
        name: "t-other-tab",
        transport: {
          send: (request) => {
            paths.push(request.path)
            return Promise.resolve({ status: 200, body: {}, message: "", retryAfterMs: 0 })
          },
          listen: () => () => undefined,
          sessionEnded: () => undefined
        }
      })
      // A tab with no link makes a decision, then closes.
      const maker = await module.openConsoleStore({
        owner: "admin-1",
        name: "t-other-tab",
        transport: { send: () => new Promise(() => undefined), listen: () => () => undefined, sessionEnded: () => undefined }
      })
      maker.sync.send({ type: "LINK_DOWN" })
      maker.command({
        kind: "listing",
        recordIds: ["l1"],
        method: "PATCH",
        path: "/api/admin/listings/l1",
        body: { status: "approved", version: 1 },
        effect: { status: "approved" },
        label: "Approved",
        failed: "Failed to approve"
      })
      await pause(200)
      maker.close()
      await pause(300)
      const result = { paths, left: sender.outbox().length }
      sender.close()
      return result
    })
    expect(sent).toEqual({ paths: ["/api/admin/listings/l1"], left: 0 })
    await context.close()
  })

  it("names the version a command reaches the server at, past the waiting ones; a form's call keeps the version it opened at", async () => {
    const { page, context } = await storePage()
    const named = await page.evaluate(async () => {
      const module = (window as unknown as { storeModule: typeof ConsoleStore }).storeModule
      const store = await module.openConsoleStore({
        owner: "admin-1",
        name: "t-named-versions",
        // The server never answers here: every command stays in the outbox as the store named it.
        transport: { send: () => new Promise(() => undefined), listen: () => () => undefined, sessionEnded: () => undefined }
      })
      const status = (value: string, version: number) => ({
        kind: "contact",
        recordIds: ["c1"],
        method: "PUT" as const,
        path: "/api/core-team-contact/c1",
        body: { status: value, version },
        effect: { status: value },
        label: value,
        failed: "Failed to update contact"
      })
      // Three keys on the contact as shown at version 3, and a delete naming it in its path.
      const first = store.command(status("in_progress", 3))
      const second = store.command(status("responded", 3))
      store.command({ ...status("closed", 3), method: "DELETE", path: "/api/core-team-contact/c1?version=3", body: null })
      // A form opened at 3 keeps it (a colleague's change since is refused); a move made now is worked out.
      void store.call({ ...status("resolved", 3), quiet: true })
      void store.call({ ...status("resolved", 3), quiet: true, fromShown: true })
      // A bulk change of two records names no version of its own.
      store.command({ ...status("new", 3), recordIds: ["c1", "c2"], body: { ids: ["c1", "c2"] } })
      const result = {
        sent: store.outbox().map((command) => [command.path, (command.body as { version?: number } | null)?.version ?? null]),
        namedBySecond: store.namedVersion(second),
        namedByFirst: store.namedVersion(first)
      }
      store.close()
      return result
    })
    expect(named).toEqual({
      sent: [
        ["/api/core-team-contact/c1", 3],
        ["/api/core-team-contact/c1", 4],
        ["/api/core-team-contact/c1?version=5", null],
        ["/api/core-team-contact/c1", 3],
        // After the three keys (4, 5, 6); the form's call at 3 makes none: it would be refused.
        ["/api/core-team-contact/c1", 6],
        ["/api/core-team-contact/c1", null]
      ],
      namedBySecond: 4,
      namedByFirst: 3
    })
    await context.close()
  })

  it("names the version a form's save just made in the next command on the record, before the stream brings it", async () => {
    const { page, context } = await storePage()
    const sent = await page.evaluate(async () => {
      const module = (window as unknown as { storeModule: typeof ConsoleStore }).storeModule
      const paths: Array<[string, number | null]> = []
      const store = await module.openConsoleStore({
        owner: "admin-1",
        name: "t-form-answer",
        // A form's save is answered with the record at its new version, as an update's `data` or
        // under a name in it; the later commands with nothing. The stream never speaks.
        transport: {
          send: (request) => {
            paths.push([request.path, (request.body as { version?: number } | null)?.version ?? null])
            if (request.path === "/api/admin/users/a1")
              return Promise.resolve({ status: 200, body: { data: { _id: "a1", name: "Ama", version: 8 } }, message: "", retryAfterMs: 0 })
            if (request.path === "/api/core-team-contact/c1")
              return Promise.resolve({ status: 200, body: { data: { contact: { _id: "c1", status: "closed", version: 4 } } }, message: "", retryAfterMs: 0 })
            return Promise.resolve({ status: 200, body: { data: null }, message: "", retryAfterMs: 0 })
          },
          listen: () => () => undefined,
          sessionEnded: () => undefined
        }
      })
      const save = (kind: string, id: string, path: string, version: number) =>
        store.call({
          kind,
          recordIds: [id],
          method: "PUT",
          path,
          body: { name: "saved", version },
          effect: { name: "saved" },
          label: "Save",
          failed: "Failed",
          quiet: true
        })
      await save("admin", "a1", "/api/admin/users/a1", 7)
      await save("contact", "c1", "/api/core-team-contact/c1", 3)
      // The next keys, made from the rows as shown before the saves (7 and 3).
      store.command({
        kind: "admin",
        recordIds: ["a1"],
        method: "DELETE",
        path: "/api/admin/users/a1/disable?version=7",
        body: null,
        effect: { disabled: true },
        label: "Disable",
        failed: "Failed"
      })
      store.command({
        kind: "contact",
        recordIds: ["c1"],
        method: "PUT",
        path: "/api/core-team-contact/c1/status",
        body: { status: "new", version: 3 },
        effect: { status: "new" },
        label: "New",
        failed: "Failed"
      })
      await store.settled()
      store.close()
      return paths
    })
    expect(sent).toEqual([
      ["/api/admin/users/a1", 7],
      ["/api/core-team-contact/c1", 3],
      ["/api/admin/users/a1/disable?version=8", null],
      ["/api/core-team-contact/c1/status", 4]
    ])
    await context.close()
  })

  it("puts a refused record back, and says so to the screens, before the screen waiting for the answer hears it", async () => {
    const { page, context } = await storePage()
    const heard = await page.evaluate(async () => {
      const module = (window as unknown as { storeModule: typeof ConsoleStore }).storeModule
      const store = await module.openConsoleStore({
        owner: "admin-1",
        name: "t-refused-first",
        transport: {
          send: () => Promise.resolve({ status: 409, body: { error: "Changed by someone else." }, message: "Changed by someone else.", retryAfterMs: 0 }),
          listen: () => () => undefined,
          sessionEnded: () => undefined
        }
      })
      const before = store.version()
      const answer = await store.call({
        quiet: true,
        kind: "inquiry",
        recordIds: ["i1"],
        method: "PUT",
        path: "/api/advertising-inquiries/i1",
        body: { status: "contacted", adminNotes: "", version: 1 },
        effect: { status: "contacted" },
        label: "Contacted",
        failed: "Failed to update inquiry"
      })
      // What a screen renders the moment it hears the refusal.
      const result = {
        status: answer.status,
        shown: (store.view("inquiry", "i1", { _id: "i1", status: "pending" }) as { status: string } | null)?.status,
        waiting: store.waiting("inquiry", "i1"),
        told: store.version() > before + 1
      }
      store.close()
      return result
    })
    expect(heard).toEqual({ status: 409, shown: "pending", waiting: false, told: true })
    await context.close()
  })

  it("tells a form its save is kept once the command is in IndexedDB with the link down, never when the server answered first", async () => {
    const { page, context } = await storePage()
    const told = await page.evaluate(async () => {
      const module = (window as unknown as { storeModule: typeof ConsoleStore }).storeModule
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
      let answer: (() => void) | undefined
      const store = await module.openConsoleStore({
        owner: "admin-1",
        name: "t-kept",
        transport: {
          send: () => new Promise((resolve) => (answer = () => resolve({ status: 200, body: {}, message: "", retryAfterMs: 0 }))),
          listen: () => () => undefined,
          sessionEnded: () => undefined
        }
      })
      const save = (id: string, kept: () => void) =>
        store.call({
          quiet: true,
          kept,
          kind: "contact",
          recordIds: [id],
          method: "PUT",
          path: `/api/core-team-contact/${id}`,
          body: { version: 1 },
          effect: { status: "responded" },
          label: "Saved a contact",
          failed: "Failed to save the contact"
        })
      // Online, answered: never told it was kept, not even when the link goes afterwards.
      let onlineKept = 0
      const online = save("k1", () => void onlineKept++)
      await pause(100)
      answer?.()
      await online
      store.sync.send({ type: "LINK_DOWN" })
      await pause(50)
      // Offline: told once, with the command in IndexedDB, the effect on the record.
      let offlineKept = 0
      let inIndexedDb: Promise<number> = Promise.resolve(-1)
      // What IndexedDB holds when the form is told: a second connection reads the outbox there and then.
      const outboxInIndexedDb = () =>
        new Promise<number>((resolve) => {
          const opening = indexedDB.open("t-kept")
          opening.onsuccess = () => {
            const db = opening.result
            const all = db.transaction("outbox").objectStore("outbox").getAll()
            all.onsuccess = () => {
              db.close()
              resolve((all.result as ReadonlyArray<{ recordIds: ReadonlyArray<string> }>).filter((command) => command.recordIds.includes("k2")).length)
            }
          }
        })
      void save("k2", () => {
        offlineKept++
        inIndexedDb = outboxInIndexedDb()
      })
      await pause(300)
      const result = {
        onlineKept,
        offlineKept,
        inIndexedDb: await inIndexedDb,
        shown: (store.view("contact", "k2", { _id: "k2", status: "new" }) as { status: string } | null)?.status
      }
      store.close()
      return result
    })
    expect(told).toEqual({ onlineKept: 0, offlineKept: 1, inIndexedDb: 1, shown: "responded" })
    await context.close()
  })

  it("holds its copies within the bound, the least recently kept going first, never one a command waits on", async () => {
    const { page, context } = await storePage()
    const held = await page.evaluate(async () => {
      const module = (window as unknown as { storeModule: typeof ConsoleStore }).storeModule
      const store = await module.openConsoleStore({
        owner: "admin-1",
        name: "t-memory",
        maxCopies: 10,
        transport: { send: () => new Promise(() => undefined), listen: () => () => undefined, sessionEnded: () => undefined }
      })
      const rows = (from: number, count: number) =>
        Array.from({ length: count }, (_, index) => ({ id: `r${from + index}`, fields: { _id: `r${from + index}`, version: 1, status: "pending" } }))
      store.keepPage("communities", "first", rows(0, 5), null)
      store.command({
        kind: "communities",
        recordIds: ["r0"],
        method: "PUT",
        path: "/api/admin/listings/r0",
        body: {},
        effect: { status: "approved" },
        label: "r0",
        failed: "Failed"
      })
      // Kept again: r1 becomes the most recent of the first five.
      store.keepPage("communities", "again", rows(1, 1), null)
      store.keepPage("communities", "many", rows(5, 1_100), null)
      const names = ["r0", "r1", "r2", "r4", "r1001", "r1002", "r1104"]
      const result = Object.fromEntries(names.map((id) => [id, store.held("communities", id) !== undefined]))
      const shown = store.view("communities", "r0", { _id: "r0", version: 1, status: "pending" })
      store.close()
      return { result, shown: shown?.status }
    })
    // Past the bound of 10 and a batch of 1,000, the oldest went down to 10 (r0 waits on a command); then 94 more came.
    expect(held).toEqual({
      result: { r0: true, r1: false, r2: false, r4: false, r1001: false, r1002: true, r1104: true },
      shown: "approved"
    })
    await context.close()
  })
})
