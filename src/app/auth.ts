import { fromPromise } from "xstate"
import { authMachine } from "../../machines/auth.ts"
import { arrivedSession, checkSession, rememberedUser, requestOtp, signInWithPasskey, stepWithPasskey, stepWithRecoveryCode, verifyOtp } from "../api/auth.ts"
import type { AuthInput } from "../lib/auth.tsx"
import { holdSession } from "../api/session.ts"
import { revokeKept, signOutOf } from "../api/revoke.ts"
import { setConfirmGate } from "../lib/confirm-gate.ts"
import { BROWSER_KEY, TOKEN_KEY, USER_KEY } from "../lib/token.ts"
import { forgetSnapshot } from "../lib/list/tab-snapshot.ts"
import { signingInSoon } from "./start/signed-in-chunk.ts"

/** This browser's key, made (32 random bytes, URL-safe) the first time it is needed; none without storage. */
const browserKey = (): string | undefined => {
  const storage = globalThis.localStorage
  if (storage === undefined) return undefined
  const kept = storage.getItem(BROWSER_KEY)
  if (kept !== null && /^[\w-]{43}$/u.test(kept)) return kept
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  const made = btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/u, "")
  storage.setItem(BROWSER_KEY, made)
  return made
}

/** The auth machine with the real API and browser storage (src/lib/auth.tsx holds its context). */
export const consoleAuthMachine = authMachine.provide({
  actors: {
    checkSession: fromPromise(({ input }) => {
      holdSession(input.token)
      return checkSession()
    }),
    requestOtp: fromPromise(({ input }) => {
      signingInSoon()
      return requestOtp(input.email, input.role, browserKey())
    }),
    verifyOtp: fromPromise(({ input }) => verifyOtp(input.email, input.otp, input.attempt, browserKey())),
    passkeySignIn: fromPromise(async () => {
      signingInSoon()
      const { token, user } = await signInWithPasskey()
      return { token, user }
    }),
    stepWithPasskey: fromPromise(async ({ input }) => {
      const { token, user } = await stepWithPasskey(input.step)
      return { token, user }
    }),
    stepWithRecoveryCode: fromPromise(async ({ input }) => {
      const { token, user } = await stepWithRecoveryCode(input.step, input.code)
      return { token, user }
    }),
    // The session is held (passkeyRequired's entry); the device's refusal is said in the machine's words.
    addPasskey: fromPromise(async ({ input }) => {
      const { addPasskey, CeremonyRefused } = await import("../api/passkeys.ts")
      return addPasskey(input.name).catch((error: unknown) => {
        throw error instanceof CeremonyRefused ? new Error(error.message) : error
      })
    }),
    // Signing out: the token was forgotten as LOGOUT arrived; it is revoked now, or at the next
    // contact when the link is down (src/api/revoke.ts).
    endSession: fromPromise(({ input }) => signOutOf(input.token))
  },
  actions: {
    // The API layer holds the session's token from here on (src/api/session.ts); the browser
    // keeps who it is for, to open signed in when the server can't be reached (machines/auth.ts).
    storeSession: ({ context }) => {
      if (context.token === null) return
      // The server answered: a sign-out it could not hear before is sent now.
      void revokeKept()
      holdSession(context.token)
      localStorage.setItem(TOKEN_KEY, context.token)
      localStorage.setItem(USER_KEY, JSON.stringify(context.user))
    },
    forgetSession: ({ event }) => {
      holdSession(null)
      // The gate before changes that matter is the signed-in session's (src/lib/confirm-gate.ts).
      setConfirmGate(undefined)
      forgetSnapshot()
      localStorage.removeItem(TOKEN_KEY)
      localStorage.removeItem(USER_KEY)
      // The server ended it (a 401, a refused check): the records read go now, not at the next
      // sign-in (docs/security.md, "What stays in the browser"). A sign-out deletes the whole
      // store itself, once the person has agreed to lose what waits (./client/ConsoleClient.tsx).
      if (event.type !== "LOGOUT") void import("./client/session-ended.ts").then((ended) => ended.forgetSessionRecords())
    }
  }
})

/** The stored token, its session when start-up's check of it has already answered, and who it was for. */
export const startingInput = (): AuthInput => {
  const storedToken = globalThis.localStorage?.getItem(TOKEN_KEY) ?? null
  holdSession(storedToken)
  if (storedToken === null) return { storedToken }
  return { storedToken, checkedUser: arrivedSession(), rememberedUser: rememberedUser(localStorage.getItem(USER_KEY)) }
}
