import { Button, Callout, Text } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
import { useState } from "react"
import { type ActorRefFrom, fromPromise } from "xstate"
import { type ModerationAction, moderationActions } from "../../../contract/listing-rules.ts"
import { failureOf } from "../../../contract/call-failure.ts"
import { actionsFor, canUndo, currentRef, inFlight, listingModerationMachine, shownStatus } from "../../../machines/listing-moderation.ts"
import { moveListings, undoChange } from "../../api/listings.ts"
import { withRefusal } from "../../lib/commands.tsx"
import type { ListAction, ListCommand } from "../../lib/list/use-list-screen.ts"
import { useMachine } from "../../lib/use-machine.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import type { QueueKind, QueueRow } from "./kinds.ts"
import { actionLabel, changeText, listingTexts as t, undoneText } from "./texts.ts"

type Moderation = ActorRefFrom<typeof listingModerationMachine>

/** What moderation reads of the list screen when it acts: its rows, and where the keys go. */
interface ShownQueue {
  readonly rows: ReadonlyArray<QueueRow>
  readonly reload: () => void
  readonly pick: (id: string) => void
}

const keys = { approve: "a", reject: "r", pending: "p" } as const satisfies Record<ModerationAction, string>
const tones = { approve: "green", reject: "red", pending: undefined } as const
const hints = { approve: "approve", reject: "reject", pending: "set pending (each moves on to the next pending card)" } as const

/**
 * A queue's moderation (machines/listing-moderation.ts): the machine alone decides which actions
 * a card or a selection is offered; a change shows at once and is undoable for 10 s; the list
 * reloads after the server's answer. One key is the whole decision on a card, so after `a`, `r`
 * or `p` the next pending card is current (docs/architecture.md, "Keys on a list"). `queue` is
 * read when a change is made (the list screen is made after this hook).
 */
export const useModeration = (kind: QueueKind, queue: () => ShownQueue) => {
  const listChanged = useStableCallback((): void => queue().reload())
  const moderation = useMachine(() =>
    listingModerationMachine.provide({
      actors: { move: fromPromise(({ input }) => moveListings(input)), undo: fromPromise(({ input }) => undoChange(input)) },
      actions: { listChanged }
    })
  )
  const context = useSelector(moderation, (snapshot) => snapshot.context)
  const busy = useSelector(moderation, inFlight)
  const undoable = useSelector(moderation, canUndo)
  const [toggleError, setToggleError] = useState<string | null>(null)
  const current = (listing: QueueRow) => currentRef(context, listing)
  const allows = (action: ModerationAction, listings: ReadonlyArray<QueueRow>) =>
    !busy && actionsFor(moderation.getSnapshot(), listings.map(current)).includes(action)
  const act = useStableCallback((action: ModerationAction, chosen: ReadonlyArray<QueueRow>, moveOn: boolean) => {
    const listings = chosen.map(current)
    if (!actionsFor(moderation.getSnapshot(), listings).includes(action)) return
    moderation.send({ type: "ACT", action, listings })
    const { rows, pick } = queue()
    const from = listings.length === 1 ? rows.findIndex((row) => row._id === listings[0]?._id) : -1
    if (!moveOn || from < 0) return
    const after = moderation.getSnapshot().context
    const next = rows.find((row, index) => index > from && shownStatus(after, row) === "pending")
    if (next !== undefined) pick(next._id)
  })
  /** Flips a record's public visibility (`t`) or its featured flag (`f`), then reloads the list. */
  const toggle = useStableCallback(async (flag: "isActive" | "featured", listing: QueueRow) => {
    const set = flag === "isActive" ? kind.setActive : kind.setFeatured
    // One change at a time: while a status change is in flight the record's next version is unknown.
    if (set === undefined || inFlight(moderation.getSnapshot())) return
    setToggleError(null)
    try {
      await set(current(listing), flag === "isActive" ? listing.isActive === false : listing.featured !== true)
    } catch (error) {
      setToggleError(`${flag === "isActive" ? t.visibilityFailed : t.featuredFailed}: ${failureOf(error).message}`)
    }
    queue().reload()
  })

  const moves = moderationActions.map((action): ListAction<QueueRow> => ({
    id: `listings:${action}`,
    key: keys[action],
    hint: hints[action],
    label: (listing) => actionLabel(action, [listing.name], false),
    when: (listing) => allows(action, [listing]),
    run: (listing) => act(action, [listing], true),
    button: { label: t.actions[action], ...(tones[action] === undefined ? {} : { tone: tones[action] }), onClick: (listing) => act(action, [listing], false) },
    bulk: {
      label: (listings) =>
        actionLabel(
          action,
          listings.map((listing) => listing.name),
          true
        ),
      when: (listings) => allows(action, listings),
      run: (listings) => act(action, listings, false)
    }
  }))
  const toggles: ReadonlyArray<ListAction<QueueRow>> = [
    ...(kind.setFeatured === undefined
      ? []
      : [
          {
            id: "listings:toggle-featured",
            key: "f",
            hint: "feature or unfeature",
            label: (listing: QueueRow) => `${listing.featured === true ? t.unfeature : t.feature} "${listing.name}"`,
            when: () => !busy,
            run: (listing: QueueRow) => void toggle("featured", listing),
            button: { label: (listing: QueueRow) => (listing.featured === true ? t.unfeature : t.feature) }
          }
        ]),
    ...(kind.setActive === undefined
      ? []
      : [
          {
            id: "listings:toggle-active",
            key: "t",
            hint: "show or hide",
            label: (listing: QueueRow) => `${listing.isActive === false ? t.show : t.hide} "${listing.name}"`,
            when: () => !busy,
            run: (listing: QueueRow) => void toggle("isActive", listing),
            button: { label: (listing: QueueRow) => (listing.isActive === false ? t.show : t.hide) }
          }
        ])
  ]
  const done = context.done
  const undo: ListCommand = {
    id: "listings:undo",
    label:
      done === null
        ? t.undo
        : `${t.undo}: ${changeText(
            done.action,
            done.moves.map((move) => move.name)
          )}`,
    shortcut: ["z"],
    hint: "undo",
    guard: () => undoable && done !== null,
    run: () => moderation.send({ type: "UNDO" })
  }
  return {
    moderation,
    /** The status a card is shown in, this screen's own change on it. */
    shown: (listing: QueueRow) => shownStatus(context, listing),
    current,
    actions: [...moves, ...toggles],
    undo,
    toggleError: { text: toggleError, dismiss: () => setToggleError(null) }
  }
}

