import type { AdminUser, OtpNotSent, OtpRequested, SignedIn } from "../../contract/auth.ts"
import type { AuthenticationOptions } from "../../contract/passkeys.ts"
import type { VerifyAnswer } from "../../machines/auth.ts"
import type { Role } from "../../contract/common.ts"
import type { Health } from "../../contract/system.ts"
import { takePrefetched } from "./prefetch.ts"
import { paths, sessionCheck } from "virtual:answer-schemas"
import { arrivedChecked, checkedAnswer } from "./checked-answer.ts"
import { firstFailure } from "../../contract/json-check.ts"
import type { CallFailure } from "../../contract/call-failure.ts"

/**
 * The effect client is loaded on first use, so the sign-in form is usable before it arrives;
 * it is fetched right after start-up either way (a stored token is checked at once).
 */
const api = () => import("./client.ts")

const refused = (message: string): CallFailure => ({ status: 401, message })
const unexpected: CallFailure = { status: undefined, message: "Unexpected answer from the server" }

/**
 * A code was asked for (`success: true`, naming the attempt to sign in with), or the answer says
 * none was sent (`success: false`). `browser` is this browser's key (src/app/auth.ts): one it
 * signed in as `email` from keeps its own codes while strangers guess (docs/security.md).
 */
export const requestOtp = async (email: string, role: Role, browser: string | undefined): Promise<OtpRequested | OtpNotSent> => {
  const { callApi } = await api()
  const answer = await callApi((client) => client.auth.signIn({ payload: { email, role, ...(browser === undefined ? {} : { browser }) } }))
  if ("token" in answer || "secondStep" in answer) throw unexpected
  return answer
}

/** A right code's answer: a session (with `passkeyDueBy` when the role requires a passkey the person lacks), or the second step. */
export const verifyOtp = async (email: string, otp: string, attempt: string | null, browser: string | undefined): Promise<VerifyAnswer> => {
  const { callApi } = await api()
  const payload = { email, otp, ...(attempt === null ? {} : { attempt }), ...(browser === undefined ? {} : { browser }) }
  const answer = await callApi((client) => client.auth.signIn({ payload }))
  if ("secondStep" in answer) return { step: answer.step, recoveryCodes: answer.recoveryCodes }
  if (!("token" in answer)) throw answer.success ? unexpected : refused(answer.message ?? "")
  return answer
}

/** `@simplewebauthn/browser`, loaded when a passkey is first used (never with the first screen). */
export const webauthn = () => import("@simplewebauthn/browser")

/**
 * The device's answer to `options` through `@simplewebauthn/browser`: `device` is its module, asked
 * for as the ceremony starts so it loads while the options are on their way. No answer from the
 * device rejects with no status, as a lost link does; an answer the contract refuses is a refusal
 * (src/api/device-answer.ts).
 */
export const askDevice = async (options: AuthenticationOptions, device = webauthn()) => {
  const { startAuthentication } = await device
  const answer = await startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]["optionsJSON"] }).catch(
    (error: unknown): never => {
      // No status: the device's refusal, worded by the sign-in machine (machines/auth.ts).
      throw new Error(error instanceof Error ? error.message : String(error))
    }
  )
  const { sendableAnswer } = await import("./device-answer.ts")
  return sendableAnswer(answer, "get")
}

/** Signs in with a passkey (docs/api.md, "Passkeys"): the server's options, the device's answer, the session. */
export const signInWithPasskey = async (): Promise<SignedIn> => {
  const device = webauthn()
  const { callApi } = await api()
  const options = (await callApi((client) => client.passkeySignIn.options())).data
  const credential = await askDevice(options, device)
  return callApi((client) => client.passkeySignIn.signIn({ payload: { credential } }))
}

/** Finishes a code sign-in's second step with one of the account's passkeys. */
export const stepWithPasskey = async (step: string): Promise<SignedIn> => {
  const device = webauthn()
  const { callApi } = await api()
  const options = (await callApi((client) => client.passkeySignIn.stepOptions({ payload: { step } }))).data
  const credential = await askDevice(options, device)
  return callApi((client) => client.passkeySignIn.stepPasskey({ payload: { step, credential } }))
}

/** Finishes a code sign-in's second step with one of the account's recovery codes. */
export const stepWithRecoveryCode = async (step: string, code: string): Promise<SignedIn> => {
  const { callApi } = await api()
  return callApi((client) => client.passkeySignIn.stepRecovery({ payload: { step, code } }))
}

/** The session check's path, which start-up asks for at once when a token is stored. */
export const SESSION_CHECK_PATH = paths.sessionCheck

export const checkSession = async (): Promise<AdminUser> => {
  const prefetched = takePrefetched(SESSION_CHECK_PATH)
  if (prefetched !== undefined) {
    return (await checkedAnswer<{ readonly user: AdminUser }>(prefetched, sessionCheck)).user
  }
  const { callApi } = await api()
  return (await callApi((client) => client.auth.check())).user
}

/**
 * The stored token's session if start-up's check has already answered and is well formed: the
 * console then starts signed in, in one render. Anything else (not here yet, refused, malformed)
 * is left to `checkSession`, which reports it the usual way.
 */
export const arrivedSession = (): AdminUser | undefined => arrivedChecked<{ readonly user: AdminUser }>(SESSION_CHECK_PATH, sessionCheck)?.user

/** The user kept beside the token (src/app/auth.ts), if it is still one the session check could answer. */
export const rememberedUser = (kept: string | null): AdminUser | undefined => {
  try {
    const user: unknown = JSON.parse(kept ?? "null")
    return firstFailure(sessionCheck, { success: true, user }) === undefined ? (user as AdminUser) : undefined
  } catch {
    return undefined
  }
}

export const fetchHealth = async (): Promise<Health> => {
  const { callApi } = await api()
  return callApi((client) => client.system.health())
}

/** Starts loading the client; settles once it has loaded (a preload waits for it). */
export const preloadApi = () => api()
