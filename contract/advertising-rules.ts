/**
 * Advertising inquiries' statuses and the moves staff may make (docs/product-spec.md §4
 * "Advertising inquiry status", with the funnel's end of docs/api.md): pending, paid and reviewed
 * inquiries are marked contacted ("Mark as Contacted"); a contacted one is converted or
 * rejected. The server, the inquiry machine and the screen share this table.
 */
export const inquiryStatuses = ["pending", "paid", "reviewed", "contacted", "converted", "rejected"] as const
export type InquiryStatus = (typeof inquiryStatuses)[number]

export const inquiryMoves: Readonly<Record<InquiryStatus, ReadonlyArray<InquiryStatus>>> = {
  pending: ["contacted"],
  paid: ["contacted"],
  reviewed: ["contacted"],
  contacted: ["converted", "rejected"],
  converted: [],
  rejected: []
}

/** Whether staff may move an inquiry from `from` to `to`; staying put (notes only) is always allowed. */
export const canMoveInquiry = (from: InquiryStatus, to: InquiryStatus): boolean => from === to || inquiryMoves[from].includes(to)
