import {
  DashboardIcon,
  PersonIcon,
  SpeakerLoudIcon
} from "@radix-ui/react-icons"
import { addressDestinations } from "../features/addresses/navigation.ts"
import { blogDestinations } from "../features/blog/navigation.ts"
import { listingDestinations } from "../features/listings/navigation.ts"
import { scamReportDestinations } from "../features/scam-reports/navigation.ts"
import { settingsDestinations } from "../features/settings/navigation.ts"
import type { Destination } from "../lib/navigation.ts"

export { isActive } from "../lib/navigation.ts"

/** Screens whose features are still to come; they show their title until then. */
const comingScreens = {
  dashboard: { path: "/", label: "Dashboard", title: "Dashboard", icon: DashboardIcon, key: "d" },
  rest: [
    { path: "/core-team", label: "Core Team Contacts", title: "Core Team Contacts", icon: PersonIcon, key: "c" },
    { path: "/advertising-inquiries", label: "Advertising Inquiries", title: "Advertising Inquiries", icon: SpeakerLoudIcon, key: "a" }
  ]
} as const satisfies { dashboard: Destination; rest: ReadonlyArray<Destination> }

/** The 16 guarded screens, in the spec's sidebar order; each feature declares its own. */
export const destinations: ReadonlyArray<Destination> = [
  comingScreens.dashboard,
  ...blogDestinations,
  ...addressDestinations,
  ...listingDestinations,
  ...comingScreens.rest,
  ...scamReportDestinations,
  ...settingsDestinations
]
