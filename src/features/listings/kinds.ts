import type { ListingCounts } from "../../../contract/listings.ts"
import { projectStatuses, startupStages } from "../../../contract/venture-rules.ts"
import type { AnyVenture, VentureType } from "../../../contract/ventures.ts"
import type { CsvFile } from "../../../contract/lists.ts"
import type { ListPage, ListQuery } from "../../../machines/list.ts"
import type { ListingRef } from "../../../machines/listing-moderation.ts"
import type { CallAs } from "../../api/client.ts"
import { type CommunityType, deleteListing, exportListings, listListings, saveListing } from "../../api/listings.ts"
import { deleteVenture, listVentures, saveVenture, ventureActiveCommand, exportVentures } from "../../api/ventures.ts"
import { deleteEvent, exportEvents, listEvents, saveEvent, eventFeaturedCommand } from "../../api/events.ts"
import type { EventEntry, EventType } from "../../../contract/events.ts"
import { shortDate } from "../../lib/dates.ts"
import type { QuerySpec } from "../../lib/list/query-string.ts"
import type { Schema } from "effect"
import { plainText } from "../../../contract/text.ts"
import { fetchFailed } from "../../lib/failure-words.ts"
import { queueQuerySpecs } from "./first-page.ts"
import type { WriteMethod } from "../../api/endpoints.ts"

/** One field of a queue's add/edit form. */
export interface FieldSpec {
  readonly name: string
  readonly label: string
  readonly kind: "text" | "textarea" | "url" | "year" | "number" | "select" | "list" | "datetime" | "image"
  readonly required?: boolean
  readonly options?: ReadonlyArray<string>
}

/** What every queued record has: enough for the moderation machine, the card and the form. */
export type QueueRow = ListingRef & {
  readonly description: string
  readonly createdAt: string
  readonly isActive?: boolean
  readonly featured?: boolean
  readonly [field: string]: unknown
}

/** A flag's change as a command: its call and its effect on the record (src/lib/store/console-store.ts, `CommandInput`). */
export interface FlagCommand {
  readonly method: WriteMethod
  readonly path: string
  readonly body: unknown
  readonly effect: Readonly<Record<string, unknown>>
}

export type QueuePage = ListPage<QueueRow> & { readonly counts: ListingCounts }

/**
 * A moderated queue screen (docs/product-spec.md §2, "Community and Influencer management" and
 * "Businesses, Startups, Projects"): its texts, its calls, its form and its card facts. One
 * screen component serves them all (src/features/listings/ListingsScreen.tsx).
 */
export interface QueueKind {
  readonly key: string
  readonly title: string
  readonly noun: string
  readonly plural: string
  readonly add: string
  readonly editTitle: string
  readonly empty: string
  readonly loadFailed: string
  readonly confirmDelete: string
  readonly querySpec: QuerySpec
  readonly fields: ReadonlyArray<FieldSpec>
  /** The contract's schema of what the form sends, loaded with effect on the form's first check. */
  readonly schema: () => Promise<Schema.Decoder<Readonly<Record<string, unknown>>>>
  /** The contract's rules across fields, said even while other fields are wrong (see `useContractForm`). */
  readonly rules?: () => Promise<ReadonlyArray<Schema.Decoder<unknown>>>
  /** The card's line of facts (category, industry, place…). */
  readonly facts: (row: QueueRow) => ReadonlyArray<string>
  /** Select filters beside the search, by query parameter. */
  readonly filters: ReadonlyArray<{ readonly name: string; readonly label: string; readonly options: ReadonlyArray<readonly [string, string]> }>
  readonly list: (q: ListQuery) => Promise<QueuePage>
  /** `as`: what the save does in the browser's store (src/api/client.ts, `callApi`). */
  readonly save: (target: QueueRow | null, values: Readonly<Record<string, unknown>>, as?: CallAs) => Promise<unknown>
  readonly remove: (row: QueueRow, as?: CallAs) => Promise<void>
  /** Shows or hides a record on the public site (`t`), as a command naming the version it was seen at; only the venture types have it. */
  readonly setActive?: (row: QueueRow, isActive: boolean, version: number) => FlagCommand
  /** Features a record or stops featuring it (`f`), likewise; events and hackathons have it. */
  readonly setFeatured?: (row: QueueRow, featured: boolean, version: number) => FlagCommand
  readonly exportCsv: (q: ListQuery) => Promise<CsvFile>
}

