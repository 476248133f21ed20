import type { Destination } from "../../lib/navigation.ts"
import { settingsScreenDestinations } from "../../lib/destinations.ts"

/** Under Settings in the sidebar and in the palette (g k); declared in src/lib/destinations.ts, which the settings screen lists too. */
export const passkeyDestinations: ReadonlyArray<Destination> = [settingsScreenDestinations.passkeys]
