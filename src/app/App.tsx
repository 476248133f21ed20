import { type ReactNode, Suspense, use, useEffect, useState } from "react"
import { Redirect, Route, Router, Switch } from "wouter"
import { SignInScreen } from "../features/auth/SignInScreen.tsx"
import { FullPageSpinner } from "../ui/FullPageSpinner.tsx"
import { AuthContext, AuthProvider } from "../lib/auth.tsx"
import { whenTokenRefused } from "../api/session.ts"
import { consoleAuthMachine, startingInput } from "./auth.ts"
import { CommandProvider } from "../lib/commands.tsx"
import { ErrorBoundary } from "./ErrorScreen.tsx"
import { useGuardedLocation } from "../lib/leave-guard.ts"
import { ThemeProvider } from "../lib/theme.tsx"
import { preloadSignedInScreens, signedInScreensIfLoaded } from "./start/signed-in-chunk.ts"

/**
 * The signed-in screens, from their chunk. The same component renders before and after the chunk
 * arrives, so the screens are never mounted twice; once the chunk is there (start-up fetches it
 * at once with a stored token) it renders without suspending.
 */
const SignedInScreens = () => {
  const Screens = signedInScreensIfLoaded() ?? use(preloadSignedInScreens())
  return <Screens />
}

type Phase = "loading" | "signedIn" | "signedOut"

const usePhase = (): Phase =>
  AuthContext.useSelector((snapshot) =>
    snapshot.matches("starting") || snapshot.matches("checking") ? "loading" : snapshot.matches("authenticated") ? "signedIn" : "signedOut"
  )

const LoginRoute = () => {
  const phase = usePhase()
  if (phase === "loading") return <FullPageSpinner label="Checking your session…" />
  if (phase === "signedIn") return <Redirect to="/" replace />
  return <SignInScreen />
}

const GuardedRoutes = () => {
  const phase = usePhase()
  if (phase === "loading") return <FullPageSpinner label="Checking your session…" />
  if (phase === "signedOut") return <Redirect to="/login" replace />
  return (
    <Suspense fallback={<FullPageSpinner label="Loading…" />}>
      <SignedInScreens />
    </Suspense>
  )
}

/** A 401 to any call made with the session's token ends the session (docs/security.md, "What stays in the browser"). */
const SessionWatch = () => {
  const auth = AuthContext.useActorRef()
  useEffect(() => {
    whenTokenRefused(() => auth.send({ type: "SESSION_EXPIRED" }))
    return () => whenTokenRefused(undefined)
  }, [auth])
  return null
}

/** The auth machine with the real API, started from what is known when the console mounts. */
const ConsoleAuth = ({ children }: { readonly children: ReactNode }) => {
  const [input] = useState(startingInput)
  return (
    <AuthProvider logic={consoleAuthMachine} input={input}>
      <SessionWatch />
      {children}
    </AuthProvider>
  )
}

export const App = () => (
  <ThemeProvider>
    <ErrorBoundary>
      <ConsoleAuth>
        <Router hook={useGuardedLocation}>
          <CommandProvider>
            <Switch>
              <Route path="/login" component={LoginRoute} />
              <Route component={GuardedRoutes} />
            </Switch>
          </CommandProvider>
        </Router>
      </ConsoleAuth>
    </ErrorBoundary>
  </ThemeProvider>
)
