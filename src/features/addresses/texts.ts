import type { AnyAddress } from "../../../contract/addresses.ts"
import { fetchFailed } from "../../lib/failure-words.ts"

/** What the history dialog calls an address: its name (the CEX list spells it "Name"). */
export const addressLabel = (address: AnyAddress) => ("Name" in address ? address.Name : address.name)

/** The address screens' words; quoted ones are the spec's, exact. */
export const addressTexts = {
  add: "Add Address",
  searchPlaceholder: "Search identifier, name, category…",
  searchLabel: "Search addresses",
  empty: "No addresses found",
  loading: "Loading addresses...",
  loadFailed: fetchFailed("addresses"),
  view: "View",
  edit: "Edit",
  delete: "Delete",
  cancel: "Cancel",
  close: "Close",
  save: "Save",
  saving: "Saving...",
  deleting: "Deleting...",
  confirmDelete: "Are you sure you want to delete this address? This action cannot be undone.",
  addTitle: "Add Address",
  editTitle: "Edit Address",
  viewTitle: "Address Details",
  deleteTitle: "Delete Address",
  find: "Find address…",
  findPlaceholder: "Type an identifier or a name…",
  findEmpty: "No matching addresses"
} as const
