import type { AdvertisingInquiry, InquiryCounts } from "../../contract/advertising.ts"
import type { industries } from "../../contract/inquiry-rules.ts"
import type { ContactInput, CoreTeamContact } from "../../contract/contacts.ts"
import type { InquiryStatus } from "../../contract/inquiry-rules.ts"
import type { InquiryMove } from "../../machines/inquiry.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")
import type { CsvFile } from "./client.ts"

type Industry = (typeof industries)[number]

export type InquiriesPage = ListPage<AdvertisingInquiry> & { readonly counts: InquiryCounts }

const inquiryFilters = (q: ListQuery) => ({
  ...(q.search.trim() === "" ? {} : { search: q.search.trim() }),
  ...(q.filters.status === undefined ? {} : { status: q.filters.status as InquiryStatus }),
  ...(q.filters.industry === undefined ? {} : { industry: q.filters.industry as Industry })
})

export const exportInquiries = async (q: ListQuery): Promise<CsvFile> => {
  const { callCsvApi } = await api()
  return callCsvApi("advertising-inquiries.csv", (client) =>
    client.advertising.list({ query: { ...inquiryFilters(q), format: "csv" }, responseMode: "decoded-and-response" })
  )
}

/** A page of inquiries with the four counts of all of them. */
export const listInquiries = async (q: ListQuery): Promise<InquiriesPage> => {
  const { callListApi } = await api()
  const answer = await callListApi((client) => client.advertising.list({ query: { ...inquiryFilters(q), ...(q.page > 1 ? { page: q.page } : {}) } }))
  return { rows: answer.data.inquiries, pagination: answer.data.pagination, counts: answer.data.counts }
}

/** Moves an inquiry on with its notes, at the version it was read. */
export const moveInquiry = async (move: InquiryMove): Promise<AdvertisingInquiry> => {
  const { callApi } = await api()
  const answer = await callApi((client) =>
    client.advertising.update({
      params: { id: move.inquiry._id },
      payload: { status: move.status, adminNotes: move.adminNotes, version: move.inquiry.version }
    })
  )
  return answer.data.inquiry
}

const contactFilters = (q: ListQuery) => ({
  ...(q.search.trim() === "" ? {} : { search: q.search.trim() }),
  ...(q.filters.status === undefined ? {} : { status: q.filters.status as CoreTeamContact["status"] }),
  ...(q.filters.priority === undefined ? {} : { priority: q.filters.priority as CoreTeamContact["inquiry"]["priority"] })
})

export const exportContacts = async (q: ListQuery): Promise<CsvFile> => {
  const { callCsvApi } = await api()
  return callCsvApi("core-team-contacts.csv", (client) =>
    client.contacts.list({ query: { ...contactFilters(q), format: "csv" }, responseMode: "decoded-and-response" })
  )
}

/** A page of contacts (10). */
export const listContacts = async (q: ListQuery): Promise<ListPage<CoreTeamContact>> => {
  const { callListApi } = await api()
  const answer = await callListApi((client) => client.contacts.list({ query: { ...contactFilters(q), ...(q.page > 1 ? { page: q.page } : {}) } }))
  return { rows: answer.data.contacts, pagination: answer.data.pagination }
}

/** Adds a contact, or replaces one at the version it was read. */
export const saveContact = async (target: CoreTeamContact | null, input: ContactInput): Promise<unknown> => {
  const { callApi } = await api()
  if (target === null) return callApi((client) => client.contacts.create({ payload: input }))
  return callApi((client) => client.contacts.update({ params: { id: target._id }, payload: { ...input, version: target.version } }))
}

export const deleteContact = async (target: CoreTeamContact): Promise<void> => {
  const { callApi } = await api()
  await callApi((client) => client.contacts.remove({ params: { id: target._id }, query: { version: target.version } }))
}

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
