import type { AdvertisingInquiry, InquiryCounts, InquiryPage } from "../../contract/advertising.ts"
import { paths } from "virtual:answer-schemas"
import inquiryPage from "virtual:answer-schemas/inquiryPage"
import { getChecked } from "./checked-answer.ts"
import { getCsv } from "./csv.ts"
import { filteredPagePath } from "./list-paths.ts"
import type { InquiryMove } from "../../machines/inquiry.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import type { CallAs, CsvFile } from "./client.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

export type InquiriesPage = ListPage<AdvertisingInquiry> & { readonly counts: InquiryCounts }

/** The screen's CSV: every inquiry its search and filters match. */
export const exportInquiries = (q: ListQuery): Promise<CsvFile> => getCsv(filteredPagePath(paths.inquiries, q), "advertising-inquiries.csv")

/** A page of inquiries with the four counts of all of them: the one start-up asked for if it is this one, else a request checked the same way. */
export const listInquiries = async (q: ListQuery): Promise<InquiriesPage> => {
  const answer = await getChecked<{ readonly data: InquiryPage["data"] }>(filteredPagePath(paths.inquiries, q), inquiryPage)
  return { rows: answer.data.inquiries, pagination: answer.data.pagination, counts: answer.data.counts }
}

/** The browser's store's name for inquiries (the stream's area). */
export const INQUIRY_KIND = "inquiry" as const

/** Moves an inquiry on with its notes, at the version it was read; `as`: what it does in the browser's store. */
export const moveInquiry = async (move: InquiryMove, as?: CallAs): Promise<AdvertisingInquiry> => {
  const { callApi } = await api()
  const answer = await callApi(
    (client) =>
      client.advertising.update({
        params: { id: move.inquiry._id },
        payload: { status: move.status, adminNotes: move.adminNotes, version: move.inquiry.version }
      }),
    as
  )
  return answer.data.inquiry
}
