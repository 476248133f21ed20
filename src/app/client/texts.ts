import { changeCount } from "../../lib/change-count.ts"

/** What the console says about its link with the server and its waiting changes (docs/architecture.md, "The browser's store"). */
export const syncTexts = {
  /** The link is down: how many changes wait (the shell says the browser is offline: src/app/Shell.tsx). */
  waiting: (waiting: number) => {
    const { changes, are } = changeCount(waiting)
    return `${changes} ${are} waiting: they are sent, in order, when the connection is back.`
  },
  /** The browser has a link but the server does not answer. */
  unreachable: "The server can't be reached. What you change is kept in this browser and sent when it is back.",
  saving: (waiting: number) => `Saving ${changeCount(waiting).changes}…`,
  showHistory: "Show history",
  dismiss: "Dismiss",
  /** A change refused because a colleague changed the record first: what it was, who, when; the person's change is kept. */
  conflict: (failed: string, label: string, who: string | null, when: string | null) =>
    `${failed}: ${label}. ${who === null ? "Someone else" : who} changed it ${when === null ? "since you read it" : `at ${when}`}; your change is kept here.`,
  applyAgain: "Apply mine again",
  theSite: "The site",
  applyAgainCommand: (label: string) => `Apply my change again: ${label}`,
  compare: "Compare in history",
  discard: "Discard mine",
  signOutTitle: "Sign out with changes waiting?",
  signOutQuestion: (waiting: number) => {
    const { changes, have, them } = changeCount(waiting)
    return `${changes} ${have} not reached the server yet. Signing out now deletes ${them} from this browser.`
  },
  stay: "Stay signed in",
  signOut: "Sign out anyway"
} as const
