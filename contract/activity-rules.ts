/**
 * The areas of the activity log. Each is the one entity name of its records, and every action
 * is `area.verb` (`listing.status`, `session.sign_in`): the log's `entity` is the action's area.
 * Without effect, so the console's screens read them without loading the contract's schemas.
 */
export const activityAreas = [
  "session",
  "admin",
  "ip",
  "protected-data",
  "settings",
  "blog",
  "address",
  "listing",
  "scam-report",
  "contact",
  "inquiry",
  "upload"
] as const
export type ActivityArea = (typeof activityAreas)[number]

export const activityAreaLabels: Record<ActivityArea, string> = {
  session: "Sign-in",
  admin: "Admin users",
  ip: "Allowed addresses",
  "protected-data": "Protected data",
  settings: "Site settings",
  blog: "Blog",
  address: "Addresses",
  listing: "Listings",
  "scam-report": "Scam reports",
  contact: "Core-team contacts",
  inquiry: "Advertising inquiries",
  upload: "Uploads"
}
