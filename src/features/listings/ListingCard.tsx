import { Badge, Button, Flex, Text } from "@radix-ui/themes"
import type { ListingStatus, ModerationAction } from "../../../contract/listing-rules.ts"
import { shortDate } from "../../lib/dates.ts"
import type { QueueKind, QueueRow } from "./kinds.ts"
import { listingTexts as t } from "./texts.ts"

const statusColors = { pending: "orange", approved: "green", rejected: "red" } as const satisfies Record<ListingStatus, string>

/** One queued record as a card: its facts, its status as the screen shows it, and its buttons (out of the tab order: keys do the same). */
export const ListingCard = ({
  kind,
  listing,
  shown,
  selected,
  actions,
  busy,
  canEdit,
  on
}: {
  readonly kind: QueueKind
  readonly listing: QueueRow
  /** The status with this screen's own change on it. */
  readonly shown: ListingStatus
  readonly selected: boolean
  readonly actions: ReadonlyArray<ModerationAction>
  /** A status change is on its way: the toggles wait for it. */
  readonly busy: boolean
  readonly canEdit: boolean
  readonly on: {
    readonly act: (action: ModerationAction) => void
    readonly toggleFeatured: () => void
    readonly toggleActive: () => void
    readonly edit: () => void
    readonly remove: () => void
  }
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
        <Badge color={statusColors[shown]}>{t.statuses[shown]}</Badge>
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
    <Flex gap="2" mt="3" wrap="wrap">
      {actions.map((action) => (
        <Button
          key={action}
          size="1"
          tabIndex={-1}
          variant="soft"
          color={action === "reject" ? "red" : action === "approve" ? "green" : "gray"}
          onClick={() => on.act(action)}
        >
          {t.actions[action]}
        </Button>
      ))}
      {kind.setFeatured !== undefined && !busy && (
        <Button size="1" tabIndex={-1} variant="soft" color="gray" onClick={on.toggleFeatured}>
          {listing.featured === true ? t.unfeature : t.feature}
        </Button>
      )}
      {kind.setActive !== undefined && !busy && (
        <Button size="1" tabIndex={-1} variant="soft" color="gray" onClick={on.toggleActive}>
          {listing.isActive === false ? t.show : t.hide}
        </Button>
      )}
      {canEdit && (
        <Button size="1" tabIndex={-1} variant="soft" color="gray" onClick={on.edit}>
          {t.edit}
        </Button>
      )}
      {canEdit && (
        <Button size="1" tabIndex={-1} variant="soft" color="red" onClick={on.remove}>
          {t.delete}
        </Button>
      )}
    </Flex>
  </div>
)
