import type { FeatureRoute } from "../../lib/navigation.ts"
import { TRIAGE_PATH } from "../../lib/paths.ts"
import { loadScreen } from "../../ui/deferred.tsx"

// Its own chunk (docs/architecture.md, "First screen"): nothing the first screen loads grows with it.
const TriageScreen = loadScreen(() => import("./TriageScreen.tsx").then((module) => module.TriageScreen))

export const triageRoutes: ReadonlyArray<FeatureRoute> = [{ path: TRIAGE_PATH, render: () => <TriageScreen /> }]
