import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"
import { settingsPaths } from "../../lib/paths.ts"

// The settings screens share one chunk, loaded when one of them opens: none of it is on the
// first screen's path (docs/architecture.md, "First screen").
const screens = () => import("./screens.ts")
const SettingsScreen = loadScreen(() => screens().then((module) => module.SettingsScreen))
const AdminsScreen = loadScreen(() => screens().then((module) => module.AdminsScreen))
const IpsScreen = loadScreen(() => screens().then((module) => module.IpsScreen))
const SessionsScreen = loadScreen(() => screens().then((module) => module.SessionsScreen))

export const settingsRoutes: ReadonlyArray<FeatureRoute> = [
  { path: "/settings", render: () => <SettingsScreen /> },
  { path: settingsPaths.admins, render: () => <AdminsScreen /> },
  { path: settingsPaths.ips, render: () => <IpsScreen /> },
  { path: settingsPaths.sessions, render: () => <SessionsScreen /> }
]
