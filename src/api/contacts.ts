import type { ContactInput, ContactPage, CoreTeamContact } from "../../contract/contacts.ts"
import { paths } from "virtual:answer-schemas"
import contactPage from "virtual:answer-schemas/contactPage"
import { getChecked } from "./checked-answer.ts"
import { getCsv } from "./csv.ts"
import { filteredPagePath } from "./list-paths.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import type { ContactStatus } from "../../contract/contact-rules.ts"
import type { CommandInput } from "../lib/store/console-store.ts"
import { callTo } from "./endpoints.ts"
import type { CallAs, CsvFile } from "./client.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

/** The screen's CSV: every contact its search and filters match. */
export const exportContacts = (q: ListQuery): Promise<CsvFile> => getCsv(filteredPagePath(paths.contacts, q), "core-team-contacts.csv")

/** A page of contacts (10): the one start-up asked for if it is this one, else a request checked the same way, without effect's client. */
export const listContacts = async (q: ListQuery): Promise<ListPage<CoreTeamContact>> => {
  const answer = await getChecked<{ readonly data: ContactPage["data"] }>(filteredPagePath(paths.contacts, q), contactPage)
  return { rows: answer.data.contacts, pagination: answer.data.pagination }
}

/** The browser's store's name for contacts (the stream's area). */
export const CONTACT_KIND = "contact" as const

/** Adds a contact, or replaces one at the version it was read; `as`: what it does in the browser's store. */
export const saveContact = async (target: CoreTeamContact | null, input: ContactInput, as?: CallAs): Promise<unknown> => {
  const { callApi } = await api()
  if (target === null) return callApi((client) => client.contacts.create({ payload: input }), as)
  return callApi((client) => client.contacts.update({ params: { id: target._id }, payload: { ...input, version: target.version } }), as)
}

export const deleteContact = async (target: CoreTeamContact, as?: CallAs): Promise<void> => {
  const { callApi } = await api()
  await callApi((client) => client.contacts.remove({ params: { id: target._id }, query: { version: target.version } }), as)
}

/**
 * A status key as a command (docs/architecture.md, "The browser's store"): the contact as shown
 * (this browser's waiting changes on it) with its new status, at the version those lead to.
 */
export const contactStatusCommand = (
  contact: CoreTeamContact,
  status: ContactStatus,
  version: number,
  words: { readonly label: string; readonly failed: string }
): CommandInput => ({
  kind: CONTACT_KIND,
  recordIds: [contact._id],
  ...callTo("contactUpdate", { id: contact._id }),
  body: { ...inputOf(contact), status, version },
  effect: { status },
  answer: "data.contact",
  ...words
})

/** What a contact's form sends back: every field as it is, for a status change from the keyboard. */
export const inputOf = (contact: CoreTeamContact): ContactInput => ({
  contactInfo: { ...contact.contactInfo },
  inquiry: { ...contact.inquiry },
  projectInfo: { ...contact.projectInfo },
  status: contact.status,
  submittedAt: contact.submittedAt,
  assignedTo: contact.assignedTo,
  response: contact.response,
  internalNotes: contact.internalNotes,
  followUpRequired: contact.followUpRequired,
  expectedResponseTime: contact.expectedResponseTime
})
