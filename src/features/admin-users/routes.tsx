import type { FeatureRoute } from "../../lib/navigation.ts"
import { settingsPaths } from "../../lib/paths.ts"
import { loadScreen } from "../../ui/deferred.tsx"

// Its own chunk, loaded when the screen opens (docs/architecture.md, "First screen").
const AdminUsersScreen = loadScreen(() => import("./AdminUsersScreen.tsx").then((module) => module.AdminUsersScreen))

export const adminUserRoutes: ReadonlyArray<FeatureRoute> = [{ path: settingsPaths.admins, render: () => <AdminUsersScreen /> }]
