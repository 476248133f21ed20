import { fetchFailed } from "../../lib/failure-words.ts"

/** Admin users' words (docs/product-spec.md §2, Settings). */
export const adminUserTexts = {
  title: "Admin Users",
  add: "Add admin",
  addTitle: "Add an admin",
  editTitle: "Edit admin",
  create: "Add",
  update: "Save",
  saving: "Saving…",
  cancel: "Cancel",
  edit: "Edit",
  disable: "Disable",
  enable: "Enable",
  disabling: "Disabling…",
  disableTitle: "Disable admin",
  confirmDisable: "Disable this admin? They are signed out everywhere at once and can't sign in until enabled again. Their records and history stay.",
  loading: "Loading admins...",
  loadFailed: fetchFailed("admins"),
  saveFailed: "Failed to save the admin",
  changeFailed: "Failed to change the admin",
  empty: "No admins match this search",
  searchLabel: "Search admins",
  searchPlaceholder: "E-mail or name...",
  refresh: "Refresh",
  email: "E-mail",
  name: "Display name",
  nameHint: "What readers see on their posts; never the e-mail.",
  role: "Role",
  you: "you",
  never: "never",
  added: (email: string) => `${email} was added: they sign in with a code sent to that address.`
} as const
