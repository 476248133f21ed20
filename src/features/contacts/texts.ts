import { fetchFailed } from "../../lib/failure-words.ts"
import { contactStatusWords } from "../../kinds/contacts.ts"

/** docs/product-spec.md §2 "Core Team Contacts", §3, §5; quoted texts are exact. */
export const coreTeamTexts = {
  title: "Core Team Contacts",
  add: "Add New Contact",
  addTitle: "Add New Core Team Contact",
  editTitle: "Edit Core Team Contact",
  create: "Create",
  update: "Update",
  saving: "Saving…",
  cancel: "Cancel",
  edit: "Edit",
  delete: "Delete",
  deleting: "Deleting…",
  deleteTitle: "Delete contact",
  confirmDelete: "Are you sure you want to delete this core team contact?",
  deleteFailed: "Failed to delete contact",
  saveFailed: "Failed to save contact",
  loading: "Loading core team contacts...",
  loadFailed: fetchFailed("core team contacts"),
  empty: "No core team contacts found",
  searchLabel: "Search contacts",
  searchPlaceholder: "Search name, email, subject...",
  refresh: "Refresh",
  allStatuses: "All statuses",
  allPriorities: "All priorities",
  statuses: contactStatusWords,
  priorities: { low: "Low", medium: "Medium", high: "High", urgent: "Urgent" } as Record<string, string>,
  required: "Fields marked * are required.",
  submitted: (date: string) => `Submitted ${date}`
} as const
