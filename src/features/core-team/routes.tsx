import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"

// Its own chunk (docs/architecture.md, "First screen"): nothing the first screen loads grows with it.
const CoreTeamScreen = loadScreen(() => import("./CoreTeamScreen.tsx").then((module) => module.CoreTeamScreen))

export const coreTeamRoutes: ReadonlyArray<FeatureRoute> = [{ path: "/core-team", render: () => <CoreTeamScreen /> }]
