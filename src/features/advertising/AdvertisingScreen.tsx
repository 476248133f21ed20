import "./advertising.css"
import { Flex, Heading, Text } from "@radix-ui/themes"
import { useMemo } from "react"
import type { AdvertisingInquiry } from "../../../contract/advertising.ts"
import { industries } from "../../../contract/advertising-industries.ts"
import { inquiryStatuses } from "../../../contract/advertising-rules.ts"
import { exportInquiries, INQUIRY_KIND, type InquiriesPage, listInquiries } from "../../api/advertising.ts"
import { type Decision, decisionAction } from "../../kinds/decision.ts"
import { inquiryDecisions } from "../../kinds/inquiries.ts"
import { shortDate } from "../../lib/dates.ts"
import { withStore } from "../../lib/store/handle.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { type ListAction, useListScreen } from "../../lib/list/use-list-screen.ts"
import { countsOf, filterOf } from "../../lib/list/declarations.ts"
import { ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import { InquiryDone, InquiryModal } from "./InquiryDetails.tsx"
import { useInquiryDetail } from "./use-inquiry-detail.ts"
import { inquiryQuerySpec } from "./query.ts"
import { StatusBadge } from "./StatusBadge.tsx"
import { advertisingTexts as t } from "./texts.ts"

const spec = {
  title: t.title,
  refresh: t.refresh,
  noun: "inquiries",
  querySpec: inquiryQuerySpec,
  fetchPage: listInquiries,
  store: INQUIRY_KIND,
  idOf: (inquiry: AdvertisingInquiry) => inquiry._id,
  history: { kind: "inquiry" as const, labelOf: (inquiry: AdvertisingInquiry) => inquiry.companyName },
  exportCsv: exportInquiries,
  filters: [
    filterOf("status", "Status", t.allStatuses, inquiryStatuses, (status) => t.statuses[status], { show: (label) => `Show ${label.toLowerCase()} inquiries` }),
    filterOf("industry", "Industry", t.allIndustries, industries)
  ],
  counts: countsOf({
    label: t.countsLabel,
    filter: "status",
    total: t.counts.total,
    cards: (["pending", "contacted", "converted"] as const).map((status) => [status, t.counts[status]] as const),
    of: (page: InquiriesPage) => page.counts
  })
}

/**
 * Opening an inquiry, and its moves (src/kinds/inquiries.ts): `c`, the palette or a selection moves
 * it at once with its notes as they are; the detail modal moves it with the notes typed.
 */
const inquiryActions = (
  view: (inquiry: AdvertisingInquiry) => void,
  decide: (decision: Decision<AdvertisingInquiry>, inquiries: ReadonlyArray<AdvertisingInquiry>) => void
): ReadonlyArray<ListAction<AdvertisingInquiry>> => [
  { id: "advertising:view", key: "Enter", hint: t.viewHint, label: (inquiry) => `View ${inquiry.companyName}`, run: view, button: { label: t.view } },
  ...inquiryDecisions.map((decision) =>
    decisionAction<AdvertisingInquiry>(decision, { nameOf: (inquiry) => inquiry.companyName, decide: (rows) => decide(decision, rows) })
  )
]

/**
 * The advertising inquiries (docs/product-spec.md §2) on the one list screen: the four counts,
 * filters, cards with the payment when there is one, and the detail modal driven by the inquiry
 * machine (machines/inquiry.ts), whose snapshot decides the modal's buttons and the palette's
 * moves while it is open.
 */
export const AdvertisingScreen = () => {
  const inquiry = useInquiryDetail()
  /** A move from a key, the palette or a selection: a command each, shown at once; a refusal is said by the console's shell. */
  const decide = useStableCallback((decision: Decision<AdvertisingInquiry>, inquiries: ReadonlyArray<AdvertisingInquiry>) =>
    withStore((store) => {
      for (const one of inquiries) for (const command of decision.commands(one, { title: one.companyName, reason: "" })) store.command(command)
    })
  )
  const actions = useMemo(() => inquiryActions(inquiry.view, decide), [inquiry.view, decide])
  const screen = useListScreen(spec, { actions, idle: !inquiry.open, commands: inquiry.commands })
  const { list } = screen
  const shown = inquiry.openId === undefined ? null : (screen.rows.find((row) => row._id === inquiry.openId) ?? null)
  // Another admin's change arrives through the browser's store (the list piece): the row, and an open modal, show the newer copy.

  return (
    <ListScreen
      screen={screen}
      texts={{ ...listTextsOf(t), hintAfter: t.paletteHint }}
      view={{
        cards: {
          label: t.title,
          card: (inquiry, buttons) => (
            <div aria-label={inquiry.companyName}>
              <Flex justify="between" align="start" gap="2">
                <Text as="div" weight="bold">
                  {inquiry.companyName}
                </Text>
                <StatusBadge status={inquiry.status} />
              </Flex>
              <Text as="div" size="2">
                {inquiry.contactName} · {inquiry.email}
              </Text>
              <Text as="div" size="1" color="gray" mt="1">
                {[inquiry.industry, inquiry.budget].filter((part) => part !== "").join(" · ")}
              </Text>
              <Text as="div" size="1" color="gray">
                {t.submitted(shortDate(inquiry.createdAt))}
              </Text>
              {inquiry.website !== "" && (
                <Text as="div" size="1">
                  <a href={inquiry.website} target="_blank" rel="noopener noreferrer" tabIndex={-1}>
                    {inquiry.website}
                  </a>
                </Text>
              )}
              {inquiry.adminNotes !== "" && (
                <Text as="div" size="1" color="gray" mt="1" className="inquiry-notes">
                  {t.notesLine(inquiry.adminNotes)}
                </Text>
              )}
              {inquiry.paymentId !== "" && (
                <div className="payment-block">
                  <Text size="2" weight="bold">
                    {t.paymentCompleted}
                  </Text>
                  <Text size="2">
                    {" "}
                    · {t.amount(inquiry.amount)}
                    {t.plan(inquiry.selectedPlan)}
                  </Text>
                </div>
              )}
              <Flex mt="3">{buttons}</Flex>
            </div>
          )
        }
      }}
      notices={
        <>
          <InquiryDone detail={inquiry.detail} />
          {list.pagination !== undefined && !list.firstLoad && (
            <Heading as="h2" size="3" mb="2">
              {t.heading(list.pagination.total)}
            </Heading>
          )}
        </>
      }
    >
      <InquiryModal detail={inquiry.detail} shown={shown} />
    </ListScreen>
  )
}
