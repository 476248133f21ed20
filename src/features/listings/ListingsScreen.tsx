import "./listings.css"
import { PlusIcon } from "@radix-ui/react-icons"
import { Button, Callout, Flex, Text } from "@radix-ui/themes"
import { useActorRef, useSelector } from "@xstate/react"
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from "react"
import { fromPromise } from "xstate"
import { type ListingStatus, listingStatuses, type ModerationAction } from "../../../contract/listing-rules.ts"
import { failureOf } from "../../../contract/call-failure.ts"
import { actionsFor, canUndo, currentRef, inFlight, listingModerationMachine, shownStatus } from "../../../machines/listing-moderation.ts"
import { moveListings, undoChange } from "../../api/listings.ts"
import { AuthContext, useEditorRefusal } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands, withRefusal } from "../../lib/commands.tsx"
import { useListScreen } from "../../lib/list/use-list-screen.ts"
import type { RowAction } from "../../lib/list/use-row-focus.ts"
import { useDialogAction } from "../../lib/use-dialog-action.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { ConfirmDelete } from "../../ui/ConfirmDelete.tsx"
import { CountCards } from "../../ui/CountCards.tsx"
import { ListScreen } from "../../ui/list/ListScreen.tsx"
import type { QueueKind, QueueRow } from "./kinds.ts"
import { ListingCard } from "./ListingCard.tsx"
import { QueueForm } from "./QueueForm.tsx"
import { actionLabel, changeText, listingTexts as t, undoneText } from "./texts.ts"

const actionKeys = { a: "approve", r: "reject", p: "pending" } as const satisfies Record<string, ModerationAction>
const keyOf = (action: ModerationAction) => Object.entries(actionKeys).find(([, value]) => value === action)?.[0] ?? ""

/**
 * docs/product-spec.md §2 "Community and Influencer management", triaged from the keyboard on
 * the one list screen: the moderation machine (machines/listing-moderation.ts) decides which
 * actions exist for the current card or the selection; a change shows at once, is undoable for
 * 10 s, and the list and its counts reload after the server's answer. One key is the whole
 * decision on a card, so after `a`, `r` or `p` the next pending card is current
 * (docs/architecture.md, "Keys on a list").
 */
