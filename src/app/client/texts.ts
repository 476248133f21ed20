/** What the console says about its link with the server and its waiting changes (docs/architecture.md, "The browser's store"). */
export const syncTexts = {
  offline: (waiting: number) =>
    waiting === 0
      ? "You are offline. What you change is kept in this browser and sent when the connection is back."
      : `You are offline. ${waiting === 1 ? "1 change is" : `${waiting} changes are`} waiting: they are sent, in order, when the connection is back.`,
  saving: (waiting: number) => (waiting === 1 ? "Saving 1 change…" : `Saving ${waiting} changes…`),
  showHistory: "Show history",
  dismiss: "Dismiss",
  signOutTitle: "Sign out with changes waiting?",
  signOutQuestion: (waiting: number) =>
    `${waiting === 1 ? "1 change has" : `${waiting} changes have`} not reached the server yet. Signing out now deletes ${waiting === 1 ? "it" : "them"} from this browser.`,
  stay: "Stay signed in",
  signOut: "Sign out anyway"
} as const
