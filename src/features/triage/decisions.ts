import type { AdvertisingInquiry } from "../../../contract/advertising.ts"
import type { ContactStatus } from "../../../contract/contact-rules.ts"
import type { CoreTeamContact } from "../../../contract/contacts.ts"
import type { ScamReport, ScamReportPriority, ScamReportStatus } from "../../../contract/scam-reports.ts"
import type { TriageItem } from "../../../contract/triage.ts"
import type { TriageArea } from "../../../contract/triage-rules.ts"
import { contactStatusCommand } from "../../api/contacts.ts"
import { callTo } from "../../api/endpoints.ts"
import { moderationCalls } from "../../api/listings.ts"
import { reportChangeCommand } from "../../api/scam-reports.ts"
import type { CommandInput } from "../../lib/store/console-store.ts"
import { triageTexts } from "./texts.ts"
import { itemWords } from "./TriageCard.tsx"

/**
 * The decisions of each area, made from the desk with the keys of the area's own screen
 * (docs/console.md, "The triage desk"): approve `a` and reject `r` for a listing, `1`–`4` the
 * status and Shift+`1`–`4` the priority of a report, `1`–`5` the status of a contact, `c` an
 * inquiry contacted. Each is the area's own command, so the store shows it on the record at once.
 */
export interface AreaDecision {
  readonly id: string
  readonly area: TriageArea
  readonly key: string
  readonly hint: string
  /** The palette's words and the reason dialog's title. */
  readonly name: string
  readonly asksReason: boolean
  /**
   * A decision: the desk goes on to the next item at once (`z` brings it back). A priority, or a
   * report set back to New, is not one: the item stays current.
   */
  readonly movesOn: boolean
  /** What the desk says when the key keeps the item current, if anything (a report back to New). */
  readonly stays?: (title: string) => string
  readonly when: (item: TriageItem) => boolean
  /** The commands, in order, at the version the person saw (after their own waiting changes). */
  readonly commands: (item: TriageItem, version: number, reason: string) => ReadonlyArray<CommandInput>
}

/** The spec's banners for each area's refused change (docs/product-spec.md §8). */
const failed: Readonly<Record<TriageArea, string>> = {
  listing: "Failed to update listing status",
  "scam-report": "Failed to update report status",
  contact: "Failed to update contact",
  inquiry: "Failed to update inquiry"
}

const words = (name: string, item: TriageItem) => ({ label: `${name}: ${itemWords(item).title}`, failed: failed[item.area] })

const listingMove = (action: "approve" | "reject", name: string, key: string, asksReason: boolean): AreaDecision => ({
  id: `listing:${action}`,
  area: "listing",
  key,
  hint: "approve, reject",
  name,
  asksReason,
  movesOn: true,
  when: (item) => item.area === "listing" && item.status === "pending",
  commands: (item, version, reason) => [
    {
      kind: "listing",
      recordIds: [item._id],
      ...moderationCalls.moderate(item._id),
      body: { action, version, ...(reason === "" ? {} : { notes: reason }) },
      effect: { status: action === "approve" ? "approved" : "rejected", ...(reason === "" ? {} : { moderationNotes: reason }) },
      answer: "data.listing",
      ...words(name, item)
    }
  ]
})

const reportStatuses: ReadonlyArray<readonly [ScamReportStatus, string]> = [
  ["new", "New"],
  ["under_review", "Under Review"],
  ["resolved", "Resolved"],
  ["dismissed", "Dismissed"]
]
const reportPriorities: ReadonlyArray<readonly [ScamReportPriority, string]> = [
  ["low", "Low"],
  ["normal", "Normal"],
  ["high", "High"],
  ["urgent", "Urgent"]
]
const contactStatuses: ReadonlyArray<readonly [ContactStatus, string]> = [
  ["new", "New"],
  ["in_progress", "In Progress"],
  ["responded", "Responded"],
  ["resolved", "Resolved"],
  ["closed", "Closed"]
]

/** A report's notes with a reason added on a line of its own. */
const withReason = (notes: string, reason: string) => (notes === "" ? reason : `${notes}\n${reason}`)

export const areaDecisions: ReadonlyArray<AreaDecision> = [
  listingMove("approve", "Approve", "a", false),
  listingMove("reject", "Reject", "r", true),
  ...reportStatuses.map(([status, name], at): AreaDecision => ({
    id: `scam-report:status:${status}`,
    area: "scam-report",
    key: String(at + 1),
    hint: "report status, contact status",
    name: `Set status ${name}`,
    asksReason: status === "dismissed",
    movesOn: status !== "new",
    ...(status === "new" ? { stays: triageTexts.notDecision } : {}),
    when: (item) => item.area === "scam-report" && item.status !== status,
    commands: (item, version, reason) => {
      const report = item as ScamReport & { readonly area: "scam-report" }
      const said = { label: `${name}: ${itemWords(item).title}`, failed: failed["scam-report"] }
      const changed = reportChangeCommand({ field: "status", value: status, report }, version, said)
      if (reason === "") return [changed]
      // The reason goes in the notes, after the status, at the version the status makes.
      const notes = withReason(report.adminNotes, reason)
      return [
        changed,
        {
          ...changed,
          body: { notes, version: version + 1 },
          effect: { adminNotes: notes },
          label: `Admin Notes: ${itemWords(item).title}`,
          failed: "Failed to add admin notes"
        }
      ]
    }
  })),
  ...reportPriorities.map(([priority, name], at): AreaDecision => ({
    id: `scam-report:priority:${priority}`,
    area: "scam-report",
    key: `shift+${at + 1}`,
    hint: "report priority",
    name: `Set priority ${name}`,
    asksReason: false,
    movesOn: false,
    when: (item) => item.area === "scam-report" && item.priority !== priority,
    commands: (item, version) => [
      reportChangeCommand({ field: "priority", value: priority, report: item as ScamReport }, version, {
        label: `${name}: ${itemWords(item).title}`,
        failed: "Failed to update report priority"
      })
    ]
  })),
  ...contactStatuses.map(([status, name], at): AreaDecision => ({
    id: `contact:status:${status}`,
    area: "contact",
    key: String(at + 1),
    hint: "report status, contact status",
    name: `Set status ${name}`,
    asksReason: false,
    movesOn: status !== "new",
    when: (item) => item.area === "contact" && item.status !== status,
    commands: (item, version) => [contactStatusCommand(item as CoreTeamContact, status, version, words(name, item))]
  })),
  {
    id: "inquiry:contacted",
    area: "inquiry",
    key: "c",
    hint: "inquiry contacted",
    name: "Mark as Contacted",
    asksReason: false,
    movesOn: true,
    when: (item) => item.area === "inquiry" && (item.status === "pending" || item.status === "paid"),
    commands: (item, version) => {
      const inquiry = item as AdvertisingInquiry
      return [
        {
          kind: "inquiry",
          recordIds: [item._id],
          ...callTo("inquiryUpdate", { id: item._id }),
          body: { status: "contacted", adminNotes: inquiry.adminNotes, version },
          effect: { status: "contacted" },
          answer: "data.inquiry",
          ...words("Mark as Contacted", item)
        }
      ]
    }
  }
]
