import "./listings.css"
import { PlusIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Flex, Text } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
import { useEffect, useMemo, useRef, useState } from "react"
import { fromPromise } from "xstate"
import { type ListingStatus, listingStatuses, type ModerationAction } from "../../../contract/listing-rules.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { actionsFor, canUndo, currentRef, inFlight, listingModerationMachine, shownStatus } from "../../../machines/listing-moderation.ts"
import { moveListings, undoChange } from "../../api/listings.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { shortDate } from "../../lib/dates.ts"
import { useCsvExport } from "../../lib/list/export-csv.ts"
import { listCommands } from "../../lib/list/list-commands.ts"
import { useUrlQuery } from "../../lib/list/url-query.ts"
import { useDebouncedSearch } from "../../lib/list/use-debounced-search.ts"
import { useList } from "../../lib/list/use-list.ts"
import { useRowKeyboard } from "../../lib/list/use-row-keyboard.ts"
import { CardList } from "../../ui/list/CardList.tsx"
import { FilterSelect } from "../../ui/list/FilterSelect.tsx"
import { ExportCsvButton, ListFrame } from "../../ui/list/ListFrame.tsx"
import { ConfirmDelete } from "../../ui/ConfirmDelete.tsx"
import { CountCards } from "../../ui/CountCards.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { SearchField } from "../../ui/SearchField.tsx"
import type { QueueKind, QueueRow } from "./kinds.ts"
import { type FormState, payloadOf, QueueForm, valuesOf } from "./QueueForm.tsx"
import { actionLabel, changeText, listingTexts as t } from "./texts.ts"
import { useProvidedActorRef } from "../../lib/use-provided-actor.ts"

const statusColors = { pending: "orange", approved: "green", rejected: "red" } as const satisfies Record<ListingStatus, string>
const actionKeys = { a: "approve", r: "reject", p: "pending" } as const satisfies Record<string, ModerationAction>


/**
 * docs/product-spec.md §2 "Community and Influencer management", triaged from the keyboard:
 * the moderation machine (machines/listing-moderation.ts) decides which actions exist for the
 * focused card or the selection; a change shows at once, is undoable for 10 s and the list and
 * its counts reload after the server's answer.
 */
