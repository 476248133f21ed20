import { createActor, fromPromise } from "xstate"
import { describe, expect, it } from "vitest"
import type { GeneratedAddress } from "../../contract/addresses.ts"
import { addressModalErrors, addressModalMachine, type AddressModalEvent } from "../../machines/address-modal.ts"
import { addressModalTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const address: GeneratedAddress = {
  _id: "a1",
  identifier: "pi-1",
  Name: "Pi One",
  Rank: 0,
  createdAt: "2026-11-22T00:00:00.000Z",
  updatedAt: "2026-11-22T00:00:00.000Z",
  version: 1
}
const required = ["identifier", "Name"]
const draft = { identifier: "pi-1", Name: "Pi One" }
const stale = { status: 409, message: "This address was changed by someone else since you read it." }
const network = { status: undefined, message: "Failed to fetch" }
/** A colleague's change of the address, as the browser's store brings it. */
const renamed: GeneratedAddress = { ...address, Name: "Pi Renamed", version: 2 }
const renamedDraft = { identifier: "pi-1", Name: "Pi Renamed" }
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

const events = (): ReadonlyArray<AddressModalEvent | ReturnType<typeof actorDone> | ReturnType<typeof actorError>> => [
  { type: "OPEN_ADD", required },
  { type: "OPEN_VIEW", address, draft, required },
  { type: "OPEN_EDIT", address, draft, required },
  { type: "OPEN_DELETE", address, draft, required },
  { type: "REFRESH", address: renamed, draft: renamedDraft },
  { type: "EDIT" },
  { type: "SAVE", draft: { identifier: "pi-2", Name: "Pi Two" } },
  { type: "SAVE", draft: { identifier: "pi-2", Name: " " } },
  { type: "CONFIRM_DELETE" },
  { type: "CLOSE" },
  actorDone("save", address),
  actorError("save", stale),
  actorError("save", network),
  actorDone("remove", {}),
  actorError("remove", stale)
]

describe("address modal machine, model-based", () => {
  it("replays a generated path to every reachable state and covers every transition", async () => {
    let reloads = 0
    const run = await runModel({
      machine: addressModalMachine,
      table: addressModalTable,
      inputs: [undefined],
      events: () => events(),
      actorIds: ["save", "remove"],
      provide: { actions: { reloadList: () => void reloads++ } },
      check: (expected, actual) => {
        expect(actual.value).toEqual(expected.value)
        expect(actual.context).toEqual(expected.context)
      }
    })
    expectFullCoverage("address modal", run)
    expect(reloads).toBeGreaterThan(0)
  })

  it("follows a newer copy of the address it shows, never an older one or another address's, and edits from it", () => {
    const actor = createActor(addressModalMachine).start()
    actor.send({ type: "OPEN_VIEW", address, draft, required })
    actor.send({ type: "REFRESH", address: { ...renamed, _id: "a2" }, draft: renamedDraft })
    actor.send({ type: "REFRESH", address: { ...renamed, version: 1 }, draft: renamedDraft })
    expect(actor.getSnapshot().context).toMatchObject({ address, draft, refreshed: false })
    actor.send({ type: "REFRESH", address: renamed, draft: renamedDraft })
    expect(actor.getSnapshot().context).toMatchObject({ address: renamed, draft: renamedDraft, refreshed: true })
    actor.send({ type: "EDIT" })
    expect(actor.getSnapshot().context.draft).toEqual(renamedDraft)
    // A form keeps what was typed: a later copy is not taken while editing.
    actor.send({ type: "REFRESH", address: { ...renamed, version: 3, Name: "Later" }, draft: { identifier: "pi-1", Name: "Later" } })
    expect(actor.getSnapshot().context).toMatchObject({ address: renamed, draft: renamedDraft })
    actor.send({ type: "CLOSE" })
    actor.send({ type: "OPEN_VIEW", address, draft, required })
    expect(actor.getSnapshot().context.refreshed).toBe(false)
  })

  it("keeps Save disabled until identifier and name are filled, and words failures as the spec does", async () => {
    const outcomes: Array<unknown> = []
    const actor = createActor(
      addressModalMachine.provide({
        actors: {
          save: fromPromise(() => Promise.reject(outcomes.shift())),
          remove: fromPromise(() => Promise.reject(outcomes.shift()))
        }
      })
    ).start()
    actor.send({ type: "OPEN_ADD", required })
    actor.send({ type: "SAVE", draft: {} })
    expect(actor.getSnapshot().value).toBe("editing")
    actor.send({ type: "SAVE", draft: { identifier: "x", Name: "  " } })
    expect(actor.getSnapshot().value).toBe("editing")
    expect(actor.getSnapshot().context.draft).toEqual({ identifier: "x", Name: "  " })
    outcomes.push({ status: 409, message: "duplicate!" })
    actor.send({ type: "SAVE", draft: { identifier: "x", Name: "y" } })
    await settle()
    expect(actor.getSnapshot().context).toMatchObject({ error: "duplicate!", errorDetail: null, issues: [], draft: { identifier: "x", Name: "y" } })
    outcomes.push(network)
    actor.send({ type: "SAVE", draft: { identifier: "x", Name: "y" } })
    await settle()
    expect(actor.getSnapshot().context.error).toBe(addressModalErrors.create)
    // A 400 names its fields: the form shows them under each.
    const refused = {
      status: 400,
      message: "Invalid request body: Name: must be at most 200 characters",
      issues: [{ path: "Name", message: "must be at most 200 characters" }]
    }
    outcomes.push(refused)
    actor.send({ type: "SAVE", draft: { identifier: "x", Name: "y" } })
    await settle()
    expect(actor.getSnapshot().context.issues).toEqual(refused.issues)

    actor.send({ type: "CLOSE" })
    expect(actor.getSnapshot().context.issues).toEqual([])
    actor.send({ type: "OPEN_EDIT", address, draft, required })
    outcomes.push(stale)
    actor.send({ type: "SAVE", draft })
    await settle()
    expect(actor.getSnapshot().context).toMatchObject({ error: addressModalErrors.update, errorDetail: stale.message, issues: [] })

    actor.send({ type: "CLOSE" })
    actor.send({ type: "OPEN_DELETE", address, draft, required })
    outcomes.push(network)
    actor.send({ type: "CONFIRM_DELETE" })
    await settle()
    expect(actor.getSnapshot().value).toBe("confirmingDelete")
    expect(actor.getSnapshot().context.error).toBe(addressModalErrors.remove)
  })

  it("keeps the modal open with the spec's alert when the console gave it no save or delete call", async () => {
    const actor = createActor(addressModalMachine).start()
    actor.send({ type: "OPEN_EDIT", address, draft, required })
    actor.send({ type: "SAVE", draft })
    await settle()
    expect(actor.getSnapshot().value).toBe("editing")
    expect(actor.getSnapshot().context.error).toBe(addressModalErrors.update)
    actor.send({ type: "CLOSE" })
    actor.send({ type: "OPEN_DELETE", address, draft, required })
    actor.send({ type: "CONFIRM_DELETE" })
    await settle()
    expect(actor.getSnapshot().value).toBe("confirmingDelete")
    expect(actor.getSnapshot().context.error).toBe(addressModalErrors.remove)
  })
})
