import { BackpackIcon, CalendarIcon, ChatBubbleIcon, CodeIcon, LightningBoltIcon, RocketIcon, StarIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"
import { listingPaths } from "../../lib/paths.ts"

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
