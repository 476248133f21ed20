import { OTP_RESEND_SECONDS } from "../../contract/auth.ts"
import type { RateLimitRule } from "../platform/rate-limit.ts"

/** The sign-in numbers of docs/decisions.md, in one place. */
export const OTP_TTL_MINUTES = 10
export const OTP_MAX_ATTEMPTS = 5
/** A browser that signed in as an e-mail stays known for it this long after its last sign-in. */
export const KNOWN_BROWSER_DAYS = 90
/**
 * Codes typed for one e-mail from browsers it has not signed in from, per day, whatever their
 * addresses: each is one chance in a million, so a day holds at most 2 x 20 (a window's end and
 * the next one's start) = 40 in a million, under the 1 in 10,000 docs/security.md promises.
 */
export const GUESSES_PER_DAY = 20
/** After this many codes typed in a day, the admin is told (and again when the day's are used up). */
export const GUESS_NOTICE_AT = 10

const FIFTEEN_MINUTES = 15 * 60
const ONE_DAY = 24 * 60 * 60

export const limits = {
  /** One person at one address asking again and again. */
  codeRequestsPerEmailAndIp: { name: "otp-email-ip", limit: 5, windowSeconds: FIFTEEN_MINUTES },
  /**
   * One code request per e-mail a minute is acted on; the others are answered (200) with when a
   * new code can be asked for. Counted for every e-mail asked about, admin or not, so the answer
   * tells nobody who is an admin; never a 429, so it cannot lock an admin out. Signing in with
   * the code ends the minute, so a second device asks at once.
   */
  codeResendsPerEmail: { name: "otp-resend", limit: 1, windowSeconds: OTP_RESEND_SECONDS },
  codeRequestsPerIp: { name: "otp-ip", limit: 20, windowSeconds: FIFTEEN_MINUTES },
  /**
   * Codes typed for one e-mail, from every address together: from browsers not known for it as
   * one budget, from each known browser as its own (counted under `email|browser`), so
   * strangers using up the first never keep the admin out of a browser they signed in from.
   */
  codeGuesses: { name: "otp-guess", limit: GUESSES_PER_DAY, windowSeconds: ONE_DAY },
  verificationsPerIp: { name: "verify-ip", limit: 30, windowSeconds: FIFTEEN_MINUTES },
  /** Passkey sign-ins answered from one address (server/auth/passkeys.ts), as the code's checks. */
  passkeySignInsPerIp: { name: "passkey-ip", limit: 30, windowSeconds: FIFTEEN_MINUTES },
  /**
   * Recovery codes typed for one account in a day, as the code's (docs/security.md, "Passkeys"):
   * each guess is one chance in 2^60 for each of ten codes, and a step is tried five times at most.
   */
  recoveryGuesses: { name: "recovery-guess", limit: GUESSES_PER_DAY, windowSeconds: ONE_DAY },
  /** Confirmations one session asks for or answers (server/auth/confirm.ts): passkey options, answers, codes mailed and typed. */
  confirmationsPerSession: { name: "confirm-session", limit: 20, windowSeconds: FIFTEEN_MINUTES },
  /** Passkey sign-ins started from one address: each keeps a challenge for 5 minutes. */
  passkeyOptionsPerIp: { name: "passkey-options-ip", limit: 60, windowSeconds: FIFTEEN_MINUTES },
  /**
   * Sign-outs by a token's hash from one address (docs/api.md, "Sign-out"): a console sends one per
   * sign-out made with no link, and retries it with backoff; a guesser has 2^256 hashes to try.
   */
  revocationsPerIp: { name: "revoke-ip", limit: 30, windowSeconds: FIFTEEN_MINUTES }
} satisfies Record<string, RateLimitRule>

export const messages = {
  codeRequested: `If this e-mail belongs to an admin, a 6-digit code has been sent to it. The code is valid for ${OTP_TTL_MINUTES} minutes.`,
  codeKept: (seconds: number) =>
    `If this e-mail belongs to an admin, a code was sent to it less than a minute ago. If that code no longer works, a new one can be sent in ${seconds} second${seconds === 1 ? "" : "s"}.`,
  invalidCode: "Invalid or expired code. Request a new one if needed.",
  missingStep: "Send either role (to get a code) or otp (to sign in with it).",
  mailFailed: "Failed to send OTP: the e-mail could not be delivered. Try again later.",
  sessionInvalid: "Your session has expired or is not valid. Please sign in again.",
  tooMany: (wait: string) => `Too many attempts. Try again ${wait}.`,
  /** The day's codes for an e-mail are used up: said alike for every e-mail, admin or not. */
  paused: (wait: string) => `Too many codes were tried for this e-mail today. Sign in from a browser you have signed in from before, or try again ${wait}.`,
  attemptMissing: "is missing: ask for a code first, and send the attempt its answer names"
} as const
