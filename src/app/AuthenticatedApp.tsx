import { Redirect, Route, Switch } from "wouter"
import { AddressesScreen } from "../features/addresses/AddressesScreen.tsx"
import { BlogEditorScreen } from "../features/blog/BlogEditorScreen.tsx"
import { BlogScreen } from "../features/blog/BlogScreen.tsx"
import { SettingsScreen } from "../features/settings/SettingsScreen.tsx"
import { Screen } from "../ui/Screen.tsx"
import { destinations } from "./navigation.ts"
import { Shell } from "./Shell.tsx"

/** Screens that later issues fill in show their title until then. */
const built: Record<string, () => React.JSX.Element> = {
  "/settings": SettingsScreen,
  "/blog": BlogScreen,
  "/generated-addresses": () => <AddressesScreen key="generated" kind="generated" />,
  "/cex-addresses": () => <AddressesScreen key="cex" kind="cex" />,
  "/core-team-addresses": () => <AddressesScreen key="core-team" kind="core-team" />
}

/** The shell and every guarded screen; loaded only once someone is signed in. */
export default function AuthenticatedApp() {
  return (
    <Shell>
      <Switch>
        {/* One key for both: a new post's first save moves it to its own address without reopening it. */}
        <Route key="blog-editor" path="/blog/new">{() => <BlogEditorScreen slug={null} />}</Route>
        <Route key="blog-editor" path="/blog/:slug/edit">{(params) => <BlogEditorScreen slug={decodeURIComponent(params.slug)} />}</Route>
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
