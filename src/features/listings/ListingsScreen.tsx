import "./listings.css"
import { PlusIcon } from "@radix-ui/react-icons"
import { Button } from "@radix-ui/themes"
import { useMemo, useState } from "react"
import { listingStatuses } from "../../../contract/listing-rules.ts"
import { LISTING_KIND } from "../../api/listings.ts"
import { useEditorRefusal } from "../../lib/auth.tsx"
import { withRefusal } from "../../lib/commands.tsx"
import { useIntent } from "../../lib/intents.ts"
import { type ListAction, type ListCommand, type ListScreenSpec, useListScreen } from "../../lib/list/use-list-screen.ts"
import { newRecordIntent } from "../../lib/paths.ts"
import { countsOf, selectable } from "../../lib/list/declarations.ts"
import { ListScreen } from "../../ui/list/ListScreen.tsx"
import type { QueueKind, QueuePage, QueueRow } from "./kinds.ts"
import { ListingCard } from "./ListingCard.tsx"
import { editActions, UndoToasts, useModeration } from "./moderation.tsx"
import { QueueForm } from "./QueueForm.tsx"
import { listingTexts as t } from "./texts.ts"

/** A queue as the list screen takes it: the kind's calls and filters, the status counts, a selection for bulk moves. */
const queueSpec = (kind: QueueKind): ListScreenSpec<QueuePage> => ({
  title: kind.title,
  noun: kind.plural,
  querySpec: kind.querySpec,
  fetchPage: kind.list,
  store: LISTING_KIND,
  idOf: (listing) => listing._id,
  history: { kind: "listing", labelOf: (listing) => listing.name },
  exportCsv: kind.exportCsv,
  selectable,
  filters: kind.filters.map((filter) => ({ ...filter, allLabel: t.allOptions(filter.label) })),
  counts: countsOf({
    label: t.countsLabel,
    filter: "status",
    total: t.counts.total,
    cards: listingStatuses.map((status) => [status, t.counts[status]] as const),
    of: (page: QueuePage) => page.counts,
    commands: { show: (label) => `Show ${label.toLowerCase()} ${kind.plural}`, all: `Show all ${kind.plural}` }
  })
})

/**
 * docs/product-spec.md §2 "Community and Influencer management" and the other queues, triaged
 * from the keyboard on the one list screen: a queue is its kind (src/features/listings/kinds.ts),
 * its moderation (./moderation.tsx: the keys a, r, p, t, f and z, their buttons and toasts), edit
 * and delete, and the add/edit form. A new queue is a kind, not a screen.
 */
export const ListingsScreen = ({ kind }: { readonly kind: QueueKind }) => {
  const refusal = useEditorRefusal()
  /** The record the add/edit form is open on (null: a new one); undefined while it is closed. */
  const [editing, setEditing] = useState<QueueRow | null | undefined>(undefined)
  const spec = useMemo(() => queueSpec(kind), [kind])
  const moderation = useModeration(kind, () => ({ rows: screen.rows, reload: screen.list.reload, pick: screen.focus.pick }))
  const actions: ReadonlyArray<ListAction<QueueRow>> = [...moderation.actions, ...editActions(kind, refusal, setEditing)]
  const addRefused = refusal(`add ${kind.plural}`)
  const add = () => setEditing(null)
  const commands = [
    moderation.undo,
    ...withRefusal<ListCommand>(addRefused, [
      { id: `listings:new-${kind.key}`, label: `New ${kind.noun}`, shortcut: ["n"], hint: "new", keywords: ["add", "create"], run: add }
    ])
  ]
  const screen = useListScreen(spec, { actions, idle: editing === undefined, commands })
  // The palette's "New event", from anywhere: the form opens here.
  useIntent(newRecordIntent(kind.key), () => addRefused === undefined && add())
  return (
    <ListScreen
      screen={screen}
      texts={{ searchLabel: t.searchLabel, searchPlaceholder: t.searchPlaceholder, loading: t.loading, loadFailed: kind.loadFailed, empty: kind.empty }}
      view={{
        cards: {
          label: kind.title,
          card: (listing, buttons) => <ListingCard kind={kind} listing={listing} selected={screen.selection.has(listing)} buttons={buttons} />,
          // The card shows its record, its buttons and whether it is selected: the rest of the queue stays as it is on a key.
          signature: (listing) => String(screen.selection.has(listing))
        }
      }}
      tools={
        addRefused === undefined && (
          <Button onClick={add}>
            <PlusIcon /> {kind.add}
          </Button>
        )
      }
    >
      <UndoToasts moderation={moderation.moderation} />
      <QueueForm
        open={editing}
        kind={kind}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined)
          screen.list.reload()
        }}
      />
    </ListScreen>
  )
}
