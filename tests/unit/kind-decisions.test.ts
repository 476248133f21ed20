import { describe, expect, it } from "vitest"
import { AdminApi } from "../../contract/api.ts"
import { inquiryMoves, type InquiryStatus } from "../../contract/advertising-rules.ts"
import { contactDecisions } from "../../src/kinds/contacts.ts"
import type { Decision } from "../../src/kinds/decision.ts"
import { inquiryDecisions } from "../../src/kinds/inquiries.ts"
import { listingDecisions } from "../../src/kinds/listings.ts"
import { reportDecisions } from "../../src/kinds/scam-reports.ts"

/**
 * Each kind's decisions (src/kinds/; docs/architecture.md, "Layers"), declared once for its
 * screen, the palette and the triage desk: their keys are distinct, their commands are the
 * contract's calls at the version shown, and they apply where the contract's rules let them.
 */
const endpoints = Object.values(AdminApi.groups as unknown as Record<string, { endpoints: Record<string, { path: string; method: string }> }>).flatMap(
  (group) => Object.values(group.endpoints)
)
const isContractCall = (method: string, path: string) =>
  endpoints.some((one) => one.method === method && new RegExp(`^${one.path.replace(/:[A-Za-z]+/g, "[^/?]+")}$`).test(path.split("?")[0] ?? ""))

const kinds: ReadonlyArray<readonly [string, ReadonlyArray<Decision<never>>, Record<string, unknown>]> = [
  ["contact", contactDecisions, { _id: "c1", version: 7, status: "in_progress", contactInfo: {}, inquiry: {}, projectInfo: {} }],
  ["scam-report", reportDecisions, { _id: "r1", version: 7, status: "under_review", priority: "normal", adminNotes: "Seen" }],
  ["listing", listingDecisions, { _id: "l1", version: 7, status: "pending" }],
  ["inquiry", inquiryDecisions, { _id: "i1", version: 7, status: "pending", adminNotes: "" }]
]

describe("each kind's decisions", () => {
  it("have distinct ids and keys, each named for its kind", () => {
    for (const [kind, decisions] of kinds) {
      // A decision without a key is the palette's and its record's buttons; those with one each have their own.
      const keys = decisions.flatMap((one) => (one.key === undefined ? [] : [one.key]))
      expect(new Set(keys).size).toBe(keys.length)
      expect(keys.length).toBeGreaterThan(0)
      expect(decisions.every((one) => one.id.startsWith(`${kind}:`))).toBe(true)
    }
    expect(new Set(kinds.flatMap(([, decisions]) => decisions.map((one) => one.id))).size).toBe(kinds.reduce((sum, [, decisions]) => sum + decisions.length, 0))
  })

  it("make the contract's calls at the version shown, labelled with the record's title", () => {
    for (const [kind, decisions, row] of kinds)
      for (const decision of decisions) {
        const commands = decision.commands(row as never, { title: "The title", reason: decision.asksReason ? "Spam" : "" })
        expect(commands.length).toBeGreaterThan(0)
        for (const command of commands) {
          expect(isContractCall(command.method, command.path), `${decision.id}: ${command.method} ${command.path}`).toBe(true)
          expect(command).toMatchObject({ kind, recordIds: [row._id], body: { version: 7 } })
          expect(command.label).toMatch(/: The title$/)
        }
      }
  })

  it("offer only a change: a status or priority already set, a listing decided, an inquiry the contract keeps where it is", () => {
    const report = { status: "resolved", priority: "high" }
    expect(reportDecisions.filter((one) => !one.when(report as never)).map((one) => one.id)).toEqual([
      "scam-report:status:resolved",
      "scam-report:priority:high"
    ])
    expect(listingDecisions.some((one) => one.when({ status: "approved" } as never))).toBe(false)
    for (const status of Object.keys(inquiryMoves) as Array<InquiryStatus>)
      expect(inquiryDecisions[0]?.when({ status } as never), status).toBe(inquiryMoves[status].includes("contacted"))
  })

  it("keep a dismissal's reason in the report's notes, after the status, and a rejection's as the listing's notes", () => {
    const dismissal = reportDecisions.find((one) => one.id === "scam-report:status:dismissed")
    const [status, notes] = dismissal?.commands({ _id: "r1", version: 7, adminNotes: "Seen" } as never, { title: "R", reason: "Spam" }) ?? []
    expect([status?.body, notes?.body, notes?.effect]).toEqual([
      { status: "dismissed", version: 7 },
      { notes: "Seen\nSpam", version: 7 },
      { adminNotes: "Seen\nSpam" }
    ])
    const rejection = listingDecisions.find((one) => one.id === "listing:reject")?.commands({ _id: "l1", version: 2 } as never, { title: "L", reason: "Spam" })
    expect(rejection?.[0]?.body).toEqual({ action: "reject", version: 2, notes: "Spam" })
  })
})
