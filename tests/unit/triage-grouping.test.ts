import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { TriageItem } from "../../contract/triage.ts"
import { groupRelated, relatedKeys, relatedOnPage } from "../../src/features/triage/grouping.ts"

/** A report with only what grouping reads; the rest of a record does not matter to it. */
const report = (id: string, walletAddress: string, evidence = "") => ({ area: "scam-report", _id: id, walletAddress, evidence }) as unknown as TriageItem
const listing = (id: string) => ({ area: "listing", _id: id, website: "https://same.example" }) as unknown as TriageItem
const ids = (rows: ReadonlyArray<TriageItem>) => rows.map((row) => row._id)

describe("related reports on the desk's page (src/features/triage/grouping.ts)", () => {
  it("relates reports by wallet or by an evidence address, and nothing else", () => {
    expect(relatedKeys(report("a", "GW", "see https://x.example/a and http://y.example"))).toEqual([
      "wallet:GW",
      "evidence:https://x.example/a",
      "evidence:http://y.example/"
    ])
    expect(relatedKeys(report("b", "", "javascript:alert(1) no address"))).toEqual([])
    expect(relatedKeys(listing("l"))).toEqual([])
  })

  it("puts each group where its first report stands, through chains of shared keys, the rest in order", () => {
    const rows = [
      report("1", "W1"),
      listing("L"),
      report("2", "W2", "https://e.example"),
      report("3", "W3"),
      report("4", "W1", "https://e.example"),
      report("5", ""),
      listing("M")
    ]
    // 1 and 4 share a wallet, 4 and 2 an evidence address: 1, 4 and 2 are one group.
    expect(ids(groupRelated(rows))).toEqual(["1", "2", "4", "L", "3", "5", "M"])
    expect(Object.fromEntries(relatedOnPage(rows))).toEqual({ "1": 2, "2": 2, "4": 2 })
  })

  it("keeps every row once, each group together where its first report stood, in page order, for any page", () => {
    const page = fc.array(
      fc.record({ wallet: fc.constantFrom("", "A", "B", "C"), evidence: fc.constantFrom("", "https://p.example", "https://q.example"), listing: fc.boolean() }),
      { maxLength: 30 }
    )
    fc.assert(
      fc.property(page, (made) => {
        const rows = made.map((one, at) => (one.listing ? listing(`l${at}`) : report(`r${at}`, one.wallet, one.evidence)))
        // The groups worked out another way: everything reachable through shared keys, from each row.
        const groupOf = new Map<string, number>()
        rows.forEach((row, at) => {
          if (groupOf.has(row._id)) return
          const reach = [row]
          groupOf.set(row._id, at)
          while (reach.length > 0) {
            const keys = new Set(relatedKeys(reach.pop()!))
            for (const other of rows)
              if (!groupOf.has(other._id) && relatedKeys(other).some((key) => keys.has(key))) {
                groupOf.set(other._id, at)
                reach.push(other)
              }
          }
        })
        const expected = [...new Set(groupOf.values())].sort((a, b) => a - b).flatMap((group) => rows.filter((row) => groupOf.get(row._id) === group))
        expect(ids(groupRelated(rows))).toEqual(ids(expected))
        const size = (id: string) => rows.filter((row) => groupOf.get(row._id) === groupOf.get(id)).length
        expect(Object.fromEntries(relatedOnPage(rows))).toEqual(
          Object.fromEntries(rows.filter((row) => size(row._id) > 1).map((row) => [row._id, size(row._id) - 1]))
        )
      })
    )
  })
})
