import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { engines } from "../support/database.ts"
import { serverWithStaff } from "../support/session.ts"

// The listing counts per (type, status) are kept by statement triggers (server/platform/migrations.ts,
// "0005_listings"); every kind of change must leave them equal to a count of the rows.

const types = ["community", "influencer", "business", "startup", "project", "event", "hackathon"] as const
const statuses = ["pending", "approved", "rejected"] as const

type Change =
  | { readonly op: "insert"; readonly rows: ReadonlyArray<readonly [(typeof types)[number], (typeof statuses)[number]]> }
  | { readonly op: "status"; readonly from: (typeof statuses)[number]; readonly to: (typeof statuses)[number]; readonly limit: number }
  | { readonly op: "retype"; readonly from: (typeof types)[number]; readonly to: (typeof types)[number]; readonly limit: number }
  | { readonly op: "notes"; readonly limit: number }
  | { readonly op: "delete"; readonly status: (typeof statuses)[number]; readonly limit: number }

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ op: fc.constant("insert" as const), rows: fc.array(fc.tuple(fc.constantFrom(...types), fc.constantFrom(...statuses)), { maxLength: 30 }) }),
  fc.record({ op: fc.constant("status" as const), from: fc.constantFrom(...statuses), to: fc.constantFrom(...statuses), limit: fc.nat(20) }),
  fc.record({ op: fc.constant("retype" as const), from: fc.constantFrom(...types), to: fc.constantFrom(...types), limit: fc.nat(20) }),
  fc.record({ op: fc.constant("notes" as const), limit: fc.nat(20) }),
  fc.record({ op: fc.constant("delete" as const), status: fc.constantFrom(...statuses), limit: fc.nat(20) })
)

const apply = (item: Change): Effect.Effect<unknown, unknown, SqlClient> =>
  Effect.flatMap(SqlClient, (sql): Effect.Effect<unknown, unknown> => {
    switch (item.op) {
      case "insert": {
        const [first, ...rest] = item.rows.map(([type, status]): Record<string, unknown> => ({
          id: crypto.randomUUID(),
          type,
          status,
          name: "Listing",
          description: "About it"
        }))
        return first === undefined ? Effect.void : sql`INSERT INTO listings ${sql.insert([first, ...rest])}`
      }
      case "status":
        return sql`UPDATE listings SET status = ${item.to}, version = version + 1
        WHERE id IN (SELECT id FROM listings WHERE status = ${item.from} ORDER BY random() LIMIT ${item.limit})`
      case "retype":
        return sql`UPDATE listings SET type = ${item.to}
        WHERE id IN (SELECT id FROM listings WHERE type = ${item.from} ORDER BY random() LIMIT ${item.limit})`
      case "notes":
        return sql`UPDATE listings SET moderation_notes = 'seen'
        WHERE id IN (SELECT id FROM listings ORDER BY random() LIMIT ${item.limit})`
      case "delete":
        return sql`DELETE FROM listings WHERE id IN (SELECT id FROM listings WHERE status = ${item.status} ORDER BY random() LIMIT ${item.limit})`
    }
  })

const countsOf = Effect.flatMap(SqlClient, (sql) =>
  Effect.all({
    kept: sql<{ type: string; status: string; total: string }>`SELECT type, status, total::text AS total FROM listing_counts ORDER BY type, status`,
    actual: sql<{ type: string; status: string; total: string }>`
    SELECT c.type, c.status, count(l.id)::text AS total FROM listing_counts c
    LEFT JOIN listings l ON l.type = c.type AND l.status = c.status GROUP BY c.type, c.status ORDER BY c.type, c.status`
  })
)

describe.each(engines)("listing counts on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const server = { sql: <A, E>(effect: Effect.Effect<A, E, SqlClient>) => staff.server.sql(effect) }

  it("starts with a zero for each of the 21 (type, status) pairs", async () => {
    const { kept } = await server.sql(countsOf)
    expect(kept).toHaveLength(types.length * statuses.length)
  })

  it("equal a count of the rows after any inserts, status and type changes, other updates and deletes (property)", async () => {
    // The property is only worth something if some runs had rows to count (a run's deletes can
    // empty the table again, so this is asked of the runs, not of the table at the end).
    let countedRows = false
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 8 }), async (changes) => {
        for (const item of changes) await server.sql(apply(item))
        const { kept, actual } = await server.sql(countsOf)
        expect(kept).toEqual(actual)
        countedRows ||= actual.some((row) => Number(row.total) > 0)
      }),
      { numRuns: 25 }
    )
    expect(countedRows).toBe(true)
  })

  it("refuses a type or status outside the lists, changing no count", async () => {
    // A row to refuse the status change on: the update must meet one to be refused.
    await server.sql(apply({ op: "insert", rows: [["community", "pending"]] }))
    const before = await server.sql(countsOf)
    await expect(
      server.sql(Effect.flatMap(SqlClient, (sql) => sql`INSERT INTO listings (id, type, name, description) VALUES (${crypto.randomUUID()}, 'dao', 'X', 'Y')`))
    ).rejects.toThrow()
    await expect(server.sql(Effect.flatMap(SqlClient, (sql) => sql`UPDATE listings SET status = 'archived'`))).rejects.toThrow()
    expect(await server.sql(countsOf)).toEqual(before)
  })
})
