import { Badge, Flex, Text } from "@radix-ui/themes"
import type { ReactNode } from "react"
import type { ListingStatus } from "../../../contract/listing-rules.ts"
import { shortDate } from "../../lib/dates.ts"
import type { QueueKind, QueueRow } from "./kinds.ts"
import { listingTexts as t } from "./texts.ts"

const statusColors = { pending: "orange", approved: "green", rejected: "red" } as const satisfies Record<ListingStatus, string>

/** One queued record as a card: its facts, its status as shown (this browser's waiting change on it), and its buttons (the list piece's: keys do the same). */
export const ListingCard = ({
  kind,
  listing,
  selected,
  buttons
}: {
  readonly kind: QueueKind
  readonly listing: QueueRow
  readonly selected: boolean
  readonly buttons: ReactNode
}) => (
  <div className="listing-card" data-selected={selected} aria-label={listing.name}>
    <Flex justify="between" align="start" gap="2">
      <Text as="div" weight="bold">
        {listing.name}
      </Text>
      <Flex gap="2" align="center">
        {selected && (
          <Badge color="blue" variant="solid">
            {t.selectedMark}
          </Badge>
        )}
        {listing.isActive === false && <Badge color="gray">{t.hidden}</Badge>}
        {listing.featured === true && <Badge color="violet">{t.featured}</Badge>}
        <Badge color={statusColors[listing.status]}>{t.statuses[listing.status]}</Badge>
      </Flex>
    </Flex>
    {kind.facts(listing).length > 0 && (
      <Text as="div" size="1" mt="1">
        {kind.facts(listing).join(" · ")}
      </Text>
    )}
    <Text as="p" size="2" color="gray" my="2" className="listing-description">
      {listing.description}
    </Text>
    <Text as="div" size="1" color="gray">
      {t.created(shortDate(listing.createdAt))}
    </Text>
    <Flex mt="3">{buttons}</Flex>
  </div>
)
