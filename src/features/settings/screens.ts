export { AdminsScreen } from "./AdminsScreen.tsx"
export { IpsScreen } from "./IpsScreen.tsx"
export { SessionsScreen } from "./SessionsScreen.tsx"
export { SettingsScreen } from "./SettingsScreen.tsx"
