import { type InquiryStatus, inquiryMoves } from "../../contract/advertising-rules.ts"
import { type InquiryRef, inquiryTexts } from "../../machines/inquiry.ts"
import { INQUIRY_KIND } from "../api/advertising.ts"
import { callTo } from "../api/endpoints.ts"
import type { Decision } from "./decision.ts"

/** The moves an admin makes on an inquiry, in the spec's words (docs/product-spec.md §2, §4). */
export const inquiryMoveWords = { contacted: inquiryTexts.markContacted, converted: "Mark Converted", rejected: "Reject" } as const

type Moved = keyof typeof inquiryMoveWords

/**
 * An inquiry moved on, where the contract lets it move there, with its notes as the row holds
 * them: `c` marks it contacted on its screen and on the desk; converting and rejecting are the
 * palette's, a selection's, and the detail modal's buttons (the modal passes the notes typed).
 */
const move = (status: Moved, key: string | undefined, hint: string): Decision<InquiryRef> => ({
  id: `inquiry:${status}`,
  ...(key === undefined ? {} : { key }),
  name: inquiryMoveWords[status],
  hint,
  when: (inquiry) => inquiryMoves[inquiry.status].includes(status),
  asksReason: false,
  movesOn: true,
  commands: (inquiry, { title }) => [
    {
      kind: INQUIRY_KIND,
      recordIds: [inquiry._id],
      ...callTo("inquiryUpdate", { id: inquiry._id }),
      body: { status, adminNotes: inquiry.adminNotes, version: inquiry.version },
      effect: { status, adminNotes: inquiry.adminNotes },
      answer: "data.inquiry",
      label: `${inquiryMoveWords[status]}: ${title}`,
      failed: inquiryTexts.failed
    }
  ]
})

export const inquiryDecisions: ReadonlyArray<Decision<InquiryRef>> = [
  move("contacted", "c", "mark as contacted"),
  move("converted", undefined, "mark converted"),
  move("rejected", undefined, "reject")
]

/** The decision that moves an inquiry to `status` (none moves one back). */
export const inquiryDecision = (status: InquiryStatus): Decision<InquiryRef> | undefined =>
  inquiryDecisions.find((decision) => decision.id === `inquiry:${status}`)
