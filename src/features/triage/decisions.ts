import type { TriageItem } from "../../../contract/triage.ts"
import type { TriageArea } from "../../../contract/triage-rules.ts"
import { contactDecisions } from "../../kinds/contacts.ts"
import type { Decision } from "../../kinds/decision.ts"
import { inquiryDecisions } from "../../kinds/inquiries.ts"
import { listingDecisions } from "../../kinds/listings.ts"
import { reportPriorityDecisions, reportStatusDecisions } from "../../kinds/scam-reports.ts"

/**
 * The desk's decisions (docs/console.md, "The triage desk"): each area's own, declared once in
 * its kind's module (src/kinds/), with the same keys as its screen and the desk's hints.
 */
export interface AreaDecision extends Decision<TriageItem> {
  readonly area: TriageArea
  readonly key: string
}

/** An area's decisions that have a key (the rest are its screen's palette and buttons). */
const on = <Row>(area: TriageArea, hint: string, decisions: ReadonlyArray<Decision<Row>>) =>
  decisions.flatMap(({ key, ...decision }): ReadonlyArray<AreaDecision> => {
    if (key === undefined) return []
    const when = (item: TriageItem) => item.area === area && decision.when(item as Row)
    return [{ ...decision, key, area, hint, when, commands: (item, said) => decision.commands(item as Row, said) }]
  })

export const areaDecisions: ReadonlyArray<AreaDecision> = [
  ...on("listing", "approve, reject", listingDecisions),
  ...on("scam-report", "report status, contact status", reportStatusDecisions),
  ...on("scam-report", "report priority", reportPriorityDecisions),
  ...on("contact", "report status, contact status", contactDecisions),
  ...on("inquiry", "inquiry contacted", inquiryDecisions)
]
