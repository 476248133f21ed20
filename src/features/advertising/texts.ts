import type { InquiryStatus } from "../../../contract/advertising-rules.ts"
import { inquiryMoveWords } from "../../kinds/inquiries.ts"
import { fetchFailed } from "../../lib/failure-words.ts"

/** docs/product-spec.md §2 "Advertising Inquiries", §4, §8; quoted texts are exact. */
export const advertisingTexts = {
  title: "Advertising Inquiries",
  counts: { total: "Total Inquiries", pending: "Pending", contacted: "Contacted", converted: "Converted" },
  countsLabel: "Inquiries by status",
  empty: "No inquiries found",
  loading: "Loading inquiries...",
  loadFailed: fetchFailed("inquiries"),
  searchLabel: "Search inquiries",
  searchPlaceholder: "Search company, contact, email...",
  allStatuses: "All statuses",
  allIndustries: "All industries",
  heading: (count: number) => `${count} ${count === 1 ? "inquiry" : "inquiries"}`,
  statuses: { pending: "Pending", paid: "Paid", reviewed: "Reviewed", contacted: "Contacted", converted: "Converted", rejected: "Rejected" } satisfies Record<
    InquiryStatus,
    string
  >,
  moves: inquiryMoveWords as Partial<Record<InquiryStatus, string>>,
  done: (status: InquiryStatus, company: string) => `${advertisingTexts.statuses[status]}: ${company}`,
  view: "View",
  paymentCompleted: "Payment Completed",
  amount: (amount: number | null) => `${amount ?? 0} π`,
  plan: (plan: string) => (plan === "" ? "" : ` · ${plan} plan`),
  adminNotes: "Admin Notes",
  notesLine: (notes: string) => `Notes: ${notes}`,
  close: "Close",
  dismiss: "Dismiss",
  refresh: "Refresh",
  submitted: (date: string) => `Submitted ${date}`,
  viewHint: "view (type the notes, Ctrl+Enter marks as contacted)",
  paletteHint: " · the palette marks converted or rejects"
} as const
