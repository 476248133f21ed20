import { useEffect, useState } from "react"
import { Redirect, Route, Switch } from "wouter"
import { preloadApi } from "../api/auth.ts"
import { addressRoutes } from "../features/addresses/routes.tsx"
import { blogRoutes } from "../features/blog/routes.tsx"
import { listingRoutes } from "../features/listings/routes.tsx"
import { scamReportRoutes } from "../features/scam-reports/routes.tsx"
import { triageRoutes } from "../features/triage/routes.tsx"
import { advertisingRoutes } from "../features/advertising/routes.tsx"
import { contactRoutes } from "../features/contacts/routes.tsx"
import { settingsRoutes } from "../features/settings/routes.tsx"
import { adminUserRoutes } from "../features/admin-users/routes.tsx"
import { allowedIpRoutes } from "../features/allowed-ips/routes.tsx"
import { sessionRoutes } from "../features/sessions/routes.tsx"
import { passkeyRoutes } from "../features/passkeys/routes.tsx"
import { dashboardRoutes } from "../features/dashboard/routes.tsx"
import { activityRoutes } from "../features/activity/routes.tsx"
import { HistoryHost } from "../features/history/HistoryHost.tsx"
import type { FeatureRoute } from "../lib/navigation.ts"
import { AuthContext } from "../lib/auth.tsx"
import { STORE_KEPT_KEY } from "../lib/store/handle.ts"
import { afterFirstScreen } from "../lib/first-screen.ts"
import { loadPart, whenQuiet } from "../ui/deferred.tsx"
import { Screen } from "../ui/Screen.tsx"
import { destinations } from "./navigation.ts"
import { Shell } from "./Shell.tsx"
import { ConfirmAgainHost } from "./ConfirmAgainHost.tsx"

const featureRoutes: ReadonlyArray<FeatureRoute> = [
  ...dashboardRoutes,
  ...activityRoutes,
  ...blogRoutes,
  ...addressRoutes,
  ...listingRoutes,
  ...contactRoutes,
  ...advertisingRoutes,
  ...scamReportRoutes,
  ...triageRoutes,
  ...settingsRoutes,
  ...adminUserRoutes,
  ...allowedIpRoutes,
  ...sessionRoutes,
  ...passkeyRoutes
]
const served = new Set(featureRoutes.map((route) => route.path))

// The first screen reads its answers without the effect client (src/api/checked-answer.ts), and a
// directory's or the blog's next pages and searches do too; the client loads in the first quiet
// moment, ahead of the screens' chunks (docs/architecture.md, "Interactions").
whenQuiet(preloadApi, { first: true })
// The service worker's install fetches every built file: after the first screen, in a quiet moment,
// or a few seconds after it at the latest, so a person who keeps working still has the console's
// files kept for their next load (docs/decisions.md, "The service worker").
let registering: Promise<void> | undefined
const registerOnce = () => (registering ??= import("./offline/register.ts").then((offline) => offline.registerServiceWorker()))
whenQuiet(registerOnce)
afterFirstScreen(() => setTimeout(() => void registerOnce().catch(() => undefined), SERVICE_WORKER_AT_THE_LATEST_MS))

/** How long after the first screen's content the service worker is registered, quiet or not. */
const SERVICE_WORKER_AT_THE_LATEST_MS = 5_000

const ConsoleClient = loadPart(() => import("./client/ConsoleClient.tsx").then((module) => module.default))
/** How long after the first screen's content the client opens on a first visit: after its rows, before most keys. */
const CLIENT_AFTER_MS = 400

/**
 * The browser's store and its notices (src/app/client/): at once for a person whose store has
 * kept pages (a screen seen before shows from it), else just after the first screen's content, so
 * a first visit loads nothing more before its rows (docs/performance.md).
 */
const Client = () => {
  const owner = AuthContext.useSelector((snapshot) => snapshot.context.user?._id)
  const [wanted, setWanted] = useState(() => owner !== undefined && localStorage.getItem(STORE_KEPT_KEY) === owner)
  useEffect(() => afterFirstScreen(() => void setTimeout(() => setWanted(true), CLIENT_AFTER_MS)), [])
  return owner !== undefined && wanted ? <ConsoleClient key={owner} owner={owner} /> : null
}

/** The shell and every guarded screen; loaded only once someone is signed in. */
export default function AuthenticatedApp() {
  return (
    <HistoryHost>
      <Shell>
        <Client />
        <ConfirmAgainHost />
        <Switch>
          {featureRoutes.map((route) => (
            <Route key={route.key ?? route.path} path={route.path}>
              {(params) => route.render(params)}
            </Route>
          ))}
          {destinations
            .filter((destination) => !served.has(destination.path))
            .map((destination) => (
              <Route key={destination.path} path={destination.path}>
                <Screen title={destination.title} />
              </Route>
            ))}
          <Route>
            <Redirect to="/" replace />
          </Route>
        </Switch>
      </Shell>
    </HistoryHost>
  )
}
