import { fromPromise } from "xstate"
import { authMachine } from "../../machines/auth.ts"
import { arrivedSession, checkSession, endSession, requestOtp, verifyOtp } from "../api/auth.ts"
import type { AuthInput } from "../lib/auth.tsx"
import { TOKEN_KEY } from "../lib/token.ts"

/** The auth machine with the real API and browser storage (src/lib/auth.tsx holds its context). */
export const consoleAuthMachine = authMachine.provide({
  actors: {
    checkSession: fromPromise(({ input }) => checkSession(input.token)),
    requestOtp: fromPromise(({ input }) => requestOtp(input.email, input.role)),
    verifyOtp: fromPromise(({ input }) => verifyOtp(input.email, input.otp)),
    endSession: fromPromise(({ input }) => endSession(input.token))
  },
  actions: {
    storeToken: (_, params) => localStorage.setItem(TOKEN_KEY, params.token),
    forgetToken: () => localStorage.removeItem(TOKEN_KEY)
  }
})

/** The stored token, and its session when start-up's check of it has already answered. */
export const startingInput = (): AuthInput => {
  const storedToken = globalThis.localStorage?.getItem(TOKEN_KEY) ?? null
  return { storedToken, checkedUser: storedToken === null ? undefined : arrivedSession(storedToken) }
}
