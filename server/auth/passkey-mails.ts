/**
 * What the owner of an account is told by mail when its passkeys or recovery codes change
 * (docs/security.md, "Passkeys"): someone else holding a signed-in session is seen, as a sign-in
 * code shows a sign-in. Each is sent through the mail outbox (server/platform/mail-outbox.ts).
 */

const tellASuperAdmin = "tell a super admin at once: they can reset your passkeys and end every session."

export const passkeyAddedMail = (email: string, name: string, ip: string) => ({
  to: email,
  subject: "A passkey was added to your account",
  text: [
    `A passkey named “${name}” was added to the admin console account ${email}, from the address ${ip}.`,
    `It signs in to this account from now on. If you did not add it, remove it in Settings → Passkeys and ${tellASuperAdmin}`
  ].join("\n")
})

export const passkeyRemovedMail = (email: string, name: string, ip: string) => ({
  to: email,
  subject: "A passkey was removed from your account",
  text: [
    `The passkey named “${name}” was removed from the admin console account ${email}, from the address ${ip}. It no longer signs in.`,
    `If you did not remove it, ${tellASuperAdmin}`
  ].join("\n")
})

export const passkeyRenamedMail = (email: string, before: string, after: string, ip: string) => ({
  to: email,
  subject: "A passkey of your account was renamed",
  text: [
    `The passkey named “${before}” of the admin console account ${email} is now named “${after}”; renamed from the address ${ip}.`,
    `If you did not rename it, ${tellASuperAdmin}`
  ].join("\n")
})

export const recoveryMadeMail = (email: string, ip: string) => ({
  to: email,
  subject: "New recovery codes were made for your account",
  text: [
    `Ten new recovery codes were made for the admin console account ${email}, from the address ${ip}; the earlier ones no longer work.`,
    `If you did not make them, make new ones at once in Settings → Passkeys and ${tellASuperAdmin}`
  ].join("\n")
})