/** "early-traction" → "Early Traction": an enumeration's value as a label. */
const labelOf = (value: string) =>
  value
    .split("-")
    .map((word) => `${word[0]!.toUpperCase()}${word.slice(1)}`)
    .join(" ")
const required = (name: string, label: string, kind: FieldSpec["kind"] = "text"): FieldSpec => ({ name, label, kind, required: true })
const nameAndDescription = [required("name", "Name"), required("description", "Description", "textarea")]

const community = (type: CommunityType, title: string, noun: string, plural: string): QueueKind => ({
  key: type,
  title,
  noun,
  plural,
  add: `Add ${labelOf(noun)}`,
  editTitle: `Edit ${labelOf(noun)}`,
  empty: "No listings found",
  loadFailed: fetchFailed(plural),
  confirmDelete: "Are you sure you want to delete this listing?",
  querySpec: queueQuerySpecs[type],
  fields: nameAndDescription,
  schema: () => import("../../../contract/listings.ts").then((contract) => contract.ListingInput),
  facts: () => [],
  filters: [],
  list: (q) => listListings(type, q),
  save: (target, values, as) => saveListing(type, target as never, { name: String(values.name), description: String(values.description) }, as),
  remove: (row, as) => deleteListing(type, row as never, as),
  exportCsv: (q) => exportListings(type, q)
})

const activeFilter = {
  name: "active",
  label: "Visibility",
  options: [
    ["yes", "Shown"],
    ["no", "Hidden"]
  ]
} as const
const present = (...values: ReadonlyArray<unknown>) =>
  values.filter((value): value is string | number => (typeof value === "string" && value !== "") || typeof value === "number").map(String)

const ventureSchemas = {
  business: () => import("../../../contract/ventures.ts").then((contract) => contract.BusinessInput),
  startup: () => import("../../../contract/ventures.ts").then((contract) => contract.StartupInput),
  project: () => import("../../../contract/ventures.ts").then((contract) => contract.ProjectInput)
} as const satisfies Record<VentureType, QueueKind["schema"]>

const venture = (
  type: VentureType,
  base: Omit<
    QueueKind,
    "list" | "save" | "remove" | "setActive" | "exportCsv" | "empty" | "loadFailed" | "confirmDelete" | "add" | "editTitle" | "key" | "schema"
  >
): QueueKind => ({
  ...base,
  key: type,
  schema: ventureSchemas[type],
  add: `Add ${labelOf(base.noun)}`,
  editTitle: `Edit ${labelOf(base.noun)}`,
  empty: `No ${base.plural} found`,
  loadFailed: fetchFailed(base.plural),
  confirmDelete: `Are you sure you want to delete this ${base.noun}?`,
  list: (q) => listVentures(type, q),
  save: (target, values, as) => saveVenture(type, target as AnyVenture | null, values, as),
  remove: (row, as) => deleteVenture(type, row as unknown as AnyVenture, as),
  setActive: (row, isActive, version) => ventureActiveCommand(type, row as unknown as AnyVenture, isActive, version),
  exportCsv: (q) => exportVentures(type, q)
})

const dateRange = (row: QueueRow) => {
  const start = typeof row.startsAt === "string" && row.startsAt !== "" ? shortDate(row.startsAt) : ""
  const end = typeof row.endsAt === "string" && row.endsAt !== "" ? shortDate(row.endsAt) : ""
  return start === "" ? end : end === "" || end === start ? start : `${start} – ${end}`
}

