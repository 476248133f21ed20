import type { Destination } from "../../lib/navigation.ts"
import { settingsScreenDestinations } from "../../lib/destinations.ts"

/** Under Settings in the sidebar and in the palette; declared in src/lib/destinations.ts, which the settings screen lists too. */
export const sessionDestinations: ReadonlyArray<Destination> = [settingsScreenDestinations.sessions]
