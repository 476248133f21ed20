import type { FeatureRoute } from "../../lib/navigation.ts"
import { settingsPaths } from "../../lib/paths.ts"
import { loadScreen } from "../../ui/deferred.tsx"

// Its own chunk, loaded when the screen opens (docs/architecture.md, "First screen").
const PasskeysScreen = loadScreen(() => import("./PasskeysScreen.tsx").then((module) => module.PasskeysScreen))

export const passkeyRoutes: ReadonlyArray<FeatureRoute> = [{ path: settingsPaths.passkeys, render: () => <PasskeysScreen /> }]
