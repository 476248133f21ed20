import { GearIcon, GlobeIcon, LaptopIcon, PersonIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"
import { settingsPaths } from "../../lib/paths.ts"

export const settingsDestinations: ReadonlyArray<Destination> = [{ path: "/settings", label: "Settings", title: "Settings", icon: GearIcon, key: "," }]

/** The settings' own screens: under Settings in the sidebar (active by prefix), and in the palette. */
export const settingsScreens: ReadonlyArray<Destination> = [
  { path: settingsPaths.admins, label: "Admin Users", title: "Admin Users", icon: PersonIcon, key: "m" },
  { path: settingsPaths.ips, label: "Allowed IP Addresses", title: "Allowed IP Addresses", icon: GlobeIcon, key: "w" },
  { path: settingsPaths.sessions, label: "Sessions", title: "Sessions", icon: LaptopIcon, key: "n" }
]
