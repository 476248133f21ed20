import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"

// Its own chunk (docs/architecture.md, "First screen"): nothing the first screen loads grows with it.
const AdvertisingScreen = loadScreen(() => import("./AdvertisingScreen.tsx").then((module) => module.AdvertisingScreen))

export const advertisingRoutes: ReadonlyArray<FeatureRoute> = [{ path: "/advertising-inquiries", render: () => <AdvertisingScreen /> }]
