import { addressDestinations } from "../features/addresses/navigation.ts"
import { blogDestinations } from "../features/blog/navigation.ts"
import { listingDestinations } from "../features/listings/navigation.ts"
import { scamReportDestinations } from "../features/scam-reports/navigation.ts"
import { contactDestinations } from "../features/contacts/navigation.ts"
import { advertisingDestinations } from "../features/advertising/navigation.ts"
import { settingsDestinations } from "../features/settings/navigation.ts"
import { adminUserDestinations } from "../features/admin-users/navigation.ts"
import { allowedIpDestinations } from "../features/allowed-ips/navigation.ts"
import { sessionDestinations } from "../features/sessions/navigation.ts"
import { passkeyDestinations } from "../features/passkeys/navigation.ts"
import { dashboardDestinations } from "../features/dashboard/navigation.ts"
import { triageDestinations } from "../features/triage/navigation.ts"
import { activityDestinations } from "../lib/destinations.ts"
import type { Destination } from "../lib/navigation.ts"

export { isActive } from "../lib/navigation.ts"

/** The 16 guarded screens, in the spec's sidebar order, and the triage desk after the dashboard; each feature declares its own. */
export const destinations: ReadonlyArray<Destination> = [
  ...dashboardDestinations,
  ...triageDestinations,
  ...blogDestinations,
  ...addressDestinations,
  ...listingDestinations,
  ...contactDestinations,
  ...advertisingDestinations,
  ...scamReportDestinations,
  ...settingsDestinations
]

/** Screens beyond the spec's sidebar: the palette and links reach them (`g` and their key). */
export const paletteDestinations: ReadonlyArray<Destination> = [
  ...activityDestinations,
  ...adminUserDestinations,
  ...allowedIpDestinations,
  ...sessionDestinations,
  ...passkeyDestinations
]
