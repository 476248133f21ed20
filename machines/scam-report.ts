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

/** A report as the server has it after a change. */
export type ChangedReport = Pick<ReportRef, "_id" | "status" | "priority" | "adminNotes" | "version">

export interface TriageContext {
  /** Status and priority changes in order: the first is in flight, the rest wait for it. */
  readonly queue: ReadonlyArray<ReportChange>
  /** Each report as the server last answered it: newer than the list until the list reloads. */
  readonly answered: Readonly<Record<string, ChangedReport>>
  /** Why the last status or priority change failed (the screen's banner). */
  readonly error: string | null
  /** The report whose details are open, if any. */
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
  | { readonly type: "DISMISS" }

/** The spec's banner texts (docs/product-spec.md §8 "Scam reports (red banner)"). */
export const triageErrors = {
  status: "Failed to update report status",
  priority: "Failed to update report priority",
  notes: "Failed to add admin notes",
  fetch: "Failed to fetch reports",
  unknown: "An error occurred"
} as const

/** A report with the answers the server gave since the list was read. */
export const currentReport = <R extends ReportRef>(context: TriageContext, report: R): R => {
  const answered = context.answered[report._id]
  return answered !== undefined && answered.version > report.version ? { ...report, ...answered } : report
}

/** A report as the screen shows it: answered changes, then the ones waiting, applied. */
export const shownReport = <R extends ReportRef>(context: TriageContext, report: R): R =>
  context.queue.reduce(
    (shown, change) => (change.report._id === report._id ? { ...shown, [change.field]: change.value } : shown),
    currentReport(context, report)
  )

/** The notes to save, at the newest version the server has answered for their report. */
export const notesCall = (context: TriageContext): ReportChange | undefined =>
  context.notes === null ? undefined : { ...context.notes, report: currentReport(context, context.notes.report) }

/** The change to send now: the report's version is the newest the server has answered. */
export const nextCall = (context: TriageContext): ReportChange | undefined => {
  const head = context.queue[0]
  return head === undefined ? undefined : { ...head, report: currentReport(context, head.report) }
}

/** The status or priority change a SET asks for. */
type Setting = { readonly change: Extract<TriageEvent, { readonly type: "SET" }>["change"] }
const setting = ({ event }: { readonly event: Setting }): Setting => ({ change: event.change })

const failureText = (prefix: string, error: unknown) => {
  const message = failureOf(error).message.trim()
  return `${prefix}: ${message === "" ? triageErrors.unknown : message}`
}

/**
 * Scam-report triage (docs/product-spec.md §4 "Scam report status", "…priority"): status and
 * priority change freely, any value to any other, from a dropdown or a key. A change shows at
 * once; changes made while one is in flight wait their turn (keyboard triage runs ahead of the
 * server), each naming the version the one before it produced. A refusal shows the spec's
 * banner with the server's words and drops the changes still waiting, which were made on a view
 * the server has just contradicted. The Details modal, with the admin notes, is a region of its
 * own: it opens while changes are still on their way, and a failed save keeps it open with the
 * banner. The list reloads after every answer.
 */
export const scamReportMachine = setup({
  types: {} as { context: TriageContext; events: TriageEvent },
  actors: {
    change: fromPromise<ChangedReport, ReportChange>(() => Promise.reject(new Error("change not provided"))),
    // The same call as change, for the notes.
    saveNotes: fromPromise<ChangedReport, ReportChange>(() => Promise.reject(new Error("saveNotes not provided")))
  },
  guards: {
    isChange: ({ context }, params: Setting) => shownReport(context, params.change.report)[params.change.field] !== params.change.value,
    hasMore: ({ context }) => context.queue.length > 1
  },
  actions: {
    enqueue: assign({ queue: ({ context }, params: Setting) => [...context.queue, params.change], error: null }),
    takeAnswer: assign({
      answered: ({ context }, params: { readonly report: ChangedReport }) => ({ ...context.answered, [params.report._id]: params.report }),
      queue: ({ context }) => context.queue.slice(1)
    }),
    showFailure: assign({ error: (_, params: { readonly message: string }) => params.message, queue: [] }),
    forget: assign({ error: null }),
    openNotes: assign({
      notesOf: ({ context }, params: { readonly report: ReportRef }) => currentReport(context, params.report),
      notesError: null,
      notesIssues: []
    }),
    takeNotes: assign({
      notes: ({ context }, params: { readonly notes: string }) =>
        context.notesOf === null ? null : ({ field: "notes", value: params.notes, report: context.notesOf } as const),
      notesError: null,
      notesIssues: []
    }),
    takeNotesAnswer: assign({
      answered: ({ context }, params: { readonly report: ChangedReport }) => ({ ...context.answered, [params.report._id]: params.report }),
      notes: null
    }),
    showNotesFailure: assign({
      notesError: (_, params: { readonly message: string; readonly issues: ReadonlyArray<FieldIssue> }) => params.message,
      notesIssues: (_, params: { readonly message: string; readonly issues: ReadonlyArray<FieldIssue> }) => params.issues,
      notes: null
    }),
    closeNotes: assign({ notesOf: null, notesError: null, notesIssues: [] }),
    listChanged: () => undefined
  }
}).createMachine({
  context: { queue: [], answered: {}, error: null, notesOf: null, notes: null, notesError: null, notesIssues: [] },
  type: "parallel",
  states: {
    changes: {
      initial: "idle",
      states: {
        idle: {
          on: { SET: { guard: { type: "isChange", params: setting }, target: "changing", actions: { type: "enqueue", params: setting } } }
        },
        changing: {
          invoke: {
            id: "change",
            src: "change",
            input: ({ context }) => nextCall(context) ?? context.queue[0]!,
            onDone: [
              {
                guard: "hasMore",
                target: "changing",
                reenter: true,
                actions: [{ type: "takeAnswer", params: ({ event }) => ({ report: event.output }) }, "listChanged"]
              },
              { target: "idle", actions: [{ type: "takeAnswer", params: ({ event }) => ({ report: event.output }) }, "listChanged"] }
            ],
            onError: {
              target: "failed",
              actions: [
                {
                  type: "showFailure",
                  params: ({ context, event }) => ({ message: failureText(triageErrors[context.queue[0]?.field ?? "status"], event.error) })
                },
                "listChanged"
              ]
            }
          },
          on: { SET: { guard: { type: "isChange", params: setting }, actions: { type: "enqueue", params: setting } } }
        },
        failed: {
          on: {
            SET: { guard: { type: "isChange", params: setting }, target: "changing", actions: { type: "enqueue", params: setting } },
            DISMISS: { target: "idle", actions: "forget" }
          }
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
            input: ({ context }) => notesCall(context) ?? context.notes!,
            onDone: {
              target: "closed",
              actions: [{ type: "takeNotesAnswer", params: ({ event }) => ({ report: event.output }) }, "closeNotes", "listChanged"]
            },
            onError: {
              target: "open",
              actions: [
                { type: "showNotesFailure", params: ({ event }) => ({ message: failureText(triageErrors.notes, event.error), issues: issuesOf(event.error) }) },
                "listChanged"
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

/** A change could not be made: the banner is up. */
export const changeFailed = (snapshot: Snapshot): boolean => snapshot.matches({ changes: "failed" })

/** The notes are on their way to the server. */
export const savingNotes = (snapshot: Snapshot): boolean => snapshot.matches({ notes: "saving" })
