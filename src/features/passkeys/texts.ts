/** The passkeys screen's words (docs/console.md, "Passkeys"). */
export const passkeyTexts = {
  title: "Passkeys",
  intro:
    "A passkey signs you in with your device's lock (a fingerprint, a face, a PIN or a security key) instead of a code by e-mail. It works only on this console's own address, so a page pretending to be it cannot use it.",
  name: "Passkey name",
  nameHint: "Where it lives, so you can tell them apart: “Work laptop”, “Phone”.",
  add: "Add a passkey",
  adding: "Waiting for your device…",
  added: (name: string) => `Passkey “${name}” added.`,
  addFailed: "The passkey was not added",
  cancelled: "Your device or browser cancelled it, or it took too long.",
  unsupported: "This browser cannot make passkeys.",
  loading: "Loading passkeys...",
  loadFailed: "Failed to fetch passkeys",
  empty: "No passkeys yet. Add one to sign in without a code.",
  remove: "Remove",
  removing: "Removing…",
  removeTitle: "Remove passkey",
  confirmRemove: "Remove this passkey? It will no longer sign you in.",
  removeFailed: "Failed to remove passkey",
  cancel: "Cancel",
  synced: "Synced",
  thisDevice: "This device only",
  never: "Never"
} as const
