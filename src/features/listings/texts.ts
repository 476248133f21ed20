import type { ListingStatus, ModerationAction } from "../../../contract/listing-rules.ts"
import type { Done } from "../../../machines/listing-moderation.ts"

/** The queue screens' shared texts (each kind has its own: src/features/listings/kinds.ts); quoted ones are docs/product-spec.md's exact words. */
export const listingTexts = {
  loading: "Loading listings...",
  counts: { total: "Total", pending: "Pending", approved: "Approved", rejected: "Rejected" },
  countsLabel: "Listings by status",
  statuses: { pending: "Pending", approved: "Approved", rejected: "Rejected" } satisfies Record<ListingStatus, string>,
  actions: { approve: "Approve", reject: "Reject", pending: "Set Pending" } satisfies Record<ModerationAction, string>,
  /** What the toast says a change did. */
  did: { approve: "Approved", reject: "Rejected", pending: "Set pending" } satisfies Record<ModerationAction, string>,
  requiredFields: (labels: ReadonlyArray<string>) =>
    `${labels.length === 2 ? labels.join(" and ") : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1) ?? ""}`} are required.`,
  listHint: "Enter or Add adds one",
  show: "Show",
  hide: "Hide",
  hidden: "Hidden",
  visibilityFailed: "Failed to change visibility",
  featured: "Featured",
  feature: "Feature",
  unfeature: "Unfeature",
  featuredFailed: "Failed to change featured",
  allOptions: (label: string) => `Any ${label.toLowerCase()}`,
  save: "Save",
  saving: "Saving…",
  saveFailed: "Failed to save listing",
  cancel: "Cancel",
  edit: "Edit",
  delete: "Delete",
  deleting: "Deleting…",
  deleteTitle: "Delete listing",
  confirmDelete: "Are you sure you want to delete this listing?",
  deleteFailed: "Failed to delete listing",
  created: (date: string) => `Created ${date}`,
  searchLabel: "Search listings",
  searchPlaceholder: "Search name or description...",
  undo: "Undo",
  dismiss: "Dismiss",
  selectedMark: "Selected"
} as const

/** "Approved "Pi Pioneers"" for one listing, "Rejected 7 listings" for a selection. */
export const changeText = (action: ModerationAction, names: ReadonlyArray<string>): string =>
  names.length === 1 ? `${listingTexts.did[action]} "${names[0]}"` : `${listingTexts.did[action]} ${names.length} listings`

/** The palette's label of an action on the focused listing or on the selection. */
export const actionLabel = (action: ModerationAction, names: ReadonlyArray<string>, selection: boolean): string =>
  selection ? `${listingTexts.actions[action]} ${names.length} selected` : `${listingTexts.actions[action]} "${names[0] ?? ""}"`

/** An undo said: which listings, and back to what ('Undone: Approved "Pi Pioneers", back to Pending'). */
export const undoneText = (done: Done): string => {
  const back = [...new Set(done.moves.map((move) => move.from))]
  const to = back.length === 1 && back[0] !== undefined ? `, back to ${listingTexts.statuses[back[0]]}` : ""
  return `Undone: ${changeText(
    done.action,
    done.moves.map((move) => move.name)
  )}${to}`
}
