import { CounterClockwiseClockIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"

/** The activity log's one address: the shell knows it without the log's code. */
export const ACTIVITY_PATH = "/activity"

/** Not in the spec's sidebar: reached from the palette (g l), the dashboard and every record's history. */
export const activityDestinations: ReadonlyArray<Destination> = [
  { path: ACTIVITY_PATH, label: "Activity Log", title: "Activity Log", icon: CounterClockwiseClockIcon, key: "l" }
]
