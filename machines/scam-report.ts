import { assign, fromPromise, setup } from "xstate"
import type { ScamReportPriority, ScamReportStatus } from "../contract/scam-reports.ts"
import type { FieldIssue } from "../contract/common.ts"
import { failureOf, issuesOf } from "../contract/call-failure.ts"

/** What the machine needs of a report: what a change names and what it changes. */
export interface ReportRef {
  readonly _id: string
  readonly status: ScamReportStatus
  readonly priority: ScamReportPriority
  readonly adminNotes: string
  readonly version: number
}

/** One change: exactly one field, as the API takes it (PATCH /api/report-scam/{id}). */
export type ReportChange =
  | { readonly field: "status"; readonly value: ScamReportStatus; readonly report: ReportRef }
  | { readonly field: "priority"; readonly value: ScamReportPriority; readonly report: ReportRef }
  | { readonly field: "notes"; readonly value: string; readonly report: ReportRef }

export interface TriageContext {
  /** The report whose details are open, if any, at the version its notes will name. */
  readonly notesOf: ReportRef | null
  /** The notes being saved. */
  readonly notes: ReportChange | null
  /** Why the last save of the notes failed (shown in the details). */
  readonly notesError: string | null
  /** The fields that refusal named (a 400's issues): the form shows them under the notes. */
  readonly notesIssues: ReadonlyArray<FieldIssue>
}

export type TriageEvent =
  | { readonly type: "SET"; readonly change: Exclude<ReportChange, { readonly field: "notes" }> }
  | { readonly type: "OPEN_NOTES"; readonly report: ReportRef }
  | { readonly type: "SAVE_NOTES"; readonly notes: string }
  | { readonly type: "CLOSE" }

/** The spec's banner texts (docs/product-spec.md §8 "Scam reports (red banner)"). */
export const triageErrors = {
  status: "Failed to update report status",
  priority: "Failed to update report priority",
  notes: "Failed to add admin notes",
  fetch: "Failed to fetch reports",
  unknown: "An error occurred"
} as const

/** The status or priority change a SET asks for. */
type Setting = { readonly change: Extract<TriageEvent, { readonly type: "SET" }>["change"] }
const setting = ({ event }: { readonly event: Setting }): Setting => ({ change: event.change })

const failureText = (prefix: string, error: unknown) => {
  const message = failureOf(error).message.trim()
  return `${prefix}: ${message === "" ? triageErrors.unknown : message}`
}

/**
 * Scam-report triage (docs/product-spec.md §4 "Scam report status", "…priority"): status and
 * priority change freely, any value to any other, from a dropdown or a key. A change is a command
 * (docs/architecture.md, "The browser's store"): it shows at once, goes out in order behind the
 * others and survives a lost link; a refusal puts the report back and the console says why in the
 * spec's words. A SET that changes nothing (the report already shows that value) is no command.
 * The Details modal, with the admin notes, is a region of its own: it opens while changes are
 * still on their way (its save goes after them), and a failed save keeps it open with the banner.
 */
export const scamReportMachine = setup({
  types: {} as { context: TriageContext; events: TriageEvent },
  actors: {
    saveNotes: fromPromise<unknown, ReportChange>(() => Promise.reject(new Error("saveNotes not provided")))
  },
  guards: {
    isChange: (_, params: Setting) => params.change.report[params.change.field] !== params.change.value
  },
  actions: {
    /** The console applies the change and sends it. */
    change: (_, _params: Setting) => undefined,
    openNotes: assign({
      notesOf: (_, params: { readonly report: ReportRef }) => params.report,
      notesError: null,
      notesIssues: []
    }),
    takeNotes: assign({
      notes: ({ context }, params: { readonly notes: string }) =>
        context.notesOf === null ? null : ({ field: "notes", value: params.notes, report: context.notesOf } as const),
      notesError: null,
      notesIssues: []
    }),
    showNotesFailure: assign({
      notesError: (_, params: { readonly message: string; readonly issues: ReadonlyArray<FieldIssue> }) => params.message,
      notesIssues: (_, params: { readonly message: string; readonly issues: ReadonlyArray<FieldIssue> }) => params.issues,
      notes: null
    }),
    closeNotes: assign({ notesOf: null, notes: null, notesError: null, notesIssues: [] })
  }
}).createMachine({
  context: { notesOf: null, notes: null, notesError: null, notesIssues: [] },
  type: "parallel",
  states: {
    changes: {
      initial: "idle",
      states: {
        idle: {
          on: { SET: { guard: { type: "isChange", params: setting }, actions: { type: "change", params: setting } } }
        }
      }
    },
    notes: {
      initial: "closed",
      states: {
        closed: {
          on: { OPEN_NOTES: { target: "open", actions: { type: "openNotes", params: ({ event }) => ({ report: event.report }) } } }
        },
        open: {
          on: {
            SAVE_NOTES: { target: "saving", actions: { type: "takeNotes", params: ({ event }) => ({ notes: event.notes }) } },
            CLOSE: { target: "closed", actions: "closeNotes" }
          }
        },
        saving: {
          invoke: {
            id: "saveNotes",
            src: "saveNotes",
            // Entered by SAVE_NOTES alone, which takes the notes.
            input: ({ context }) => context.notes as ReportChange,
            onDone: { target: "closed", actions: "closeNotes" },
            onError: {
              target: "open",
              actions: [
                { type: "showNotesFailure", params: ({ event }) => ({ message: failureText(triageErrors.notes, event.error), issues: issuesOf(event.error) }) }
              ]
            }
          }
        }
      }
    }
  }
})

type Snapshot = { readonly matches: (state: Record<string, string>) => boolean }

/** The Details modal is open (its notes being edited or saved). */
export const notesOpen = (snapshot: Snapshot): boolean => !snapshot.matches({ notes: "closed" })

/** The notes are on their way to the server. */
export const savingNotes = (snapshot: Snapshot): boolean => snapshot.matches({ notes: "saving" })
