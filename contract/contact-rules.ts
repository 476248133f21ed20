/**
 * Core-team contacts' statuses, set freely (docs/product-spec.md §4), and the form's priorities
 * (§5), without effect, so the server, the contract and the console share them.
 */
export const contactStatuses = ["new", "in_progress", "responded", "resolved", "closed"] as const
export type ContactStatus = (typeof contactStatuses)[number]
export const contactPriorities = ["low", "medium", "high", "urgent"] as const
export type ContactPriority = (typeof contactPriorities)[number]
