import type { ContactStatus } from "../../../contract/contact-rules.ts"
import { fetchFailed } from "../../lib/failure-words.ts"

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
  statusFailed: "Failed to change the status",
  loading: "Loading core team contacts...",
  loadFailed: fetchFailed("core team contacts"),
  empty: "No core team contacts found",
  searchLabel: "Search contacts",
  searchPlaceholder: "Search name, email, subject...",
  refresh: "Refresh",
  allStatuses: "All statuses",
  allPriorities: "All priorities",
  dismiss: "Dismiss",
  statuses: { new: "New", in_progress: "In Progress", responded: "Responded", resolved: "Resolved", closed: "Closed" } satisfies Record<ContactStatus, string>,
  priorities: { low: "Low", medium: "Medium", high: "High", urgent: "Urgent" } as Record<string, string>,
  required: "Fields marked * are required.",
  submitted: (date: string) => `Submitted ${date}`,
  statusHint: "set the status (new, in progress, responded, resolved, closed)"
} as const
