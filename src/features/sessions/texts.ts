import { fetchFailed } from "../../lib/failure-words.ts"

/** The sessions screen's words. */
export const sessionTexts = {
  title: "Sessions",
  mine: "Your sessions",
  everyone: "Everyone's sessions",
  loading: "Loading sessions...",
  loadFailed: fetchFailed("the sessions"),
  empty: "No open sessions",
  signOut: "Sign out",
  noPasskey: "Not used",
  signOutOthers: "Sign out everywhere else",
  current: "This session",
  ended: (n: number) => (n === 0 ? "No other session was open." : `Signed out of ${n} other session${n === 1 ? "" : "s"}.`),
  failed: "Failed to sign the session out",
  refresh: "Refresh"
} as const
