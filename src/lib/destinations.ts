import { CounterClockwiseClockIcon, GlobeIcon, LaptopIcon, LockClosedIcon, PersonIcon } from "@radix-ui/react-icons"
import type { Destination } from "./navigation.ts"
import { ACTIVITY_PATH, settingsPaths } from "./paths.ts"

/**
 * The activity log as a destination: not in the spec's sidebar, reached from the palette (g l),
 * the dashboard, Settings and every record's history. Here, not in the log's feature, because
 * Settings lists it too and features never import each other (docs/architecture.md, "Layers").
 */
export const activityDestinations: ReadonlyArray<Destination> = [
  { path: ACTIVITY_PATH, label: "Activity Log", title: "Activity Log", icon: CounterClockwiseClockIcon, key: "l" }
]

/**
 * The screens under Settings (their own areas: admin users, allowed addresses, sessions, passkeys): in the
 * sidebar under Settings (active by prefix), in the palette, and listed on the settings screen.
 * Here for the same reason as the activity log's.
 */
export const settingsScreenDestinations = {
  adminUsers: { path: settingsPaths.admins, label: "Admin Users", title: "Admin Users", icon: PersonIcon, key: "m" },
  allowedIps: { path: settingsPaths.ips, label: "Allowed IP Addresses", title: "Allowed IP Addresses", icon: GlobeIcon, key: "w" },
  sessions: { path: settingsPaths.sessions, label: "Sessions", title: "Sessions", icon: LaptopIcon, key: "n" },
  passkeys: { path: settingsPaths.passkeys, label: "Passkeys", title: "Passkeys", icon: LockClosedIcon, key: "k" }
} as const satisfies Readonly<Record<string, Destination>>
