import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"

// Its own chunk (docs/architecture.md, "First screen"): the chart and the figures load with it.
const DashboardScreen = loadScreen(() => import("./DashboardScreen.tsx").then((module) => module.DashboardScreen))

export const dashboardRoutes: ReadonlyArray<FeatureRoute> = [{ path: "/", render: () => <DashboardScreen /> }]
