import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"
import { ACTIVITY_PATH } from "../../lib/paths.ts"

const ActivityScreen = loadScreen(() => import("./ActivityScreen.tsx").then((module) => module.ActivityScreen))

export const activityRoutes: ReadonlyArray<FeatureRoute> = [{ path: ACTIVITY_PATH, render: () => <ActivityScreen /> }]