export const ListingsScreen = ({ kind }: { readonly kind: QueueKind }) => {
  const canEdit = AuthContext.useSelector((snapshot) => snapshot.context.user?.role !== "moderator")
  const refusal = useEditorRefusal()
  const listChanged = useStableCallback((): void => reload())
  const [moderationLogic] = useState(() =>
    listingModerationMachine.provide({
      actors: {
        move: fromPromise(({ input }) => moveListings(input)),
        undo: fromPromise(({ input }) => undoChange(input))
      },
      actions: { listChanged }
    })
  )
  const moderation = useActorRef(moderationLogic)
  const snapshot = useSelector(moderation, (current) => current)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  /** The record the add/edit form is open on (null: a new one); undefined while it is closed. */
  const [editing, setEditing] = useState<QueueRow | null | undefined>(undefined)
  const deleting = useDialogAction<QueueRow>(t.deleteFailed)
  const openDeleting = deleting.open
  const [visibilityError, setVisibilityError] = useState<string | null>(null)
  const anchor = useRef<string | null>(null)
  const idle = editing === undefined && deleting.state === null
  const spec = useMemo(
    () => ({
      title: kind.title,
      noun: kind.plural,
      querySpec: kind.querySpec,
      fetchPage: kind.list,
      idOf: (listing: QueueRow) => listing._id,
      history: { kind: "listing" as const, labelOf: (listing: QueueRow) => listing.name },
      exportCsv: kind.exportCsv
    }),
    [kind]
  )

  const current = (listing: QueueRow) => currentRef(moderation.getSnapshot().context, listing)
  const openEdit = useStableCallback((listing: QueueRow) => setEditing(current(listing)))
  const openAdd = useCallback(() => setEditing(null), [])
  const toggleSelected = useCallback((listing: QueueRow) => {
    anchor.current = listing._id
    setSelected((before) => {
      const next = new Set(before)
      if (next.has(listing._id)) next.delete(listing._id)
      else next.add(listing._id)
      return next
    })
  }, [])
  /** Flips a record's public visibility (`t`) or its featured flag (`f`), then reloads the list. */
  const toggle = useStableCallback(async (flag: "isActive" | "featured", listing: QueueRow) => {
    const set = flag === "isActive" ? kind.setActive : kind.setFeatured
    // One change at a time: while a status change is in flight the record's next version is unknown.
    if (set === undefined || inFlight(moderation.getSnapshot())) return
    setVisibilityError(null)
    try {
      await set(current(listing), flag === "isActive" ? listing.isActive === false : listing.featured !== true)
    } catch (error) {
      setVisibilityError(`${flag === "isActive" ? t.visibilityFailed : t.featuredFailed}: ${failureOf(error).message}`)
    }
    reload()
  })

  // The anchor is a record, not a position: a reload between x and Shift+J (a pending queue
  // loses the cards just approved) moves the rows under it. It reads the rows shown now: the
  // row actions that call it are made once per selection, not per page.
  const extend = useStableCallback((listing: QueueRow, step: number) => {
    const pick = screen.focus.pick
    const index = rows.findIndex((row) => row._id === listing._id)
    const anchored = anchor.current === null ? -1 : rows.findIndex((row) => row._id === anchor.current)
    const start = anchored >= 0 ? anchored : index
    const target = Math.max(0, Math.min(rows.length - 1, index + step))
    anchor.current = rows[start]?._id ?? null
    const [low, high] = start <= target ? [start, target] : [target, start]
    setSelected(new Set(rows.slice(low, high + 1).map((row) => row._id)))
    const next = rows[target]
    if (next !== undefined) pick(next._id)
  })

  const actions = useMemo(
    (): ReadonlyArray<RowAction<QueueRow>> => [
      ...withRefusal<RowAction<QueueRow>>(refusal(`edit ${kind.plural}`), [
        { id: "listings:edit", key: "e", label: (listing) => `${t.edit} "${listing.name}"`, run: openEdit },
        { id: "listings:open", key: "Enter", inPalette: false, label: (listing) => `${t.edit} "${listing.name}"`, run: openEdit }
      ]),
      ...withRefusal<RowAction<QueueRow>>(refusal(`delete ${kind.plural}`), [
        { id: "listings:delete", key: "Delete", label: (listing) => `${t.delete} "${listing.name}"`, run: openDeleting }
      ]),
      { id: "listings:select", key: "x", label: (listing) => `${selected.has(listing._id) ? t.unselect : t.select} "${listing.name}"`, run: toggleSelected },
      { id: "listings:extend-down", key: "J", inPalette: false, label: () => t.extendDown, run: (listing) => extend(listing, 1) },
      { id: "listings:extend-up", key: "K", inPalette: false, label: () => t.extendUp, run: (listing) => extend(listing, -1) },
      ...(kind.setActive === undefined || selected.size > 0
        ? []
        : [
            {
              id: "listings:toggle-active",
              key: "t",
              label: (listing: QueueRow) => `${listing.isActive === false ? t.show : t.hide} "${listing.name}"`,
              run: (listing: QueueRow) => void toggle("isActive", listing)
            }
          ]),
      ...(kind.setFeatured === undefined || selected.size > 0
        ? []
        : [
            {
              id: "listings:toggle-featured",
              key: "f",
              label: (listing: QueueRow) => `${listing.featured === true ? t.unfeature : t.feature} "${listing.name}"`,
              run: (listing: QueueRow) => void toggle("featured", listing)
            }
          ])
    ],
    [refusal, kind, selected, openEdit, openDeleting, toggleSelected, extend, toggle]
  )
  const screen = useListScreen(spec, { actions, idle })
  const { url, query, rows } = screen
  const reload = screen.list.reload
  const status = query.filters.status as ListingStatus | undefined

  // Arriving from the palette's "New event" (anywhere): the form opens, once.
  const openAsked = useEffectEvent(() => {
    const state = history.state as { openNewRecord?: boolean } | null
    if (state?.openNewRecord !== true || !canEdit) return
    history.replaceState({ ...state, openNewRecord: false }, "")
    openAdd()
  })
  useEffect(() => openAsked(), [])
  // Another page or filter is another queue: the selection does not follow.
  useEffect(() => setSelected(new Set()), [query])

  const selection = useMemo(() => rows.filter((row) => selected.has(row._id)).map((row) => currentRef(snapshot.context, row)), [rows, selected, snapshot])
  const focused = screen.focus.current
  const targets = useMemo(
    () => (selection.length > 0 ? selection : focused === undefined ? [] : [currentRef(snapshot.context, focused)]),
    [selection, focused, snapshot]
  )
  const act = useStableCallback((action: ModerationAction, listings: ReadonlyArray<QueueRow>, moveOn: boolean) => {
    if (!actionsFor(moderation.getSnapshot(), listings).includes(action)) return
    moderation.send({ type: "ACT", action, listings })
    if (listings.length > 1) setSelected(new Set())
    // The whole decision on a card is one key: the next pending card is current.
    const from = listings.length === 1 ? rows.findIndex((row) => row._id === listings[0]?._id) : -1
    if (!moveOn || from < 0) return
    const after = moderation.getSnapshot().context
    const next = rows.find((row, index) => index > from && shownStatus(after, row) === "pending")
    if (next !== undefined) screen.focus.pick(next._id)
  })

  const commands = useMemo((): ReadonlyArray<Command> => {
    const group = kind.title
    const names = targets.map((listing) => listing.name)
    return [
      ...actionsFor(snapshot, targets).map((action): Command => ({
        id: `listings:${action}`,
        label: actionLabel(action, names, selection.length > 0),
        group,
        shortcut: [keyOf(action)],
        guard: () => idle,
        run: () => act(action, targets, selection.length === 0)
      })),
      ...(canUndo(snapshot) && snapshot.context.done !== null
        ? [
            {
              id: "listings:undo",
              label: `${t.undo}: ${changeText(
                snapshot.context.done.action,
                snapshot.context.done.moves.map((move) => move.name)
              )}`,
              group,
              shortcut: ["z"],
              guard: () => idle,
              run: () => moderation.send({ type: "UNDO" })
            }
          ]
        : []),
      ...(selection.length > 0
        ? [{ id: "listings:clear-selection", label: t.clearSelection, group, shortcut: ["Escape"], guard: () => idle, run: () => setSelected(new Set()) }]
        : []),
      ...withRefusal<Command>(refusal(`add ${kind.plural}`), [
        { id: `listings:new-${kind.key}`, label: `New ${kind.noun}`, group, shortcut: ["n"], keywords: ["add", "create"], guard: () => idle, run: openAdd }
      ]),
      ...listingStatuses.map((value): Command => ({
        id: `listings:filter:${value}`,
        label: `Show ${t.statuses[value].toLowerCase()} ${kind.plural}`,
        group,
        guard: () => idle && status !== value,
        run: () => url.filter("status", value)
      })),
      { id: "listings:filter:all", label: `Show all ${kind.plural}`, group, guard: () => idle && status !== undefined, run: () => url.filter("status", "") }
    ]
  }, [snapshot, targets, selection.length, idle, status, refusal, kind, url, act, openAdd, moderation])
  useRegisterCommands(commands)

  const counts = screen.list.page?.counts
  const done = snapshot.context.done
  const failure = snapshot.matches("failed") ? snapshot.context.error : null
  return (
    <ListScreen
      screen={screen}
      texts={{
        searchLabel: t.searchLabel,
        searchPlaceholder: t.searchPlaceholder,
        loading: t.loading,
        loadFailed: kind.loadFailed,
        empty: kind.empty,
        hint: `${t.keyboardHint}${kind.setActive === undefined ? "" : t.visibilityHint}${kind.setFeatured === undefined ? "" : t.featuredHint}`
      }}
      above={
        <CountCards
          label={t.countsLabel}
          cards={(["total", ...listingStatuses] as const).map((key) => ({
            key,
            label: t.counts[key],
            value: counts?.[key],
            active: key === "total" ? status === undefined : status === key,
            onClick: () => url.filter("status", key === "total" ? "" : key)
          }))}
        />
      }
      filters={kind.filters.map((filter) => ({ ...filter, allLabel: t.allOptions(filter.label) }))}
      tools={
        <>
          {canEdit && (
            <Button onClick={openAdd}>
              <PlusIcon /> {kind.add}
            </Button>
          )}
          {selection.length > 0 && (
            <Flex gap="2" align="center">
              <Text size="2" weight="medium">
                {t.selected(selection.length)}
              </Text>
              <Button size="1" variant="soft" color="gray" onClick={() => setSelected(new Set())}>
                {t.clearSelection}
              </Button>
            </Flex>
          )}
        </>
      }
      notices={[visibilityError, failure].map(
        (message, index) =>
          message !== null && (
            <Callout.Root key={index} color="red" role="alert" mb="3">
              <Callout.Text>
                {message}{" "}
                <Button size="1" variant="soft" color="red" onClick={() => (index === 0 ? setVisibilityError(null) : moderation.send({ type: "DISMISS" }))}>
                  {t.dismiss}
                </Button>
              </Callout.Text>
            </Callout.Root>
          )
      )}
      view={{
        cards: {
          label: kind.title,
          card: (listing) => (
            <ListingCard
              kind={kind}
              listing={listing}
              shown={shownStatus(snapshot.context, listing)}
              selected={selected.has(listing._id)}
              actions={actionsFor(snapshot, [current(listing)])}
              busy={inFlight(snapshot)}
              canEdit={canEdit}
              on={{
                act: (action) => act(action, [current(listing)], false),
                toggleFeatured: () => void toggle("featured", listing),
                toggleActive: () => void toggle("isActive", listing),
                edit: () => openEdit(listing),
                remove: () => openDeleting(listing)
              }}
            />
          )
        }
      }}
    >
      {snapshot.matches("undone") && snapshot.context.undone !== null && (
        <div className="undo-toast" role="status">
          <Text size="2">{undoneText(snapshot.context.undone)}</Text>
          <Button size="1" variant="ghost" color="gray" onClick={() => moderation.send({ type: "DISMISS" })}>
            {t.dismiss}
          </Button>
        </div>
      )}
      {canUndo(snapshot) && done !== null && (
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
          <Button size="1" variant="ghost" color="gray" onClick={() => moderation.send({ type: "DISMISS" })}>
            {t.dismiss}
          </Button>
        </div>
      )}
      <QueueForm
        open={editing}
        kind={kind}

        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined)
          reload()
        }}
      />
      <ConfirmDelete
        state={deleting.state === null ? null : { subject: deleting.state.target.name, busy: deleting.state.busy, error: deleting.state.error }}
        title={t.deleteTitle}
        question={kind.confirmDelete}
        texts={t}
        onClose={deleting.close}
        onConfirm={() => void deleting.run((listing) => kind.remove(listing), reload)}
      />
    </ListScreen>
  )
}
