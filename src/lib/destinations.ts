import { CounterClockwiseClockIcon } from "@radix-ui/react-icons"
import type { Destination } from "./navigation.ts"
import { ACTIVITY_PATH } from "./paths.ts"

/**
 * The activity log as a destination: not in the spec's sidebar, reached from the palette (g l),
 * the dashboard, Settings and every record's history. Here, not in the log's feature, because
 * Settings lists it too and features never import each other (docs/architecture.md, "Layers").
 */
export const activityDestinations: ReadonlyArray<Destination> = [
  { path: ACTIVITY_PATH, label: "Activity Log", title: "Activity Log", icon: CounterClockwiseClockIcon, key: "l" }
]
