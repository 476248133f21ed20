import { useSelector } from "@xstate/react"
import { useEffect, useMemo, useState } from "react"
import { failureOf } from "../../../contract/call-failure.ts"
import { restoreVersion } from "../../api/history.ts"
import type { TriageItem, TriageOwnerEntry } from "../../../contract/triage.ts"
import { duplicateStatus } from "../../../contract/triage-rules.ts"
import { asking, type Decision, type DeskItemRef, triageDeskMachine } from "../../../machines/triage-desk.ts"
import { deskChangeCommand, listOwners } from "../../api/triage.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type ListAction, useListScreen } from "../../lib/list/use-list-screen.ts"
import { currentStore, withStore } from "../../lib/store/handle.ts"
import type { CommandInput } from "../../lib/store/console-store.ts"
import { useMachine } from "../../lib/use-machine.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { type AreaDecision, areaDecisions } from "./decisions.ts"
import { keepReason, reasonsUsed } from "./DeskQuestion.tsx"
import { type Command, useDeclaredCommands } from "../../lib/commands.tsx"
import { itemWords } from "./TriageCard.tsx"
import { stillOpen, useRelated } from "./DeskDetail.tsx"
import { relatedOnPage } from "./grouping.ts"
import { deskSpec } from "./desk-spec.ts"
import { triageTexts as t } from "./texts.ts"
import { colleagueLabel } from "../../lib/people.ts"

/** Everyone who may own items, read once the desk opens. */
const useOwners = () => {
  const [owners, setOwners] = useState<ReadonlyArray<TriageOwnerEntry>>([])
  useEffect(() => {
    let live = true
    listOwners().then(
      (answer) => live && setOwners(answer.owners),
      () => undefined
    )
    return () => {
      live = false
    }
  }, [])
  return owners
}

/** What an item is most likely a duplicate of comes first: a report on the same wallet, a listing of the same name. */
const relatedFirst = (item: TriageItem, others: ReadonlyArray<TriageItem>): ReadonlyArray<TriageItem> => {
  const mark = (one: TriageItem) => {
    const words = itemWords(one)
    return one.area === "scam-report" && item.area === "scam-report"
      ? one.walletAddress !== "" && one.walletAddress === item.walletAddress
      : words.title === itemWords(item).title
  }
  return [...others.filter(mark), ...others.filter((one) => !mark(one))]
}

/**
 * Commands made on the items as shown, once the store is open (at once, nearly always): the store
 * names the versions they reach the server at; `made` hears the first one's and how many there are.
 */
const send = (commands: ReadonlyArray<CommandInput>, made?: (before: number, commands: number) => void) =>
  withStore((store) => {
    const [first] = commands.map((command) => store.command(command))
    const before = first === undefined ? undefined : store.namedVersion(first)
    if (before !== undefined) made?.(before, commands.length)
  })

/** The decision `z` undoes: the item, the version it was decided at and the one its commands made. */
interface Decided {
  readonly item: TriageItem
  readonly label: string
  readonly before: number
  readonly after: number
}

/**
 * The desk's keys and what they leave to say (docs/console.md, "The triage desk"): the decisions
 * of each item's own kind (./decisions.ts), `i`, Shift+I, `s`, `m`, `o` and `z`, the machine
 * (machines/triage-desk.ts) asking what a key needs first, and the next item made current after a
 * decision. The screen (./TriageScreen.tsx) declares how it shows.
 */
