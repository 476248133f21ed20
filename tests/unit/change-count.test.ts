import { describe, expect, it } from "vitest"
import { syncTexts } from "../../src/app/client/texts.ts"
import { signInTexts } from "../../src/features/auth/texts.ts"
import { changeCount } from "../../src/lib/change-count.ts"

/**
 * How many changes wait, in the console's words (docs/console.md, "Offline"): one change and
 * several, on the sign-in screen after a session ended and in the shell's link notices, from the
 * one place that says singular or plural (src/lib/change-count.ts).
 */
describe("the words for changes waiting", () => {
  it("says one change and several alike on every screen", () => {
    expect(signInTexts.changesWaiting(1)).toBe(
      "Your session ended before 1 change you made reached the server. It is kept in this browser: sign in again to send it. Signing in as someone else deletes it."
    )
    expect(signInTexts.changesWaiting(3)).toBe(
      "Your session ended before 3 changes you made reached the server. They are kept in this browser: sign in again to send them. Signing in as someone else deletes them."
    )
    expect(syncTexts.waiting(1)).toBe("1 change is waiting: they are sent, in order, when the connection is back.")
    expect(syncTexts.waiting(2)).toBe("2 changes are waiting: they are sent, in order, when the connection is back.")
    expect(syncTexts.saving(1)).toBe("Saving 1 change…")
    expect(syncTexts.saving(4)).toBe("Saving 4 changes…")
    expect(syncTexts.signOutQuestion(1)).toBe("1 change has not reached the server yet. Signing out now deletes it from this browser.")
    expect(syncTexts.signOutQuestion(5)).toBe("5 changes have not reached the server yet. Signing out now deletes them from this browser.")
  })

  it("counts zero and many as plural", () => {
    expect(changeCount(0).changes).toBe("0 changes")
    expect(changeCount(12)).toEqual({ changes: "12 changes", they: "They", them: "them", are: "are", have: "have" })
  })
})
