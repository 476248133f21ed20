import { DashboardIcon } from "@radix-ui/react-icons"
import { addressDestinations } from "../features/addresses/navigation.ts"
import { blogDestinations } from "../features/blog/navigation.ts"
import { listingDestinations } from "../features/listings/navigation.ts"
import { scamReportDestinations } from "../features/scam-reports/navigation.ts"
import { inboxDestinations } from "../features/core-team/navigation.ts"
import { settingsDestinations } from "../features/settings/navigation.ts"
import type { Destination } from "../lib/navigation.ts"

export { isActive } from "../lib/navigation.ts"

/** Screens whose features are still to come; they show their title until then. */
const comingScreens = {
  dashboard: { path: "/", label: "Dashboard", title: "Dashboard", icon: DashboardIcon, key: "d" }
} as const satisfies { dashboard: Destination }

/** The 16 guarded screens, in the spec's sidebar order; each feature declares its own. */
export const destinations: ReadonlyArray<Destination> = [
  comingScreens.dashboard,
  ...blogDestinations,
  ...addressDestinations,
  ...listingDestinations,
  ...inboxDestinations,
  ...scamReportDestinations,
  ...settingsDestinations
]
