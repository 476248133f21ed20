import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"

// Its own chunk (docs/architecture.md, "First screen"): nothing the first screen loads grows with it.
const ScamReportsScreen = loadScreen(() => import("./ScamReportsScreen.tsx").then((module) => module.ScamReportsScreen))

export const scamReportRoutes: ReadonlyArray<FeatureRoute> = [{ path: "/scam-reports", render: () => <ScamReportsScreen /> }]
