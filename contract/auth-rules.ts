/**
 * Sign-in's numbers, without effect: the sign-in form is on the first screen, which loads no
 * effect (docs/architecture.md, "First screen"), so it reads them from here and not from
 * contract/auth.ts.
 */

/** One code is mailed a minute per e-mail (and per browser it signed in from): the console counts it down (docs/security.md, "Sign-in"). */
export const OTP_RESEND_SECONDS = 60
