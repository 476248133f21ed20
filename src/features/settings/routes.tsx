import type { FeatureRoute } from "../../lib/navigation.ts"
import { SettingsScreen } from "./SettingsScreen.tsx"

export const settingsRoutes: ReadonlyArray<FeatureRoute> = [{ path: "/settings", render: () => <SettingsScreen /> }]
