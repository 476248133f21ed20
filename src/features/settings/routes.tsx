import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"

// Its own chunk, loaded when the screen opens (docs/architecture.md, "First screen").
const SettingsScreen = loadScreen(() => import("./SettingsScreen.tsx").then((module) => module.SettingsScreen))

export const settingsRoutes: ReadonlyArray<FeatureRoute> = [{ path: "/settings", render: () => <SettingsScreen /> }]
