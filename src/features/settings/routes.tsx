import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"
import { settingsPaths } from "../activity/record-link.ts"
import { SettingsScreen } from "./SettingsScreen.tsx"

// The admin-management screens share one chunk, loaded when one of them opens.
const screens = () => import("./screens.ts")
const AdminsScreen = loadScreen(() => screens().then((module) => module.AdminsScreen))
const IpsScreen = loadScreen(() => screens().then((module) => module.IpsScreen))
const SessionsScreen = loadScreen(() => screens().then((module) => module.SessionsScreen))

export const settingsRoutes: ReadonlyArray<FeatureRoute> = [
  { path: "/settings", render: () => <SettingsScreen /> },
  { path: settingsPaths.admins, render: () => <AdminsScreen /> },
  { path: settingsPaths.ips, render: () => <IpsScreen /> },
  { path: settingsPaths.sessions, render: () => <SessionsScreen /> }
]
