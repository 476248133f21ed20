import { Redirect, Route, Switch } from "wouter"
import { AddressesScreen } from "../features/addresses/AddressesScreen.tsx"
import { SettingsScreen } from "../features/settings/SettingsScreen.tsx"
import { Screen } from "../ui/Screen.tsx"
import { destinations } from "./navigation.ts"
import { Shell } from "./Shell.tsx"

/** Screens that later issues fill in show their title until then. */
const built: Record<string, () => React.JSX.Element> = {
  "/settings": SettingsScreen,
  "/generated-addresses": () => <AddressesScreen key="generated" kind="generated" />,
  "/cex-addresses": () => <AddressesScreen key="cex" kind="cex" />,
  "/core-team-addresses": () => <AddressesScreen key="core-team" kind="core-team" />
}

/** The shell and every guarded screen; loaded only once someone is signed in. */
export default function AuthenticatedApp() {
  return (
    <Shell>
      <Switch>
        {destinations.map((destination) => {
          const Built = built[destination.path]
          return (
            <Route key={destination.path} path={destination.path}>
              {Built === undefined ? <Screen title={destination.title} /> : <Built />}
            </Route>
          )
        })}
        <Route>
          <Redirect to="/" replace />
        </Route>
      </Switch>
    </Shell>
  )
}
