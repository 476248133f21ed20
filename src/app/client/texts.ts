/** What the console says about its link with the server and its waiting changes (docs/architecture.md, "The browser's store"). */
export const syncTexts = {
  /** The link is down: how many changes wait (the shell says the browser is offline: src/app/Shell.tsx). */
  waiting: (waiting: number) => `${waiting === 1 ? "1 change is" : `${waiting} changes are`} waiting: they are sent, in order, when the connection is back.`,
  /** The browser has a link but the server does not answer. */
  unreachable: "The server can't be reached. What you change is kept in this browser and sent when it is back.",
  saving: (waiting: number) => (waiting === 1 ? "Saving 1 change…" : `Saving ${waiting} changes…`),
  showHistory: "Show history",
  dismiss: "Dismiss",
  signOutTitle: "Sign out with changes waiting?",
  signOutQuestion: (waiting: number) =>
    `${waiting === 1 ? "1 change has" : `${waiting} changes have`} not reached the server yet. Signing out now deletes ${waiting === 1 ? "it" : "them"} from this browser.`,
  stay: "Stay signed in",
  signOut: "Sign out anyway"
} as const