const happening = (type: EventType, noun: string, plural: string, title: string): QueueKind => ({
  key: noun,
  title,
  noun,
  plural,
  add: `Add ${labelOf(noun)}`,
  editTitle: `Edit ${labelOf(noun)}`,
  empty: `No ${plural} found`,
  loadFailed: fetchFailed(plural),
  confirmDelete: `Are you sure you want to delete this ${noun}?`,
  querySpec: queueQuerySpecs[type === "events" ? "event" : "hackathon"],
  schema: () => import("../../../contract/events.ts").then((contract) => contract.EventInput),
  rules: () => import("../../../contract/events.ts").then((contract) => [contract.EventDates]),
  fields: [
    required("name", "Name"),
    required("description", "Description", "textarea"),
    { name: "startsAt", label: "Starts", kind: "datetime" },
    { name: "endsAt", label: "Ends", kind: "datetime" },
    { name: "location", label: "Location (a place, or online)", kind: "text" },
    { name: "website", label: "Website", kind: "url" },
    { name: "image", label: "Image", kind: "image" }
  ],
  facts: (row) => present(dateRange(row), row.location),
  filters: [
    {
      name: "when",
      label: "When",
      options: [
        ["upcoming", "Upcoming"],
        ["past", "Past"]
      ]
    },
    {
      name: "featured",
      label: "Featured",
      options: [
        ["yes", "Featured"],
        ["no", "Not featured"]
      ]
    }
  ],
  list: (q) => listEvents(type, q),
  save: (target, values, as) => saveEvent(type, target as unknown as EventEntry | null, values, as),
  remove: (row, as) => deleteEvent(type, row as unknown as EventEntry, as),
  setFeatured: (row, featured, version) => eventFeaturedCommand(type, row as unknown as EventEntry, featured, version),
  exportCsv: (q) => exportEvents(type, q)
})

export const queueKinds = {
  community: community("community", "Community Management", "community", "communities"),
  influencer: community("influencer", "Influencer Management", "influencer", "influencers"),
  business: venture("business", {
    title: "Business Listings",
    noun: "business",
    plural: "businesses",
    querySpec: queueQuerySpecs.business,
    fields: [
      required("name", "Name"),
      required("category", "Category"),
      required("industry", "Industry"),
      required("description", "Description", "textarea"),
      { name: "website", label: "Website", kind: "url" },
      { name: "location", label: "Location", kind: "text" },
      { name: "founded", label: "Founded (year)", kind: "year" },
      { name: "employees", label: "Employees", kind: "number" },
      { name: "revenue", label: "Revenue range", kind: "text" }
    ],
    facts: (row) =>
      present(
        row.category,
        row.industry,
        row.location,
        typeof row.founded === "string" && row.founded !== "" ? `Founded ${row.founded}` : "",
        typeof row.employees === "number" ? `${row.employees} employees` : "",
        row.revenue
      ),
    filters: [activeFilter]
  }),
  startup: venture("startup", {
    title: "Startup Listings",
    noun: "startup",
    plural: "startups",
    querySpec: queueQuerySpecs.startup,
    fields: [
      required("name", "Name"),
      required("category", "Category"),
      { name: "stage", label: "Stage", kind: "select", required: true, options: startupStages },
      required("description", "Description", "textarea"),
      { name: "website", label: "Website", kind: "url" },
      { name: "location", label: "Location", kind: "text" },
      { name: "founded", label: "Founded (year)", kind: "year" },
      { name: "teamSize", label: "Team size", kind: "number" },
      { name: "funding", label: "Funding", kind: "text" }
    ],
    facts: (row) =>
      present(row.category, labelOf(plainText(row.stage)), row.location, typeof row.teamSize === "number" ? `Team of ${row.teamSize}` : "", row.funding),
    filters: [{ name: "stage", label: "Stage", options: startupStages.map((stage) => [stage, labelOf(stage)] as const) }, activeFilter]
  }),
  project: venture("project", {
    title: "Project Listings",
    noun: "project",
    plural: "projects",
    querySpec: queueQuerySpecs.project,
    fields: [
      required("name", "Name"),
      required("category", "Category"),
      { name: "projectStatus", label: "Status", kind: "select", required: true, options: projectStatuses },
      required("description", "Description", "textarea"),
      { name: "website", label: "Website", kind: "url" },
      { name: "github", label: "GitHub", kind: "url" },
      { name: "team", label: "Team", kind: "list" },
      { name: "technologies", label: "Technologies", kind: "list" }
    ],
    facts: (row) =>
      present(
        row.category,
        labelOf(plainText(row.projectStatus)),
        Array.isArray(row.technologies) && row.technologies.length > 0 ? row.technologies.join(", ") : ""
      ),
    filters: [{ name: "projectStatus", label: "Project status", options: projectStatuses.map((status) => [status, labelOf(status)] as const) }, activeFilter]
  }),
  event: happening("events", "event", "events", "Events Management"),
  hackathon: happening("hackathons", "hackathon", "hackathons", "Hackathons Management")
} as const satisfies Record<string, QueueKind>

export type QueueKindKey = keyof typeof queueKinds

export { labelOf as optionLabel }
