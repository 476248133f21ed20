import { Badge, Flex, Text } from "@radix-ui/themes"
import type { ReactNode } from "react"
import { scamTypeLabels } from "../../../contract/scam-report-rules.ts"
import type { TriageItem } from "../../../contract/triage.ts"
import { shortDate, localTime } from "../../lib/dates.ts"
import { LinkedText } from "../../ui/LinkedText.tsx"
import { triageTexts as t } from "./texts.ts"

/** What an item is called and what it says, whatever its area. */
export const itemWords = (item: TriageItem): { readonly title: string; readonly summary: string; readonly links: string; readonly received: string } => {
  switch (item.area) {
    case "listing":
      return { title: item.name, summary: item.description, links: "website" in item ? (item.website ?? "") : "", received: item.createdAt }
    case "scam-report":
      return {
        title: item.walletAddress === "" ? `Report #${item._id.slice(-8)}` : item.walletAddress,
        summary: item.description,
        links: item.evidence,
        received: item.createdAt
      }
    case "contact":
      return {
        title: item.inquiry.subject,
        summary: [item.contactInfo.name, item.contactInfo.organization].filter((part) => part !== "").join(", "),
        links: item.projectInfo.website,
        received: item.submittedAt
      }
    case "inquiry":
      return {
        title: item.companyName,
        summary: [item.contactName, item.email, item.selectedPlan].filter((part) => part !== "").join(" · "),
        links: item.website,
        received: item.createdAt
      }
  }
}

/** The item's priority on the desk's scale, if its area has one. */
const priorityOf = (item: TriageItem): string | undefined =>
  item.area === "scam-report" ? item.priority : item.area === "contact" ? (item.inquiry.priority === "medium" ? "normal" : item.inquiry.priority) : undefined

const priorityColors: Readonly<Record<string, "gray" | "blue" | "orange" | "red">> = { low: "gray", normal: "blue", high: "orange", urgent: "red" }

/**
 * One waiting item as a card: its kind and type, what it is (on one line), the first lines of its
 * text, its status, priority, owner and age; addresses in what was sent are links. The item in
 * full is beside the desk (./DeskDetail.tsx).
 */
export const TriageCard = ({
  item,
  ownerName,
  waiting,
  relatedHere = 0
}: {
  readonly item: TriageItem
  readonly ownerName: (id: string) => string
  readonly waiting?: ReactNode
  /** The other reports on the page on its wallet or evidence (./grouping.ts). */
  readonly relatedHere?: number
}) => {
  const words = itemWords(item)
  const priority = priorityOf(item)
  // Its kind and type: "Listing · community", "Scam report · Phishing Attempt".
  const kind =
    item.area === "listing"
      ? `${t.area.listing} · ${item.type}`
      : item.area === "scam-report"
        ? `${t.area[item.area]} · ${scamTypeLabels[item.scamType]}`
        : t.area[item.area]
  return (
    <div className="triage-card" aria-label={words.title}>
      {/* The title has the card's whole width (a name beside the badges showed three letters); they go under it. */}
      <Text as="div" weight="bold" className="triage-title">
        {words.title}
      </Text>
      <Flex gap="2" align="center" wrap="wrap" mt="1">
        {waiting}
        <Badge color="gray" variant="outline">
          {kind}
        </Badge>
        <Badge color="blue">{item.status}</Badge>
        {priority !== undefined && <Badge color={priorityColors[priority] ?? "gray"}>{t.priorities[priority as keyof typeof t.priorities]}</Badge>}
      </Flex>
      {words.summary !== "" && (
        <Text as="p" size="2" my="2" className="triage-summary">
          {words.summary}
        </Text>
      )}
      {words.links !== "" && (
        <Text as="div" size="1" className="triage-links">
          <LinkedText text={words.links} />
        </Text>
      )}
      <Flex gap="3" wrap="wrap">
        <Text size="1" color="gray">
          {t.received(shortDate(words.received))}
        </Text>
        <Text size="1" color="gray">
          {item.ownerId === null ? t.nobody : t.ownedBy(ownerName(item.ownerId))}
        </Text>
        {item.snoozedUntil !== null && (
          <Text size="1" color="gray">
            {t.snoozedUntil(localTime(item.snoozedUntil))}
          </Text>
        )}
        {relatedHere > 0 && (
          <Text size="1" color="gray">
            {t.relatedHere(relatedHere)}
          </Text>
        )}
        {item.duplicateOf !== null && (
          <Text size="1" color="gray">
            {t.duplicateOf(item.duplicateOf)}
          </Text>
        )}
      </Flex>
    </div>
  )
}
