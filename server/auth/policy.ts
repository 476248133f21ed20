import type { RateLimitRule } from "../platform/rate-limit.ts"

/** The sign-in numbers of docs/decisions.md, in one place. */
export const OTP_TTL_MINUTES = 10
export const OTP_MAX_ATTEMPTS = 5
/** A code this young is kept when another is asked for, so nobody can kill the code an admin is typing. */
export const OTP_KEEP_SECONDS = 60
export const SESSION_ABSOLUTE_HOURS = 12
export const SESSION_IDLE_MINUTES = 120
/** A session's last-seen time is written at most this often, so checks stay reads. */
export const SESSION_TOUCH_SECONDS = 60

const FIFTEEN_MINUTES = 15 * 60

export const limits = {
  /** One person at one address asking again and again. */
  codeRequestsPerEmailAndIp: { name: "otp-email-ip", limit: 5, windowSeconds: FIFTEEN_MINUTES },
  /**
   * Mail about one e-mail's sign-in is slowed, never refused: a code is replaced at most once
   * every `OTP_KEEP_SECONDS`, and a role notice is sent as rarely. Nothing is counted for an
   * e-mail from all addresses together, so strangers with any number of addresses cannot make
   * the admin's own request a 429 (docs/security.md).
   */
  roleNoticesPerEmail: { name: "otp-role-notice", limit: 1, windowSeconds: OTP_KEEP_SECONDS },
  /**
   * One code request per e-mail a minute is acted on; the others are answered (200) with when a
   * new code can be asked for. Counted for every e-mail asked about, admin or not, so the answer
   * tells nobody who is an admin; never a 429, so it cannot lock an admin out. Signing in with
   * the code ends the minute, so a second device asks at once.
   */
  codeResendsPerEmail: { name: "otp-resend", limit: 1, windowSeconds: OTP_KEEP_SECONDS },
  codeRequestsPerIp: { name: "otp-ip", limit: 20, windowSeconds: FIFTEEN_MINUTES },
  verificationsPerIp: { name: "verify-ip", limit: 30, windowSeconds: FIFTEEN_MINUTES }
} satisfies Record<string, RateLimitRule>

export const messages = {
  codeRequested: `If this e-mail belongs to an admin, a 6-digit code has been sent to it. The code is valid for ${OTP_TTL_MINUTES} minutes.`,
  codeKept: (seconds: number) =>
    `If this e-mail belongs to an admin, a code was sent to it less than a minute ago. If that code no longer works, a new one can be sent in ${seconds} second${seconds === 1 ? "" : "s"}.`,
  invalidCode: "Invalid or expired code. Request a new one if needed.",
  missingStep: "Send either role (to get a code) or otp (to sign in with it).",
  mailFailed: "Failed to send OTP: the e-mail could not be delivered. Try again later.",
  sessionInvalid: "Your session has expired or is not valid. Please sign in again.",
  tooMany: (wait: string) => `Too many attempts. Try again ${wait}.`
} as const
