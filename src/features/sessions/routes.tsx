import type { FeatureRoute } from "../../lib/navigation.ts"
import { settingsPaths } from "../../lib/paths.ts"
import { loadScreen } from "../../ui/deferred.tsx"

// Its own chunk, loaded when the screen opens (docs/architecture.md, "First screen").
const SessionsScreen = loadScreen(() => import("./SessionsScreen.tsx").then((module) => module.SessionsScreen))

export const sessionRoutes: ReadonlyArray<FeatureRoute> = [{ path: settingsPaths.sessions, render: () => <SessionsScreen /> }]
