import { describe, expect, it } from "vitest"
import { engines } from "../support/database.ts"
import { fuzzServer } from "../support/fuzz.ts"
import { serverWithStaff } from "../support/session.ts"

/**
 * Every endpoint in the OpenAPI document, fuzzed (tests/support/fuzz.ts): no input answers 5xx,
 * and no refused write leaves anything behind. In `npm test` it is a check that every change
 * keeps the fuzz's promises on both engines; the search for new inputs is `npm run fuzz`, 10,000
 * a run per engine (docs/testing.md, "Where the time goes").
 */
const REQUESTS = 600
const seed = Number(process.env.FUZZ_SEED ?? 20_261_122)

describe.each(engines)("fuzzing the API on $name", (engine) => {
  const staff = serverWithStaff(engine)

  it(`answers ${REQUESTS} generated requests without a 5xx, and refused writes change nothing (seed ${seed})`, async () => {
    const totals = await fuzzServer(staff.server, REQUESTS, seed)
    console.log(`fuzz on ${engine.name}: ${totals.requests} requests, statuses ${JSON.stringify(totals.statuses)}`)
    expect(totals.requests).toBe(REQUESTS)
    const shown = (request: { method: string; path: string; role: string; raw: string | undefined }) =>
      `${request.role} ${request.method} ${request.path.slice(0, 200)} ${request.raw?.slice(0, 200) ?? ""}`
    expect(totals.serverErrors.map((failure) => `${shown(failure.request)} → ${failure.status} ${failure.text}`)).toEqual([])
    expect(totals.leakedWrites.map((leak) => `${shown(leak.request)} → ${leak.status} changed ${leak.changed.join(", ")}`)).toEqual([])
    // The generator must reach past validation, or the suite proves little.
    expect(
      Object.entries(totals.statuses)
        .filter(([status]) => status.startsWith("2"))
        .reduce((sum, [, n]) => sum + n, 0)
    ).toBeGreaterThan(REQUESTS / 20)
  }, 600_000)
})
