/**
 * A scam report's enumerations and the types' labels (docs/product-spec.md §2, "Scam Reports"),
 * without effect: the reports' screen and its first page read them before effect has loaded
 * (contract/scam-reports.ts makes its schemas of them).
 */
export const scamReportStatuses = ["new", "under_review", "resolved", "dismissed"] as const
export const scamReportPriorities = ["low", "normal", "high", "urgent"] as const
export const scamTypes = ["fake_project", "phishing", "suspicious_wallet", "fake_giveaway", "impersonation", "other"] as const

export const scamTypeLabels = {
  fake_project: "Fake Pi Network Project",
  phishing: "Phishing Attempt",
  suspicious_wallet: "Suspicious Wallet",
  fake_giveaway: "Fake Giveaway",
  impersonation: "Impersonation",
  other: "Other Fraud"
} as const satisfies Record<(typeof scamTypes)[number], string>