/** The row actions every queue has beyond moderation: edit (`e`, Enter) and delete, each refused to a role that may not. */
export const editActions = (
  kind: QueueKind,
  refusal: (what: string) => string | undefined,
  edit: (listing: QueueRow) => void
): ReadonlyArray<ListAction<QueueRow>> => [
  ...withRefusal<ListAction<QueueRow>>(refusal(`edit ${kind.plural}`), [
    { id: "listings:open", key: "Enter", hint: "edit", inPalette: false, label: (listing) => `${t.edit} "${listing.name}"`, run: edit },
    { id: "listings:edit", key: "e", hint: "edit", label: (listing) => `${t.edit} "${listing.name}"`, run: edit, button: { label: t.edit } }
  ]),
  ...withRefusal<ListAction<QueueRow>>(refusal(`delete ${kind.plural}`), [
    {
      id: "listings:delete",
      key: "Delete",
      hint: "delete",
      label: (listing) => `${t.delete} "${listing.name}"`,
      button: { label: t.delete, tone: "red" },
      confirm: { title: t.deleteTitle, question: kind.confirmDelete, subject: (listing) => listing.name, texts: t, failed: t.deleteFailed, run: kind.remove }
    }
  ])
]

/** What went wrong: a toggle the server refused, a change it refused; each with Dismiss. */
export const ModerationNotices = ({
  moderation,
  toggleError
}: {
  readonly moderation: Moderation
  readonly toggleError: ReturnType<typeof useModeration>["toggleError"]
}) => {
  const failure = useSelector(moderation, (snapshot) => (snapshot.matches("failed") ? snapshot.context.error : null))
  const dismiss = [toggleError.dismiss, () => moderation.send({ type: "DISMISS" })]
  return [toggleError.text, failure].map(
    (message, index) =>
      message !== null && (
        <Callout.Root key={index} color="red" role="alert" mb="3">
          <Callout.Text>
            {message}{" "}
            <Button size="1" variant="soft" color="red" onClick={dismiss[index]}>
              {t.dismiss}
            </Button>
          </Callout.Text>
        </Callout.Root>
      )
  )
}

/** The change just made, with Undo (z) while it may be undone; then what an undo did. */
export const UndoToasts = ({ moderation }: { readonly moderation: Moderation }) => {
  const undone = useSelector(moderation, (snapshot) => (snapshot.matches("undone") ? snapshot.context.undone : null))
  const done = useSelector(moderation, (snapshot) => (canUndo(snapshot) ? snapshot.context.done : null))
  const dismiss = () => moderation.send({ type: "DISMISS" })
  return (
    <>
      {undone !== null && (
        <div className="undo-toast" role="status">
          <Text size="2">{undoneText(undone)}</Text>
          <Button size="1" variant="ghost" color="gray" onClick={dismiss}>
            {t.dismiss}
          </Button>
        </div>
      )}
      {done !== null && (
        <div className="undo-toast" role="status">
          <Text size="2">
            {changeText(
              done.action,
              done.moves.map((move) => move.name)
            )}
          </Text>
          <Button size="1" variant="soft" onClick={() => moderation.send({ type: "UNDO" })}>
            {t.undo} (z)
          </Button>
          <Button size="1" variant="ghost" color="gray" onClick={dismiss}>
            {t.dismiss}
          </Button>
        </div>
      )}
    </>
  )
}
