import type { AdvertisingInquiry } from "../../contract/advertising.ts"
import { inquiryMoves } from "../../contract/advertising-rules.ts"
import { inquiryTexts } from "../../machines/inquiry.ts"
import { INQUIRY_KIND } from "../api/advertising.ts"
import { callTo } from "../api/endpoints.ts"
import type { Decision } from "./decision.ts"

/** `c`: an inquiry marked contacted, where the contract lets it move there (its notes as they are). */
export const inquiryDecisions: ReadonlyArray<Decision<AdvertisingInquiry>> = [
  {
    id: "inquiry:contacted",
    key: "c",
    name: inquiryTexts.markContacted,
    hint: "inquiry contacted",
    when: (inquiry) => inquiryMoves[inquiry.status].includes("contacted"),
    asksReason: false,
    movesOn: true,
    commands: (inquiry, { title }) => [
      {
        kind: INQUIRY_KIND,
        recordIds: [inquiry._id],
        ...callTo("inquiryUpdate", { id: inquiry._id }),
        body: { status: "contacted", adminNotes: inquiry.adminNotes, version: inquiry.version },
        effect: { status: "contacted" },
        answer: "data.inquiry",
        label: `${inquiryTexts.markContacted}: ${title}`,
        failed: inquiryTexts.failed
      }
    ]
  }
]
