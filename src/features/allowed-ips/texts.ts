import { fetchFailed } from "../../lib/failure-words.ts"

/** The allowed addresses' words. */
export const allowedIpTexts = {
  title: "Allowed IP Addresses",
  intro:
    "While this list is empty, staff may sign in from anywhere. Once it holds an address, the admin console and its API answer only the addresses and ranges listed here.",
  yourIp: (ip: string) => `Your address, as the server sees it: ${ip}`,
  empty: "No addresses: every address may sign in.",
  loading: "Loading allowed addresses...",
  loadFailed: fetchFailed("the allowed addresses"),
  add: "Allow address",
  adding: "Adding…",
  ip: "Address or range",
  ipHint: "IPv4 or IPv6, one address (203.0.113.7) or a CIDR range (203.0.113.0/24, 2001:db8::/32).",
  description: "Description",
  wouldLockOut: "The list does not let your address in yet: add a range that covers it first, or the server will refuse this.",
  addFailed: "Failed to allow the address",
  remove: "Remove",
  removing: "Removing…",
  removeTitle: "Remove allowed address",
  confirmRemove: "Remove this address from the list? Staff signing in from it will be refused. If the list becomes empty, every address may sign in.",
  removeFailed: "Failed to remove the address",
  cancel: "Cancel",
  refresh: "Refresh",
  covers: "covers you",
  lockedOut: " · Locked out? On the server, `npm run admin -- clear-ips` empties the list."
} as const
