/** Confirming it's you again: the dialog's words (docs/console.md, "Confirm it's you"). */
export const confirmTexts = {
  title: "Confirm it's you",
  command: "Confirm it's you",
  passkeyIntro: "This change asks for your passkey again: the last time was more than 10 minutes ago.",
  codeIntro: (email: string) => `This change asks you to confirm it's you. We sent a 6-digit code to ${email}.`,
  usePasskey: "Use my passkey",
  waiting: "Waiting for your passkey…",
  codeLabel: "Confirmation code",
  confirm: "Confirm",
  checking: "Checking…",
  resend: "Send a new code",
  sending: "Sending a code…",
  cancel: "Cancel"
} as const