export const useDesk = () => {
  const me = AuthContext.useSelector((snapshot) => snapshot.context.user?._id)
  const owners = useOwners()
  // Resolving a report offers its related reports still open, while one of them is current.
  const [offer, setOffer] = useState<{ readonly ids: ReadonlySet<string>; readonly count: number } | null>(null)
  const [decided, setDecided] = useState<Decided | null>(null)
  // What the desk last said of a key: an undo, its refusal, a change that is not a decision.
  const [said, setSaid] = useState<{ readonly text: string; readonly refused?: boolean } | null>(null)
  // The item an undo brings back: current again once it is on the desk.
  const [comingBack, setComingBack] = useState<string | null>(null)
  /**
   * After a decision on the current item (or on a selection holding it) the next item is current:
   * a related report still open first, else the first row below that was not decided, else above.
   */
  const moveOn = useStableCallback((items: ReadonlyArray<TriageItem>, prefer: ReadonlyArray<{ readonly _id: string }> = []) => {
    const now = screen.focus.currentNow()
    const rows = screen.rows
    const at = rows.findIndex((row) => row._id === now)
    const decided = new Set(items.map((item) => item._id))
    if (at < 0 || !decided.has(rows[at]!._id)) return
    const open = (row: TriageItem) => !decided.has(row._id)
    const related = new Set(prefer.map((report) => report._id))
    const next = rows.find((row) => related.has(row._id) && open(row)) ?? rows.slice(at + 1).find(open) ?? rows.slice(0, at).reverse().find(open)
    if (next !== undefined) screen.focus.pick(next._id)
  })
  /** A decision or a desk change that closes the item here: `z` may undo it. */
  const madeOn = (item: TriageItem, label: string) => (before: number, commands: number) => setDecided({ item, label, before, after: before + commands })
  const itemOf = (ref: DeskItemRef) => ref as TriageItem
  const decisionOf = (decision: Decision) => areaDecisions.find((one) => one.id === decision.id)
  const decide = useStableCallback((ref: DeskItemRef, decision: Decision, reason: string) => {
    const item = itemOf(ref)
    const declared = decisionOf(decision)
    if (declared === undefined) return
    keepReason(reason)
    setSaid(null)
    const label = `${declared.name}: ${itemWords(item).title}`
    if (!declared.movesOn) {
      screen.keepShown(item)
      if (declared.stays !== undefined) setSaid({ text: declared.stays(itemWords(item).title) })
      send(declared.commands(item, { title: itemWords(item).title, reason }))
      return
    }
    // Resolving one report offers the others on its wallet or evidence still open.
    const open = item._id === screen.focus.current?._id ? related.filter(stillOpen) : []
    setOffer(open.length === 0 ? null : { ids: new Set(open.map((report) => report._id)), count: open.length })
    send(declared.commands(item, { title: itemWords(item).title, reason }), madeOn(item, label))
    moveOn([item], open)
  })
  /** A desk change: an owner keeps the item current; a snooze or a duplicate takes it off, and the next is current. */
  const change = useStableCallback((item: TriageItem, body: Parameters<typeof deskChangeCommand>[1], label: string) => {
    const closes = !("owner" in body)
    const words = `${label}: ${itemWords(item).title}`
    setSaid(null)
    if (!closes) screen.keepShown(item)
    send([deskChangeCommand(item, body, item.version, { label: words, failed: t.failed })], closes ? madeOn(item, words) : undefined)
    if (closes) moveOn([item])
  })
  // `z`: the last decision made here undone (the record as it was before it, at the version it
  // made), once this browser's commands have reached the server; its item is current again.
  const undo = useStableCallback(async () => {
    const last = decided
    if (last === null) return
    setDecided(null)
    setSaid(null)
    await currentStore()?.settled()
    try {
      await restoreVersion(last.item.area, last.item._id, last.before, last.after)
      setComingBack(last.item._id)
      setSaid({ text: t.undone(last.label) })
    } catch (error) {
      setSaid({ text: `${t.undoFailed}: ${failureOf(error).message}`, refused: true })
    }
  })
  // A key never moves the current item, one key for many included (docs/architecture.md, "Keys on a list").
  const keepCurrent = useStableCallback(() => {
    const now = screen.focus.current
    if (now !== undefined) screen.keepShown(now)
  })
  const desk = useMachine(() =>
    triageDeskMachine.provide({
      actions: {
        decide: (_, params) => decide(params.item, params.decision, params.reason),
        assignMe: (_, params) => me !== undefined && change(itemOf(params.item), { owner: me }, t.assignMe),
        answer: (_, params) => {
          const item = itemOf(params.item)
          if (params.question === "reason" && params.decision !== null) decide(item, params.decision, params.value)
          else if (params.question === "snooze") change(item, { snoozedUntil: params.value }, t.snooze)
          else if (params.question === "owner") change(item, { owner: params.value }, t.assignOther)
          else if (params.question === "duplicate") {
            const status = duplicateStatus[item.area]
            change(item, { duplicateOf: params.value, status }, t.duplicate)
          }
        }
      }
    })
  )
  const question = useSelector(desk, (snapshot) => snapshot.context)
  const open = useSelector(desk, asking)
  // `o`: the current report and its related ones still open on this page, selected for one key
  // (those the last resolution offered too: the current one's own may still be on their way).
  const selectRelated = useStableCallback((item: TriageItem) => {
    const offered = offer !== null && offer.ids.has(item._id) ? [...offer.ids] : []
    const open = new Set([...related.filter(stillOpen).map((report) => report._id), ...offered].filter((id) => id !== item._id))
    // The item as the store has it this instant: a decision made on it a moment ago counts.
    const now = currentStore()?.view(item.area, item._id, item) ?? item
    const waiting = now.area === "scam-report" && stillOpen(now) ? [item._id] : []
    screen.selection.choose([...waiting, ...screen.rows.filter((row) => open.has(row._id)).map((row) => row._id)])
  })
  const relatedActions = useMemo(
    (): ReadonlyArray<ListAction<TriageItem>> => [
      {
        id: "triage:select-related",
        key: "o",
        hint: t.selectRelatedKey,
        label: () => t.selectRelated,
        when: (item) => item.area === "scam-report",
        run: selectRelated
      }
    ],
    [selectRelated]
  )
  const actions = useMemo(
    (): ReadonlyArray<ListAction<TriageItem>> => [
      ...areaDecisions.map((decision: AreaDecision): ListAction<TriageItem> => ({
        id: decision.id,
        key: decision.key,
        hint: decision.hint,
        label: (item) => `${decision.name}: ${itemWords(item).title}`,
        when: decision.when,
        run: (item) => desk.send({ type: "DECIDE", item, decision: { id: decision.id, asksReason: decision.asksReason } }),
        // One key for a selection: each item's own command, in order, no reason asked.
        bulk: {
          label: (items) => `${decision.name}: ${items.length} ${t.noun}`,
          when: (items) => items.every(decision.when),
          run: (items) => {
            if (decision.movesOn) setDecided(null)
            else keepCurrent()
            send(items.flatMap((item) => decision.commands(item, { title: itemWords(item).title, reason: "" })))
            if (decision.movesOn) moveOn(items)
          }
        }
      })),
      {
        id: "triage:assign-me",
        key: "i",
        hint: t.assignHint,
        label: (item) => `${t.assignMe}: ${itemWords(item).title}`,
        when: (item) => item.ownerId !== me,
        run: (item) => desk.send({ type: "ASSIGN_ME", item }),
        bulk: {
          label: (items) => `${t.assignMe}: ${items.length} ${t.noun}`,
          when: (items) => items.some((item) => item.ownerId !== me),
          run: (items) => {
            for (const item of items) if (me !== undefined && item.ownerId !== me) change(item, { owner: me }, t.assignMe)
          }
        }
      },
      {
        id: "triage:assign",
        key: "I",
        hint: t.assignOtherHint,
        label: (item) => `${t.assignOther}: ${itemWords(item).title}`,
        run: (item) => desk.send({ type: "ASK", item, question: "owner" })
      },
      {
        id: "triage:snooze",
        key: "s",
        hint: t.snoozeHint,
        label: (item) => `${t.snooze}: ${itemWords(item).title}`,
        run: (item) => desk.send({ type: "ASK", item, question: "snooze" })
      },
      {
        id: "triage:duplicate",
        key: "m",
        hint: t.duplicateHint,
        label: (item) => `${t.duplicate}: ${itemWords(item).title}`,
        run: (item) => desk.send({ type: "ASK", item, question: "duplicate" })
      }
    ],
    [desk, me, change, keepCurrent, moveOn]
  )
  const every = useMemo(() => [...actions, ...relatedActions], [actions, relatedActions])
  const commands = useMemo(
    () =>
      decided === null
        ? []
        : [{ id: "triage:undo", label: t.undo(decided.label), shortcut: ["z"], hint: t.undoHint, keywords: ["undo", "back"], run: () => void undo() }],
    [decided, undo]
  )
  const screen = useListScreen(deskSpec, { actions: every, idle: !open, commands })
  // Kept shown while current, as after any key: a page read before the undo reached the server,
  // answered after the item came back from the store, would take it away and the current row with it.
  const { rows: shown, focus: rowFocus, keepShown } = screen
  useEffect(() => {
    const back = comingBack === null ? undefined : shown.find((row) => row._id === comingBack)
    if (back === undefined) return
    rowFocus.pick(back._id)
    keepShown(back)
    setComingBack(null)
  }, [comingBack, shown, rowFocus, keepShown])
  const related = useRelated(screen.focus.current)
  const ownerName = (id: string) => {
    const owner = owners.find((one) => one._id === id)
    return owner === undefined ? "…" : owner._id === me ? t.owners.me : colleagueLabel(owner)
  }
  const item = question.item === null ? null : itemOf(question.item)
  // What it may duplicate: a report's related reports first (decided ones too), then the items of its kind on this page.
  const relatedItems: ReadonlyArray<TriageItem> =
    item?.area === "scam-report" && item._id === screen.focus.current?._id ? related.map((report) => ({ ...report, area: "scam-report" as const })) : []
  const others =
    item === null
      ? []
      : [
          ...relatedItems,
          ...relatedFirst(
            item,
            screen.rows.filter(
              (row) => row.area === item.area && row._id !== item._id && row.duplicateOf === null && !relatedItems.some((one) => one._id === row._id)
            )
          )
        ]
  const decision = question.decision === null ? undefined : decisionOf(question.decision)
  const relatedCounts = useMemo(() => relatedOnPage(screen.rows), [screen.rows])
  // The palette offers the reasons used lately for the current item's decisions that take one.
  const current = screen.focus.current
  const reasonCommands: ReadonlyArray<Command> =
    current === undefined || open
      ? []
      : areaDecisions
          .filter((one) => one.asksReason && one.when(current))
          .flatMap((one) =>
            reasonsUsed().map((reason, at) => ({
              id: `triage:reason:${one.id}:${at}`,
              label: t.withReason(one.name, reason, itemWords(current).title),
              group: t.title,
              run: () => decide(current, { id: one.id, asksReason: true }, reason)
            }))
          )
  useDeclaredCommands(reasonCommands)
  return { screen, desk, question, item, others, decision, owners, ownerName, said, offer, current, related, relatedCounts }
}
