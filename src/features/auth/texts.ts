import { changeCount } from "../../lib/change-count.ts"
/** The sign-in screen's words, docs/product-spec.md §2, exact where quoted there. */
export const signInTexts = {
  title: "Admin Console",
  intro: "Sign in with a one-time code sent to your e-mail.",
  email: "Email",
  role: "Role",
  send: "Send OTP",
  sending: "Sending OTP...",
  /** Ours (docs/console.md, "Passkeys"). */
  passkey: "Sign in with a passkey",
  passkeyWaiting: "Waiting for your passkey…",
  codeTitle: "Enter OTP Code",
  codeSent: (email: string) => `We sent a 6-digit code to ${email}.`,
  /** No new code was sent: one was asked for less than a minute ago (the server's answer says when). */
  codeKept: (email: string, seconds: number) =>
    `A code was sent to ${email} less than a minute ago. If it no longer works, a new code can be sent in ${seconds} second${seconds === 1 ? "" : "s"}.`,
  codeRequired: "is required",
  codeLabel: "OTP code",
  codePlaceholder: "Enter 6-digit code",
  verify: "Verify & Login",
  verifying: "Verifying...",
  differentEmail: "Use different email",
  /** Offered on the code step once the minute between codes is over, counted down until then. */
  resend: "Send a new code",
  resendIn: (seconds: number) => `Send a new code in ${seconds} s`,
  resending: "Sending a new code...",
  /** Ours (docs/console.md, "Passkeys"): the second step, when the role requires a passkey. */
  stepTitle: "Confirm with your passkey",
  stepIntro: "Your code is right. Your role requires a passkey too: use one of yours to finish signing in.",
  usePasskey: "Use my passkey",
  stepWaiting: "Waiting for your passkey…",
  lostDevice: "Lost your device? Use a recovery code",
  recoveryLabel: "Recovery code",
  recoveryHint: "One of the ten codes you saved when you made them. Each works once.",
  recoveryPlaceholder: "xxxx-xxxx-xxxx",
  useRecovery: "Sign in with the recovery code",
  recovering: "Checking the code…",
  noRecovery: "No recovery codes are left on this account. Without your passkey, ask a super admin to reset your passkeys.",
  /** Ours: signed in with the code alone within the grace; a passkey is asked for first. */
  requiredTitle: "Add a passkey",
  requiredIntro: (dueBy: string) =>
    `Your role requires a passkey. Until ${dueBy} a code by e-mail still signs you in; after that, only with a passkey. Add one now: it takes a touch or your device's PIN.`,
  passkeyName: "Passkey name",
  passkeyNameHint: "Where it lives, so you can tell them apart: “Work laptop”, “Phone”.",
  addPasskey: "Add a passkey",
  adding: "Waiting for your device…",
  later: "Later",
  /** Ours (docs/security.md, "What stays in the browser"): the server ended the session before the person's changes reached it. */
  changesWaiting: (count: number) => {
    const { changes, they, are, them } = changeCount(count)
    return `Your session ended before ${changes} you made reached the server. ${they} ${are} kept in this browser: sign in again to send ${them}. Signing in as someone else deletes ${them}.`
  },
  logout: "Logout"
} as const

export const roleOptions = [
  { value: "super_admin", label: "Super Admin" },
  { value: "admin", label: "Admin" },
  { value: "moderator", label: "Moderator" }
] as const
