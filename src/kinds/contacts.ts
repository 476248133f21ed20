import { type ContactStatus, contactStatuses } from "../../contract/contact-rules.ts"
import type { CoreTeamContact } from "../../contract/contacts.ts"
import { contactStatusCommand } from "../api/contacts.ts"
import type { Decision } from "./decision.ts"

/** A contact's statuses in the spec's words (docs/product-spec.md §2 "Core Team Contacts"). */
export const contactStatusWords = {
  new: "New",
  in_progress: "In Progress",
  responded: "Responded",
  resolved: "Resolved",
  closed: "Closed"
} as const satisfies Record<ContactStatus, string>

export const contactStatusFailed = "Failed to change the status"

/** `1`–`5`: the contact's status. Back to New leaves it waiting. */
export const contactDecisions: ReadonlyArray<Decision<CoreTeamContact>> = contactStatuses.map((status, at) => ({
  id: `contact:status:${status}`,
  key: String(at + 1),
  name: `Set status ${contactStatusWords[status]}`,
  hint: "set the status (new, in progress, responded, resolved, closed)",
  when: (contact) => contact.status !== status,
  asksReason: false,
  movesOn: status !== "new",
  commands: (contact, { title }) => [
    contactStatusCommand(contact, status, contact.version, { label: `${contactStatusWords[status]}: ${title}`, failed: contactStatusFailed })
  ]
}))
