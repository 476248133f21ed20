import { SessionCheck } from "../../contract/auth.ts"
import { CexAddress, CoreTeamAddress, GeneratedAddress } from "../../contract/addresses.ts"
import { PostPage } from "../../contract/blog-api.ts"
import { pageOf } from "../../contract/lists.ts"
import { listingPage } from "../../contract/listings.ts"
import { Business, Project, Startup, venturePage } from "../../contract/ventures.ts"
import { EventListPage } from "../../contract/events.ts"
import { ContactPage } from "../../contract/contacts.ts"
import { InquiryPage } from "../../contract/advertising.ts"
import { ScamReportPage } from "../../contract/scam-reports.ts"
import { AdminAccount } from "../../contract/admin-users.ts"
import { ActivityEntry } from "../../contract/activity.ts"

/**
 * The answers start-up asks for before the console's code has loaded (src/app/start/boot.ts), and
 * the pages read the same way after it (the activity log's), by the name the console checks them under. The build compiles each schema into a small validator
 * (tools/first-screen/answer-schemas.ts), so the first screen needs no effect to trust its first answers;
 * only schemas whose decoded value is their JSON may be listed (tests/unit/answer-checks.test.ts).
 * The console never imports this module: it imports `virtual:answer-schemas`.
 */
export const firstAnswerSchemas = {
  sessionCheck: SessionCheck,
  generatedPage: pageOf("addresses", GeneratedAddress),
  cexPage: pageOf("addresses", CexAddress),
  coreTeamPage: pageOf("addresses", CoreTeamAddress),
  // Each alone (`virtual:answer-schemas/NAME`): read by a screen's own chunk, not start-up's.
  postPage: PostPage,
  communityPage: listingPage("communities"),
  influencerPage: listingPage("influencers"),
  businessPage: venturePage("businesses", Business),
  startupPage: venturePage("startups", Startup),
  projectPage: venturePage("projects", Project),
  eventPage: EventListPage,
  contactPage: ContactPage,
  inquiryPage: InquiryPage,
  reportPage: ScamReportPage,
  adminPage: pageOf("users", AdminAccount),
  activityPage: pageOf("logs", ActivityEntry)
} as const

export type FirstAnswerName = keyof typeof firstAnswerSchemas

/** The schemas imported one by one, by name, and never from `virtual:answer-schemas` itself (whose namespace start-up's chunk holds whole). */
export const aloneSchemaNames: ReadonlyArray<FirstAnswerName> = [
  "postPage",
  "communityPage",
  "influencerPage",
  "businessPage",
  "startupPage",
  "projectPage",
  "eventPage",
  "contactPage",
  "inquiryPage",
  "reportPage",
  "adminPage",
  "activityPage"
]

/**
 * The endpoints the console calls without effect's client (start-up's requests, the change
 * stream, the upload with progress, a page of a directory or of the blog, and the calls a
 * command names: a command is data the outbox keeps across reloads), by the name the console
 * uses: the build looks each up in the contract's HttpApi (contract/api.ts) and exports its path
 * as `paths` from `virtual:answer-schemas` and its method as `methods` from `virtual:endpoint-methods`, so no path is typed by
 * hand in src/ (a command's call: `callTo`, src/api/endpoints.ts).
 */
export const endpointsByName = {
  sessionCheck: "auth.check",
  logout: "auth.logout",
  revoke: "auth.revoke",
  generatedAddresses: "generatedAddresses.list",
  cexAddresses: "cexAddresses.list",
  coreTeamAddresses: "coreTeamAddresses.list",
  posts: "blog.posts",
  communities: "communities.combined",
  influencers: "influencers.combined",
  businesses: "businesses.list",
  startups: "startups.list",
  projects: "projects.list",
  events: "events.list",
  contacts: "contacts.list",
  inquiries: "advertising.list",
  reports: "scamReports.list",
  adminUsers: "adminUsers.list",
  activity: "activity.list",
  stream: "stream.changes",
  uploadImage: "uploads.image",
  listingModerate: "listingsAdmin.moderate",
  listingUndo: "listingsAdmin.undo",
  listingBulk: "listingsAdmin.bulk",
  reportChange: "scamReports.change",
  triageChange: "triage.change",
  eventFeatured: "events.setFeatured",
  businessActive: "businesses.setActive",
  startupActive: "startups.setActive",
  projectActive: "projects.setActive",
  contactUpdate: "contacts.update",
  inquiryUpdate: "advertising.update"
} as const