export const ListingsScreen = ({ kind }: { readonly kind: QueueKind }) => {
  const url = useUrlQuery(kind.querySpec)
  const { query } = url
  const status = query.filters.status as ListingStatus | undefined
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  const canEdit = AuthContext.useSelector((snapshot) => snapshot.context.user?.role !== "moderator")
  const list = useList(query, kind.list)
  const reload = list.reload
  const moderation = useProvidedActorRef<typeof listingModerationMachine>(listingModerationMachine, {
    actors: {
      move: fromPromise(({ input }) => moveListings(token, input)),
      undo: fromPromise(({ input }) => undoChange(token, input))
    },
    actions: { listChanged: () => reload() }
  })
  const snapshot = useSelector(moderation, (current) => current)
  const [searchText, setSearchText] = useDebouncedSearch(query.search, (search) => url.go({ search, page: 1 }, { replace: true }))
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [form, setForm] = useState<FormState | null>(null)
  const [deleting, setDeleting] = useState<{ listing: QueueRow; busy: boolean; error: string | null } | null>(null)
  const anchor = useRef<string | null>(null)
  const csv = useCsvExport(() => kind.exportPath(query), `${kind.plural}.csv`)

  // Arriving from the palette's "New event" (anywhere): the form opens, once.
  useEffect(() => {
    const state = history.state as { openNewRecord?: boolean } | null
    if (state?.openNewRecord !== true || !canEdit) return
    history.replaceState({ ...state, openNewRecord: false }, "")
    openAdd()
  }, [])

  // Another page or filter is another queue: the selection does not follow.
  useEffect(() => setSelected(new Set()), [query])

  const rows = list.rows
  const current = (listing: QueueRow) => ({ ...listing, ...currentRef(snapshot.context, listing) })
  const selection = rows.filter((row) => selected.has(row._id)).map(current)

  const act = (action: ModerationAction, listings: ReadonlyArray<QueueRow>, from?: number) => {
    if (!actionsFor(moderation.getSnapshot(), listings).includes(action)) return
    moderation.send({ type: "ACT", action, listings })
    if (listings.length > 1) setSelected(new Set())
    // The next pending card takes the focus, so a queue is worked through key after key.
    if (from !== undefined) {
      const after = moderation.getSnapshot().context
      const next = rows.findIndex((row, index) => index > from && shownStatus(after, row) === "pending")
      if (next >= 0) keyboard.focusRow(next)
    }
  }
  // The anchor is a record, not a position: a reload between x and Shift+J (a pending queue
  // loses the cards just approved) moves the rows under it.
  const extend = (index: number, step: number) => {
    const anchored = anchor.current === null ? -1 : rows.findIndex((row) => row._id === anchor.current)
    const start = anchored >= 0 ? anchored : index
    const target = Math.max(0, Math.min(rows.length - 1, index + step))
    anchor.current = rows[start]?._id ?? null
    const [low, high] = start <= target ? [start, target] : [target, start]
    setSelected(new Set(rows.slice(low, high + 1).map((row) => row._id)))
    keyboard.focusRow(target)
  }
  const targetsOf = (listing: QueueRow) => (selection.length > 0 ? selection : [current(listing)])
  const keyboard = useRowKeyboard<QueueRow, HTMLDivElement>(rows, {
    open: canEdit ? (listing) => openEdit(listing) : undefined,
    edit: canEdit ? (listing) => openEdit(listing) : undefined,
    remove: canEdit ? (listing) => setDeleting({ listing, busy: false, error: null }) : undefined,
    keys: {
      ...Object.fromEntries(Object.entries(actionKeys).map(([key, action]) =>
        [key, (listing: QueueRow) => act(action, targetsOf(listing), selection.length > 0 ? undefined : rows.indexOf(listing))])),
      x: (listing) => {
        anchor.current = listing._id
        setSelected((before) => {
          const next = new Set(before)
          if (next.has(listing._id)) next.delete(listing._id)
          else next.add(listing._id)
          return next
        })
      },
      J: (listing) => extend(rows.indexOf(listing), 1),
      K: (listing) => extend(rows.indexOf(listing), -1),
      z: () => canUndo(moderation.getSnapshot()) && moderation.send({ type: "UNDO" }),
      ...(kind.setActive === undefined ? {} : { t: (listing: QueueRow) => void toggleActive(listing) }),
      ...(kind.setFeatured === undefined ? {} : { f: (listing: QueueRow) => void toggleFeatured(listing) }),
      Escape: () => setSelected(new Set())
    }
  })

  const openEdit = (listing: QueueRow) => setForm({ target: listing, values: valuesOf(kind.fields, listing), busy: false, error: null })
  const openAdd = () => setForm({ target: null, values: valuesOf(kind.fields, null), busy: false, error: null })
  const save = async () => {
    if (form === null) return
    setForm({ ...form, busy: true, error: null })
    try {
      await kind.save(token, form.target, payloadOf(kind.fields, form.values))
      setForm(null)
      reload()
    } catch (error) {
      setForm({ ...form, busy: false, error: `${t.saveFailed}: ${failureOf(error).message}` })
    }
  }
  const [visibilityError, setVisibilityError] = useState<string | null>(null)
  /** Flips a record's public visibility (`t`) or its featured flag (`f`), then reloads the list. */
  const toggle = async (flag: "isActive" | "featured", listing: QueueRow) => {
    const set = flag === "isActive" ? kind.setActive : kind.setFeatured
    // One change at a time: while a status change is in flight the record's next version is unknown.
    if (set === undefined || inFlight(moderation.getSnapshot())) return
    setVisibilityError(null)
    try {
      await set(token, current(listing), flag === "isActive" ? listing.isActive === false : listing.featured !== true)
    } catch (error) {
      setVisibilityError(`${flag === "isActive" ? t.visibilityFailed : t.featuredFailed}: ${failureOf(error).message}`)
    }
    reload()
  }
  const toggleActive = (listing: QueueRow) => toggle("isActive", listing)
  const toggleFeatured = (listing: QueueRow) => toggle("featured", listing)
  const confirmDelete = async () => {
    if (deleting === null) return
    setDeleting({ ...deleting, busy: true, error: null })
    try {
      await kind.remove(token, deleting.listing)
      setDeleting(null)
      reload()
    } catch (error) {
      setDeleting({ ...deleting, busy: false, error: `${t.deleteFailed}: ${failureOf(error).message}` })
    }
  }

  const focused = keyboard.focusedRow
  const targets = selection.length > 0 ? selection : focused === undefined ? [] : [current(focused)]
  const idle = () => form === null && deleting === null
  const commands = useMemo((): ReadonlyArray<Command> => {
    const group = kind.title
    const names = targets.map((listing) => listing.name)
    return [
      ...actionsFor(snapshot, targets).map((action): Command => ({
        id: `listings:${action}`,
        label: actionLabel(action, names, selection.length > 0),
        group,
        shortcut: [Object.entries(actionKeys).find(([, value]) => value === action)?.[0] ?? ""],
        guard: idle,
        run: () => act(action, targets)
      })),
      ...(canUndo(snapshot) && snapshot.context.done !== null ? [{
        id: "listings:undo",
        label: `${t.undo}: ${changeText(snapshot.context.done.action, snapshot.context.done.moves.map((move) => move.name))}`,
        group,
        shortcut: ["z"],
        run: () => moderation.send({ type: "UNDO" })
      }] : []),
      ...(kind.setFeatured === undefined || focused === undefined || selection.length > 0 ? [] : [{
        id: "listings:toggle-featured",
        label: `${focused.featured === true ? t.unfeature : t.feature} "${focused.name}"`,
        group,
        shortcut: ["f"],
        guard: idle,
        run: () => void toggleFeatured(focused)
      }]),
      ...(selection.length > 0 ? [{ id: "listings:clear-selection", label: t.clearSelection, group, run: () => setSelected(new Set()) }] : []),
      ...(canEdit ? [{ id: `listings:new-${kind.key}`, label: `New ${kind.noun}`, group, keywords: ["add", "create"], guard: idle, run: openAdd }] : []),
      ...(kind.setActive === undefined || focused === undefined || selection.length > 0 ? [] : [{
        id: "listings:toggle-active",
        label: `${focused.isActive === false ? t.show : t.hide} "${focused.name}"`,
        group,
        shortcut: ["t"],
        guard: idle,
        run: () => void toggleActive(focused)
      }]),
      ...listingStatuses.map((value): Command => ({
        id: `listings:filter:${value}`,
        label: `Show ${t.statuses[value].toLowerCase()} ${kind.plural}`,
        group,
        guard: () => idle() && status !== value,
        run: () => url.filter("status", value)
      })),
      { id: "listings:filter:all", label: `Show all ${kind.plural}`, group, guard: () => idle() && status !== undefined, run: () => url.filter("status", "") },
      ...listCommands({ group, noun: kind.plural, list, url, csv })
    ]
  }, [csv.busy, snapshot, targets.map((listing) => `${listing._id}:${listing.status}:${listing.version}`).join(), selection.length, form, deleting, status, query, list.pagination, canEdit, kind])
  useRegisterCommands(commands)

  // A status change in flight: the toggles wait for it, as the moderation actions do.
  const changing = inFlight(snapshot)
  const counts = list.page?.counts
  const done = snapshot.context.done
  return (
    <Screen title={kind.title}>
      <CountCards label={t.countsLabel} cards={(["total", ...listingStatuses] as const).map((key) => ({
        key,
        label: t.counts[key],
        value: counts?.[key],
        active: key === "total" ? status === undefined : status === key,
        onClick: () => url.filter("status", key === "total" ? "" : key)
      }))} />
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <SearchField label={t.searchLabel} placeholder={t.searchPlaceholder} value={searchText} onChange={setSearchText} busy={list.loading && !list.firstLoad} />
        {kind.filters.map((filter) => (
          <FilterSelect key={filter.name} url={url} name={filter.name} label={filter.label} allLabel={t.allOptions(filter.label)} options={filter.options} />
        ))}
        {canEdit && <Button onClick={openAdd}><PlusIcon /> {kind.add}</Button>}
        <ExportCsvButton busy={csv.busy} onExport={csv.run} />
        {selection.length > 0 && (
          <Flex gap="2" align="center">
            <Text size="2" weight="medium">{t.selected(selection.length)}</Text>
            <Button size="1" variant="soft" color="gray" onClick={() => setSelected(new Set())}>{t.clearSelection}</Button>
          </Flex>
        )}
      </Flex>
      {visibilityError !== null && (
        <Callout.Root color="red" role="alert" mb="3">
          <Callout.Text>
            {visibilityError}{" "}
            <Button size="1" variant="soft" color="red" onClick={() => setVisibilityError(null)}>{t.dismiss}</Button>
          </Callout.Text>
        </Callout.Root>
      )}
      {snapshot.matches("failed") && snapshot.context.error !== null && (
        <Callout.Root color="red" role="alert" mb="3">
          <Callout.Text>
            {snapshot.context.error}{" "}
            <Button size="1" variant="soft" color="red" onClick={() => moderation.send({ type: "DISMISS" })}>{t.dismiss}</Button>
          </Callout.Text>
        </Callout.Root>
      )}
      <ListFrame list={list} loadingText={t.loading} loadFailedText={kind.loadFailed} onPage={(page) => url.go({ page })} exportError={csv.error}>
        <CardList
          label={kind.title}
          list={list}
          rowKey={(listing) => listing._id}
          keyboard={keyboard}
          empty={kind.empty}
          card={(listing) => {
            const shown = shownStatus(snapshot.context, listing)
            const isSelected = selected.has(listing._id)
            return (
              <div className="listing-card" data-selected={isSelected} aria-label={listing.name}>
                <Flex justify="between" align="start" gap="2">
                  <Text as="div" weight="bold">{listing.name}</Text>
                  <Flex gap="2" align="center">
                    {isSelected && <Badge color="blue" variant="solid">{t.selectedMark}</Badge>}
                    {listing.isActive === false && <Badge color="gray">{t.hidden}</Badge>}
                    {listing.featured === true && <Badge color="violet">{t.featured}</Badge>}
                    <Badge color={statusColors[shown]}>{t.statuses[shown]}</Badge>
                  </Flex>
                </Flex>
                {kind.facts(listing).length > 0 && <Text as="div" size="1" mt="1">{kind.facts(listing).join(" · ")}</Text>}
                <Text as="p" size="2" color="gray" my="2" className="listing-description">{listing.description}</Text>
                <Text as="div" size="1" color="gray">{t.created(shortDate(listing.createdAt))}</Text>
                <Flex gap="2" mt="3" wrap="wrap">
                  {actionsFor(snapshot, [current(listing)]).map((action) => (
                    <Button key={action} size="1" tabIndex={-1} variant="soft" color={action === "reject" ? "red" : action === "approve" ? "green" : "gray"}
                      onClick={() => act(action, [current(listing)])}>
                      {t.actions[action]}
                    </Button>
                  ))}
                  {kind.setFeatured !== undefined && !changing && (
                    <Button size="1" tabIndex={-1} variant="soft" color="gray" onClick={() => void toggleFeatured(listing)}>{listing.featured === true ? t.unfeature : t.feature}</Button>
                  )}
                  {kind.setActive !== undefined && !changing && (
                    <Button size="1" tabIndex={-1} variant="soft" color="gray" onClick={() => void toggleActive(listing)}>{listing.isActive === false ? t.show : t.hide}</Button>
                  )}
                  {canEdit && <Button size="1" tabIndex={-1} variant="soft" color="gray" onClick={() => openEdit(listing)}>{t.edit}</Button>}
                  {canEdit && (
                    <Button size="1" tabIndex={-1} variant="soft" color="red" onClick={() => setDeleting({ listing, busy: false, error: null })}>{t.delete}</Button>
                  )}
                </Flex>
              </div>
            )
          }}
        />
      </ListFrame>
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}{kind.setActive === undefined ? "" : t.visibilityHint}{kind.setFeatured === undefined ? "" : t.featuredHint}</Text>
      {canUndo(snapshot) && done !== null && (
        <div className="undo-toast" role="status">
          <Text size="2">{changeText(done.action, done.moves.map((move) => move.name))}</Text>
          <Button size="1" variant="soft" onClick={() => moderation.send({ type: "UNDO" })}>{t.undo} (z)</Button>
          <Button size="1" variant="ghost" color="gray" onClick={() => moderation.send({ type: "DISMISS" })}>{t.dismiss}</Button>
        </div>
      )}
      <QueueForm
        state={form}
        fields={kind.fields}
        title={form?.target == null ? kind.add : kind.editTitle}
        token={token}
        onChange={(values) => form !== null && setForm({ ...form, values })}
        onClose={() => setForm(null)}
        onSave={() => void save()}
      />
      <ConfirmDelete
        state={deleting === null ? null : { subject: deleting.listing.name, busy: deleting.busy, error: deleting.error }}
        title={t.deleteTitle}
        question={kind.confirmDelete}
        texts={t}
        onClose={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Screen>
  )
}
