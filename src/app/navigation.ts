import {
  BackpackIcon,
  CalendarIcon,
  ChatBubbleIcon,
  CodeIcon,
  CubeIcon,
  DashboardIcon,
  ExclamationTriangleIcon,
  GearIcon,
  IdCardIcon,
  LightningBoltIcon,
  PersonIcon,
  ReaderIcon,
  RocketIcon,
  SpeakerLoudIcon,
  StarIcon,
  TokensIcon
} from "@radix-ui/react-icons"
import type { ComponentType } from "react"

export interface Destination {
  readonly path: string
  /** The sidebar entry, docs/product-spec.md §2 "Admin shell". */
  readonly label: string
  /** The screen's heading. */
  readonly title: string
  readonly icon: ComponentType
  /** Pressed after `g` to go there. */
  readonly key: string
}

/** The 16 guarded screens, in the spec's sidebar order. */
export const destinations: ReadonlyArray<Destination> = [
  { path: "/", label: "Dashboard", title: "Dashboard", icon: DashboardIcon, key: "d" },
  { path: "/blog", label: "Blog Management", title: "Blog Management", icon: ReaderIcon, key: "b" },
  { path: "/generated-addresses", label: "Generated Addresses", title: "Generated Addresses", icon: TokensIcon, key: "g" },
  { path: "/cex-addresses", label: "CEX Addresses", title: "CEX Addresses", icon: CubeIcon, key: "x" },
  { path: "/core-team-addresses", label: "Core Team Addresses", title: "Core Team Addresses", icon: IdCardIcon, key: "t" },
  { path: "/communities", label: "Communities", title: "Community Management", icon: ChatBubbleIcon, key: "o" },
  { path: "/influencers", label: "Influencers", title: "Influencer Management", icon: StarIcon, key: "i" },
  { path: "/businesses", label: "Business Listings", title: "Business Listings", icon: BackpackIcon, key: "u" },
  { path: "/startups", label: "Startup Listings", title: "Startup Listings", icon: RocketIcon, key: "s" },
  { path: "/projects", label: "Project Listings", title: "Project Listings", icon: CodeIcon, key: "p" },
  { path: "/events", label: "Events", title: "Events Management", icon: CalendarIcon, key: "e" },
  { path: "/hackathons", label: "Hackathons", title: "Hackathons Management", icon: LightningBoltIcon, key: "h" },
  { path: "/core-team", label: "Core Team Contacts", title: "Core Team Contacts", icon: PersonIcon, key: "c" },
  { path: "/advertising-inquiries", label: "Advertising Inquiries", title: "Advertising Inquiries", icon: SpeakerLoudIcon, key: "a" },
  { path: "/scam-reports", label: "Scam Reports", title: "Scam Reports Management", icon: ExclamationTriangleIcon, key: "r" },
  { path: "/settings", label: "Settings", title: "Settings", icon: GearIcon, key: "," }
]

/** A route is active by prefix, except `/`, which must match exactly. */
export const isActive = (path: string, location: string): boolean =>
  path === "/" ? location === "/" : location === path || location.startsWith(`${path}/`)
