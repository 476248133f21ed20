import { BackpackIcon, CalendarIcon, ChatBubbleIcon, CodeIcon, LightningBoltIcon, RocketIcon, StarIcon } from "@radix-ui/react-icons"
import type { ListingType } from "../../../contract/listings.ts"
import type { Destination } from "../../lib/navigation.ts"

/** Each listing type's screen: the one place its path is written. */
export const listingPaths = {
  community: "/communities",
  influencer: "/influencers",
  business: "/businesses",
  startup: "/startups",
  project: "/projects",
  event: "/events",
  hackathon: "/hackathons"
} as const satisfies Record<ListingType, string>

/** The moderated queues, in the sidebar's order. */
export const listingDestinations: ReadonlyArray<Destination> = [
  { path: listingPaths.community, label: "Communities", title: "Community Management", icon: ChatBubbleIcon, key: "o" },
  { path: listingPaths.influencer, label: "Influencers", title: "Influencer Management", icon: StarIcon, key: "i" },
  { path: listingPaths.business, label: "Business Listings", title: "Business Listings", icon: BackpackIcon, key: "u" },
  { path: listingPaths.startup, label: "Startup Listings", title: "Startup Listings", icon: RocketIcon, key: "s" },
  { path: listingPaths.project, label: "Project Listings", title: "Project Listings", icon: CodeIcon, key: "p" },
  { path: listingPaths.event, label: "Events", title: "Events Management", icon: CalendarIcon, key: "e" },
  { path: listingPaths.hackathon, label: "Hackathons", title: "Hackathons Management", icon: LightningBoltIcon, key: "h" }
]

/** Where "New event" and "New hackathon" go from anywhere: the screen opens its form on arrival. */
export const NEW_RECORD_STATE = { openNewRecord: true } as const
