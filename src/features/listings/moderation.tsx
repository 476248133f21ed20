import { Button, Text } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
import { useEffect } from "react"
import type { ActorRefFrom } from "xstate"
import { type ModerationAction, moderationActions } from "../../../contract/listing-rules.ts"
import { actionsFor, canUndo, listingModerationMachine, moderationErrors } from "../../../machines/listing-moderation.ts"
import { LISTING_KIND } from "../../api/listings.ts"
import { moderationKeys, moveCommand, undoCommands } from "../../kinds/listings.ts"
import { useStore, withStore } from "../../lib/store/handle.ts"
import { withRefusal } from "../../lib/commands.tsx"
import type { ListAction, ListCommand } from "../../lib/list/use-list-screen.ts"
import { useMachine } from "../../lib/use-machine.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import type { QueueKind, QueueRow } from "./kinds.ts"
import { actionLabel, changeText, listingTexts as t, undoneText } from "./texts.ts"

type Moderation = ActorRefFrom<typeof listingModerationMachine>

/** What moderation reads of the list screen when it acts: its rows (as shown), and where the keys go. */
interface ShownQueue {
  readonly rows: ReadonlyArray<QueueRow>
  readonly reload: () => void
  readonly pick: (id: string) => void
}

const tones = { approve: "green", reject: "red", pending: undefined } as const
const hints = { approve: "approve", reject: "reject", pending: "set pending (each moves on to the next pending card)" } as const

/**
 * A queue's moderation (machines/listing-moderation.ts): the machine alone decides which actions
 * a card or a selection is offered, judged on the cards as shown; a change is a command
 * (docs/architecture.md, "The browser's store"): it shows at once, goes out in order with the
 * others, and is undoable for 10 s. One key is the whole decision on a card, so after `a`, `r`
 * or `p` the next pending card is current (docs/architecture.md, "Keys on a list"), and the next
 * key acts on it at once, whatever the server is doing. `queue` is read when a change is made
 * (the list screen is made after this hook).
 */
export const useModeration = (kind: QueueKind, queue: () => ShownQueue) => {
  const moderation = useMachine(() =>
    listingModerationMachine.provide({
      actions: {
        change: (_, done) =>
          withStore((store) =>
            store.command(
              moveCommand(done, {
                label: changeText(
                  done.action,
                  done.moves.map((move) => move.name)
                ),
                failed: moderationErrors.move
              })
            )
          ),
        undo: (_, done) =>
          withStore((store) => {
            for (const command of undoCommands(done, { label: undoneText(done), failed: moderationErrors.undo })) store.command(command)
          })
      }
    })
  )
  const store = useStore()
  // The server refused a change: it is back as the server has it (said by the console's notice), and no longer undoable.
  useEffect(() => store?.onRefusal((refusal) => moderation.send({ type: "REFUSED", commandId: refusal.commandId })), [store, moderation])
  const context = useSelector(moderation, (snapshot) => snapshot.context)
  const undoable = useSelector(moderation, canUndo)
  const allows = (action: ModerationAction, listings: ReadonlyArray<QueueRow>) => actionsFor(listings).includes(action)
  const act = useStableCallback((action: ModerationAction, listings: ReadonlyArray<QueueRow>, moveOn: boolean) => {
    if (!actionsFor(listings).includes(action)) return
    moderation.send({ type: "ACT", action, listings, commandId: crypto.randomUUID() })
    const { rows, pick } = queue()
    const from = listings.length === 1 ? rows.findIndex((row) => row._id === listings[0]?._id) : -1
    if (!moveOn || from < 0) return
    const next = rows.find((row, index) => index > from && row.status === "pending")
    if (next !== undefined) pick(next._id)
  })
  /** Flips a record's public visibility (`t`) or its featured flag (`f`): a command, shown at once, after any change of it still waiting. */
  const toggle = useStableCallback((flag: "isActive" | "featured", listing: QueueRow) => {
    const made = flag === "isActive" ? kind.setActive : kind.setFeatured
    if (made === undefined) return
    const on = flag === "isActive" ? listing.isActive === false : listing.featured !== true
    withStore((store) =>
      store.command({
        ...made(listing, on, listing.version),
        kind: LISTING_KIND,
        recordIds: [listing._id],
        answer: "data.listing",
        label: `${flag === "isActive" ? (on ? t.show : t.hide) : on ? t.feature : t.unfeature} "${listing.name}"`,
        failed: flag === "isActive" ? t.visibilityFailed : t.featuredFailed
      })
    )
  })

  const moves = moderationActions.map((action): ListAction<QueueRow> => ({
    id: `listings:${action}`,
    key: moderationKeys[action],
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
            run: (listing: QueueRow) => toggle("featured", listing),
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
            run: (listing: QueueRow) => toggle("isActive", listing),
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
    actions: [...moves, ...toggles],
    undo
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
      confirm: {
        title: t.deleteTitle,
        question: kind.confirmDelete,
        subject: (listing) => listing.name,
        texts: t,
        failed: t.deleteFailed,
        removes: true,
        run: kind.remove
      }
    }
  ])
]

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
