import { BackpackIcon, CalendarIcon, ChatBubbleIcon, CodeIcon, LightningBoltIcon, RocketIcon, StarIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"

/** The moderated queues, in the sidebar's order. */
export const listingDestinations: ReadonlyArray<Destination> = [
  { path: "/communities", label: "Communities", title: "Community Management", icon: ChatBubbleIcon, key: "o" },
  { path: "/influencers", label: "Influencers", title: "Influencer Management", icon: StarIcon, key: "i" },
  { path: "/businesses", label: "Business Listings", title: "Business Listings", icon: BackpackIcon, key: "u" },
  { path: "/startups", label: "Startup Listings", title: "Startup Listings", icon: RocketIcon, key: "s" },
  { path: "/projects", label: "Project Listings", title: "Project Listings", icon: CodeIcon, key: "p" },
  { path: "/events", label: "Events", title: "Events Management", icon: CalendarIcon, key: "e" },
  { path: "/hackathons", label: "Hackathons", title: "Hackathons Management", icon: LightningBoltIcon, key: "h" }
]

/** Where "New event" and "New hackathon" go from anywhere: the screen opens its form on arrival. */
export const NEW_RECORD_STATE = { openNewRecord: true } as const
