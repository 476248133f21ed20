import { assign, setup } from "xstate"

/**
 * What the desk machine needs of an item: which record it is. The console's item is the record
 * as its area answers it (contract/triage.ts); the machine only carries it.
 */
export interface DeskItemRef {
  readonly _id: string
  readonly area: string
  readonly version: number
}

/** A decision of the item's own area (approve, reject, a status…), as its screen's key names it. */
export interface Decision {
  readonly id: string
  /** Whether it asks for an optional reason first (rejecting a listing, dismissing a report). */
  readonly asksReason: boolean
}

/** What the desk asks before acting: a reason, a time to snooze until, an owner, the item duplicated. */
export type Question = "reason" | "snooze" | "owner" | "duplicate"

export interface DeskContext {
  /** The item a question is about, while one is asked. */
  readonly item: DeskItemRef | null
  readonly question: Question | null
  /** The decision a reason is asked for. */
  readonly decision: Decision | null
}

export type DeskEvent =
  /** A key of the item's area: made at once, or asked its reason first. */
  | { readonly type: "DECIDE"; readonly item: DeskItemRef; readonly decision: Decision }
  /** `i`: the item is the person's own at once. */
  | { readonly type: "ASSIGN_ME"; readonly item: DeskItemRef }
  /** `s`, Shift+I, `m`: what to snooze until, who owns it, what it duplicates. */
  | { readonly type: "ASK"; readonly item: DeskItemRef; readonly question: Exclude<Question, "reason"> }
  /** The answer to the question asked: a reason (may be empty), a time, an owner's id, an item's id. */
  | { readonly type: "ANSWER"; readonly value: string }
  | { readonly type: "CANCEL" }

type Deciding = { readonly item: DeskItemRef; readonly decision: Decision }
const deciding = ({ event }: { readonly event: Deciding }): Deciding => ({ item: event.item, decision: event.decision })
type Asking = { readonly item: DeskItemRef; readonly question: Question; readonly decision: Decision | null }
type Answered = { readonly value: string }
const answered = ({ event }: { readonly event: Answered }): Answered => ({ value: event.value })

/**
 * The triage desk's item (docs/console.md, "The triage desk"): one key per decision on the item
 * shown, the same keys as its area's own screen; a decision that takes a reason (rejecting a
 * listing, dismissing a report) asks for it first, optional; `s` asks until when to snooze, Shift+I
 * whom to assign, `m` which item it duplicates (a reason with it, optional); `i` assigns the
 * person at once. Each answer is one command (docs/architecture.md, "The browser's store"): shown
 * at once, sent in order. Escape leaves a question with nothing done. An answer the question
 * needs (a time, an owner, an item) is not taken empty.
 */
export const triageDeskMachine = setup({
  types: {} as { context: DeskContext; events: DeskEvent },
  guards: {
    asksReason: (_, params: Deciding) => params.decision.asksReason,
    hasValue: (_, params: Answered) => params.value.trim() !== "",
    isReason: ({ context }) => context.question === "reason"
  },
  actions: {
    /** The console makes the decision's command (with the reason, when one was asked). */
    decide: (_, _params: Deciding & { readonly reason: string }) => undefined,
    assignMe: (_, _params: { readonly item: DeskItemRef }) => undefined,
    /** The console makes the command the question was for, with its answer. */
    answer: (_, _params: Asking & { readonly value: string }) => undefined,
    ask: assign({
      item: (_, params: Asking) => params.item,
      question: (_, params: Asking) => params.question,
      decision: (_, params: Asking) => params.decision
    }),
    forget: assign({ item: null, question: null, decision: null })
  }
}).createMachine({
  context: { item: null, question: null, decision: null },
  initial: "browsing",
  states: {
    browsing: {
      on: {
        DECIDE: [
          {
            guard: { type: "asksReason", params: deciding },
            target: "asking",
            actions: { type: "ask", params: ({ event }) => ({ item: event.item, question: "reason", decision: event.decision }) }
          },
          { actions: { type: "decide", params: ({ event }) => ({ item: event.item, decision: event.decision, reason: "" }) } }
        ],
        ASSIGN_ME: { actions: { type: "assignMe", params: ({ event }) => ({ item: event.item }) } },
        ASK: { target: "asking", actions: { type: "ask", params: ({ event }) => ({ item: event.item, question: event.question, decision: null }) } }
      }
    },
    asking: {
      on: {
        ANSWER: [
          {
            guard: "isReason",
            target: "browsing",
            actions: [{ type: "answer", params: ({ context, event }) => ({ ...(context as Asking), value: event.value.trim() }) }, "forget"]
          },
          {
            guard: { type: "hasValue", params: answered },
            target: "browsing",
            actions: [{ type: "answer", params: ({ context, event }) => ({ ...(context as Asking), value: event.value.trim() }) }, "forget"]
          }
        ],
        CANCEL: { target: "browsing", actions: "forget" }
      }
    }
  }
})

/** A question is open: the desk's keys wait. */
export const asking = (snapshot: { readonly value: unknown }): boolean => snapshot.value === "asking"
