import { Effect, Exit, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { PublicVenture } from "../../contract/ventures.ts"
import { encodableAs } from "../../server/platform/encodable.ts"

const venture = {
  _id: "2b7d0d54-3f4c-4d4e-9e53-0c9d3f0e8a11",
  type: "business" as const,
  name: "Pi Café",
  description: "Coffee",
  createdAt: "2026-11-24T10:00:00.000Z"
}

describe("encodableAs, the check a write makes before it commits (docs/api.md)", () => {
  it("passes a record that encodes as its answer, and gives it back unchanged", () => {
    const record = { ...venture, details: { category: "Food", employees: 12 } }
    expect(Effect.runSync(encodableAs(PublicVenture)(record))).toBe(record)
  })

  it("dies on a value the answer's JSON cannot carry, as the HTTP answer would fail on it", () => {
    // An absent count read as `undefined` fits `Schema.Unknown` but is not JSON: the public list once answered 500 on it.
    const exit = Effect.runSyncExit(encodableAs(PublicVenture)({ ...venture, details: { employees: undefined } }))
    expect(Exit.isFailure(exit) && String(exit.cause)).toMatch(/JSON/)
  })

  it("dies on a record that fails its schema", () => {
    const exit = Effect.runSyncExit(encodableAs(Schema.Struct({ n: Schema.Int }))({ n: 1.5 }))
    expect(Exit.isFailure(exit)).toBe(true)
  })
})
