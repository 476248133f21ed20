import { fromPromise } from "xstate"
import { authMachine } from "../../machines/auth.ts"
import { arrivedSession, checkSession, endSession, requestOtp, verifyOtp } from "../api/auth.ts"
import type { AuthInput } from "../lib/auth.tsx"
import { holdSession } from "../api/session.ts"
import { TOKEN_KEY } from "../lib/token.ts"

/** The auth machine with the real API and browser storage (src/lib/auth.tsx holds its context). */
export const consoleAuthMachine = authMachine.provide({
  actors: {
    checkSession: fromPromise(({ input }) => {
      holdSession(input.token)
      return checkSession()
    }),
    requestOtp: fromPromise(({ input }) => requestOtp(input.email, input.role)),
    verifyOtp: fromPromise(({ input }) => verifyOtp(input.email, input.otp)),
    // Signing out: the token was forgotten as LOGOUT arrived; the logout call still carries it.
    endSession: fromPromise(({ input }) => {
      holdSession(input.token)
      return endSession().finally(() => holdSession(null))
    })
  },
  actions: {
    // The API layer holds the session's token from here on (src/api/session.ts).
    storeToken: (_, params) => {
      holdSession(params.token)
      localStorage.setItem(TOKEN_KEY, params.token)
    },
    forgetToken: () => {
      holdSession(null)
      localStorage.removeItem(TOKEN_KEY)
    }
  }
})

/** The stored token, and its session when start-up's check of it has already answered. */
export const startingInput = (): AuthInput => {
  const storedToken = globalThis.localStorage?.getItem(TOKEN_KEY) ?? null
  holdSession(storedToken)
  return { storedToken, checkedUser: storedToken === null ? undefined : arrivedSession() }
}
