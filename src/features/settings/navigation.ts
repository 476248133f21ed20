import { GearIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"

export const settingsDestinations: ReadonlyArray<Destination> = [{ path: "/settings", label: "Settings", title: "Settings", icon: GearIcon, key: "," }]
