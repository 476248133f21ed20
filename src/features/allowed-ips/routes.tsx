import type { FeatureRoute } from "../../lib/navigation.ts"
import { settingsPaths } from "../../lib/paths.ts"
import { loadScreen } from "../../ui/deferred.tsx"

// Its own chunk, loaded when the screen opens (docs/architecture.md, "First screen").
const AllowedIpsScreen = loadScreen(() => import("./AllowedIpsScreen.tsx").then((module) => module.AllowedIpsScreen))

export const allowedIpRoutes: ReadonlyArray<FeatureRoute> = [{ path: settingsPaths.ips, render: () => <AllowedIpsScreen /> }]
