import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"

// Its own chunk (docs/architecture.md, "First screen"): nothing the first screen loads grows with it.
const ContactsScreen = loadScreen(() => import("./ContactsScreen.tsx").then((module) => module.ContactsScreen))

export const contactRoutes: ReadonlyArray<FeatureRoute> = [{ path: "/core-team", render: () => <ContactsScreen /> }]
