import { createActorContext } from "@xstate/react"
import { type ReactNode, useState } from "react"
import { arrivedSession, checkSession, endSession, requestOtp, verifyOtp } from "../api/auth.ts"
import { authMachine } from "../../machines/auth.ts"
import { fromPromise } from "xstate"

import { TOKEN_KEY } from "./token.ts"

export { TOKEN_KEY }

/** The auth machine with the real API and browser storage. */
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

export const AuthContext = createActorContext(consoleAuthMachine)

/** The stored token, and its session when start-up's check of it has already answered. */
const startingInput = () => {
  const storedToken = globalThis.localStorage?.getItem(TOKEN_KEY) ?? null
  return { storedToken, checkedUser: storedToken === null ? undefined : arrivedSession(storedToken) }
}

/** The auth machine for the console, started from what is known when the console mounts. */
export const AuthProvider = ({ children }: { readonly children: ReactNode }) => {
  const [input] = useState(startingInput)
  return <AuthContext.Provider options={{ input }}>{children}</AuthContext.Provider>
}
