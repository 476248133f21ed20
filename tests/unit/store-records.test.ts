import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { OutboxCommand } from "../../src/lib/store/browser-store.ts"
import { recordSet } from "../../src/lib/store/records.ts"

/**
 * The records of the console's store (src/lib/store/records.ts; docs/architecture.md, "The
 * browser's store"), alone: no IndexedDB, no server. The whole store over Chromium's IndexedDB is
 * tests/e2e/browser-store.test.ts.
 */

const command = (over: Partial<OutboxCommand> & Pick<OutboxCommand, "recordIds">): OutboxCommand => ({
  commandId: crypto.randomUUID(),
  kind: "contact",
  records: over.recordIds.map((id) => `contact\u0000${id}`),
  method: "PUT",
  path: `/api/core-team-contact/${over.recordIds[0] ?? ""}`,
  body: null,
  madeAt: 0,
  effect: {},
  label: "Change",
  failed: "Failed",
  ...over
})

describe("the store's records", () => {
  it("never keeps an older copy over a newer one, whatever order the copies come in", () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 30 }), (versions) => {
        const records = recordSet(100, () => [])
        for (const version of versions) records.keep("contact", "c1", { version, note: `v${version}` })
        const newest = Math.max(...versions)
        expect(records.held("contact", "c1")).toEqual({ version: newest, fields: { version: newest, note: `v${newest}` } })
      })
    )
  })

  it("keeps a deleted record gone from a page read before, and takes it back from a later change", () => {
    const records = recordSet(100, () => [])
    records.keep("contact", "c1", { version: 4 })
    records.forget("contact", "c1")
    expect(records.keep("contact", "c1", { version: 4 })).toBe(false)
    expect(records.view("contact", "c1", { version: 4 })).toBeNull()
    // A restore: the stream's change after the deletion.
    expect(records.keep("contact", "c1", { version: 5, status: "new" }, true)).toBe(true)
    expect(records.view("contact", "c1", { version: 4 })).toEqual({ version: 5, status: "new" })
  })

  it("shows the waiting commands' effects over the newer of the row and the copy, in the order made", () => {
    const waiting = [
      command({ recordIds: ["c1"], effect: { status: "in_progress" } }),
      command({ recordIds: ["c2"], effect: null }),
      command({ recordIds: ["c1"], effect: { status: "responded", note: "called" } })
    ]
    const records = recordSet(100, () => waiting)
    records.keep("contact", "c1", { version: 6, status: "new", name: "Ama" })
    expect(records.view("contact", "c1", { version: 5, status: "new", name: "Old" })).toEqual({ version: 6, status: "responded", name: "Ama", note: "called" })
    expect(records.view("contact", "c1", { version: 7, status: "closed", name: "New" })).toEqual({
      version: 7,
      status: "responded",
      name: "New",
      note: "called"
    })
    expect(records.view("contact", "c2", { version: 1 })).toBeNull()
  })

  it("names the version past the waiting commands: one each that names none, the next after one that names its own", () => {
    const waiting = [
      command({ recordIds: ["c1"], body: { version: 3 } }),
      command({ recordIds: ["c1"], path: "/api/core-team-contact/c1?version=4", body: null }),
      command({ recordIds: ["c1", "c2"], body: { ids: ["c1", "c2"] } }),
      command({ recordIds: ["c1"], effect: null, body: { version: 9 } })
    ]
    const records = recordSet(100, () => waiting)
    // 3 and 4 name theirs (5 next), the bulk one adds one; the deletion makes none.
    expect(records.nextVersion("contact", "c1", 3)).toBe(6)
    records.keep("contact", "c1", { version: 8 })
    expect(records.nextVersion("contact", "c1", 3)).toBe(9)
    expect(records.nextVersion("contact", "c2", 2)).toBe(3)
  })

  it("keeps what an answer carries: at its path, merged over the copy, or a form's record by its own id", () => {
    const records = recordSet(100, () => [])
    records.keep("contact", "c1", { _id: "c1", version: 3, name: "Ama", status: "new" })
    const bulk = command({ recordIds: ["c1", "c2"], answer: "data.contacts" })
    expect(records.keepAnswered(bulk, { data: { contacts: [{ _id: "c1", version: 4, status: "closed" }, { _id: "c2", version: 1 }, "stray"] } })).toEqual([
      { id: "c1", version: 4, fields: { _id: "c1", version: 4, name: "Ama", status: "closed" } },
      { id: "c2", version: 1, fields: { _id: "c2", version: 1 } }
    ])
    const form = command({ recordIds: ["c1"] })
    expect(records.keepAnswered(form, { data: { contact: { _id: "c1", version: 5 } } }).map((kept) => kept.version)).toEqual([5])
    expect(records.keepAnswered(form, { data: { _id: "c1", version: 6 } }).map((kept) => kept.version)).toEqual([6])
    // Another record's answer, or a bulk save's, is not the form's.
    expect(records.keepAnswered(form, { data: { _id: "c9", version: 7 } })).toEqual([])
    expect(records.keepAnswered(command({ recordIds: ["c1", "c2"] }), { data: { _id: "c1", version: 7 } })).toEqual([])
    expect(records.held("contact", "c1")?.version).toBe(6)
  })

  it("holds its copies within the bound and a batch, never dropping one a waiting command is about", () => {
    const waiting = [command({ recordIds: ["0"] })]
    const records = recordSet(10, () => waiting)
    for (let id = 0; id < 1_011; id++) records.keep("contact", String(id), { version: 1 })
    expect(records.held("contact", "0")).toBeDefined()
    expect(records.held("contact", "1")).toBeUndefined()
    expect(records.held("contact", "1010")).toBeDefined()
  })
})
