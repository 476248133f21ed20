import { DashboardIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"

export const dashboardDestinations: ReadonlyArray<Destination> = [{ path: "/", label: "Dashboard", title: "Dashboard", icon: DashboardIcon, key: "d" }]
