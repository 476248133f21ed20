import { describe, expect, it } from "vitest"
import { AdminApi } from "../../contract/api.ts"
import { eventFeaturedCommand } from "../../src/api/events.ts"
import { callTo } from "../../src/api/endpoints.ts"
import { deskChangeCommand } from "../../src/api/triage.ts"
import { moderationCalls, moveCommand, undoCommands } from "../../src/kinds/listings.ts"
import { reportChangeCommand } from "../../src/api/scam-reports.ts"
import { ventureActiveCommand } from "../../src/api/ventures.ts"

/**
 * A command is data the outbox keeps across reloads (docs/decisions.md, "The browser's store"), so
 * it names its call by method and path: each must be the contract's endpoint, or the outbox would
 * send requests the server has no route for.
 */
const endpoint = (group: string, name: string) => {
  const found = (AdminApi.groups as unknown as Record<string, { endpoints: Record<string, { path: string; method: string }> }>)[group]?.endpoints[name]
  if (found === undefined) throw new Error(`no endpoint ${group}.${name}`)
  return found
}
const fits = (template: string, path: string) => new RegExp(`^${template.replace(/:[A-Za-z]+/g, "[^/?]+")}$`).test(path.split("?")[0] ?? "")

const done = {
  action: "approve" as const,
  commandId: "c1",
  moves: [
    { _id: "a1", name: "One", from: "pending" as const, to: "approved" as const, version: 3 },
    { _id: "b2", name: "Two", from: "pending" as const, to: "approved" as const, version: 1 }
  ]
}
const words = { label: "Approved", failed: "Failed to update status" }

describe("the commands the queues make", () => {
  it("moderate, bulk and undo as the contract's listing moderation calls", () => {
    // The version as shown: the store names the one the listing will be at (tests/unit/console-store.test.ts).
    const one = moveCommand({ ...done, moves: done.moves.slice(0, 1) }, words)
    expect(one).toMatchObject({ method: endpoint("listingsAdmin", "moderate").method, body: { action: "approve", version: 3 }, effect: { status: "approved" } })
    expect(fits(endpoint("listingsAdmin", "moderate").path, one.path)).toBe(true)
    const bulk = moveCommand(done, words)
    expect(bulk).toMatchObject({ method: endpoint("listingsAdmin", "bulk").method, path: endpoint("listingsAdmin", "bulk").path, body: { ids: ["a1", "b2"] } })
    const undos = undoCommands(done, words)
    expect(undos.map((undo) => [undo.method, fits(endpoint("listingsAdmin", "undo").path, undo.path), undo.body])).toEqual([
      [endpoint("listingsAdmin", "undo").method, true, { eventId: { $answerOf: "c1", $path: "data.listings.[a1].eventId" } }],
      [endpoint("listingsAdmin", "undo").method, true, { eventId: { $answerOf: "c1", $path: "data.listings.[b2].eventId" } }]
    ])
    expect(moderationCalls.moderate("a/b").path).toBe("/api/admin/listings/a%2Fb")
  })

  it("show, hide and feature as the ventures' and events' calls", () => {
    const listing = { _id: "v1" } as never
    for (const [type, group] of [
      ["business", "businesses"],
      ["startup", "startups"],
      ["project", "projects"]
    ] as const) {
      const command = ventureActiveCommand(type, listing, false, 2)
      expect(command.method).toBe(endpoint(group, "setActive").method)
      expect(fits(endpoint(group, "setActive").path, command.path)).toBe(true)
      expect(command.body).toEqual({ isActive: false, version: 2 })
    }
    const featured = eventFeaturedCommand("hackathons", listing, true, 5)
    expect(featured.method).toBe(endpoint("events", "setFeatured").method)
    expect(fits(endpoint("events", "setFeatured").path, featured.path)).toBe(true)
    expect(new URL(featured.path, "http://x").searchParams.get("type")).toBe("hackathons")
  })

  it("a report's, the desk's and an inquiry's change as the contract's calls, and only a write", () => {
    const report = reportChangeCommand({ field: "status", value: "resolved", report: { _id: "r/1", version: 3 } as never }, 4, words)
    expect([report.method, fits(endpoint("scamReports", "change").path, report.path)]).toEqual([endpoint("scamReports", "change").method, true])
    expect(report.path).toBe("/api/report-scam/r%2F1")
    const desk = deskChangeCommand({ area: "scam-report", _id: "r1" } as never, { owner: null }, 2, words)
    expect([desk.method, desk.path]).toEqual([endpoint("triage", "change").method, "/api/admin/triage/scam-report/r1"])
    expect(callTo("inquiryUpdate", { id: "i1" })).toEqual({ method: endpoint("advertising", "update").method, path: "/api/advertising-inquiries/i1" })
    expect(() => callTo("inquiryUpdate", {})).toThrow("inquiryUpdate: no value for :id")
    expect(() => callTo("sessionCheck", {})).toThrow("sessionCheck is a read, not a command's call")
  })
})
