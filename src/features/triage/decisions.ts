import type { TriageItem } from "../../../contract/triage.ts"
import type { TriageArea } from "../../../contract/triage-rules.ts"
import { contactDecisions } from "../../kinds/contacts.ts"
import type { Decision } from "../../kinds/decision.ts"
import { inquiryDecisions } from "../../kinds/inquiries.ts"
import { listingDecisions } from "../../kinds/listings.ts"
import { reportDecisions } from "../../kinds/scam-reports.ts"
import { triageTexts } from "./texts.ts"

/**
 * The desk's decisions (docs/console.md, "The triage desk"): each area's own, declared once in
 * its kind's module (src/kinds/), with the same keys as its screen and the desk's hints.
 */
export interface AreaDecision extends Decision<TriageItem> {
  readonly area: TriageArea
  /** What the desk says when the key keeps the item current (a report back to New). */
  readonly stays?: (title: string) => string
}

const on = <Row>(area: TriageArea, hint: string, decisions: ReadonlyArray<Decision<Row>>) =>
  decisions.map((decision): AreaDecision => ({
    ...decision,
    area,
    hint,
    when: (item) => item.area === area && decision.when(item as Row),
    commands: (item, said) => decision.commands(item as Row, said),
    ...(decision.id === "scam-report:status:new" ? { stays: triageTexts.notDecision } : {})
  }))

export const areaDecisions: ReadonlyArray<AreaDecision> = [
  ...on("listing", "approve, reject", listingDecisions),
  ...on(
    "scam-report",
    "report status, contact status",
    reportDecisions.filter((one) => one.id.includes(":status:"))
  ),
  ...on(
    "scam-report",
    "report priority",
    reportDecisions.filter((one) => one.id.includes(":priority:"))
  ),
  ...on("contact", "report status, contact status", contactDecisions),
  ...on("inquiry", "inquiry contacted", inquiryDecisions)
]
