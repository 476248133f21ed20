import { PlusIcon } from "@radix-ui/react-icons"
import { Button } from "@radix-ui/themes"
import { useCallback, useEffect, useEffectEvent, useMemo, useState } from "react"
import { useLocation } from "wouter"
import type { AddressKind, AnyAddress } from "../../../contract/addresses.ts"
import { ADDRESS_KIND, arrivedAddresses, exportAddresses, deleteAddress, listAddresses, preloadAddressCalls, saveAddress } from "../../api/addresses.ts"
import { useEditorRefusal } from "../../lib/auth.tsx"
import { withRefusal } from "../../lib/commands.tsx"
import { urlOf } from "../../lib/list/url-query.ts"
import { type ListAction, type ListCommand, useListScreen } from "../../lib/list/use-list-screen.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import type { CallAs } from "../../lib/store/handle.ts"
import { loadPart, whenQuiet } from "../../ui/deferred.tsx"
import { ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import type { Column } from "../../ui/list/ListTable.tsx"
import { addressQuerySpec, cellText, directories, type DirectorySpec, requiredFields, toDraft, toInput } from "./directories.ts"
import { addressLabel, addressTexts as t } from "./texts.ts"
import type { ListQuery } from "../../../machines/list.ts"
import type { ModalAsked } from "./AddressModal.tsx"
import { FindAddressDialog } from "./FindAddressDialog.tsx"

// Saves, deletes and "Find address" go through effect's client: its chunk loads in a quiet moment.
whenQuiet(preloadAddressCalls, { first: true })

/**
 * The modal and its form (with the form library) are not part of the first screen: the rows
 * come first (docs/architecture.md, "First screen"); the chunk is preloaded in the first quiet
 * moment, or fetched when a modal opens before that.
 */
const AddressModalHost = loadPart(() => import("./AddressModal.tsx").then((module) => module.AddressModalHost))

type Opening = "OPEN_VIEW" | "OPEN_EDIT" | "OPEN_DELETE"

/** View, edit and delete each open the address's modal (machines/address-modal.ts). */
const addressActions = (
  refusal: (what: string) => string | undefined,
  open: (type: Opening, address: AnyAddress) => void
): ReadonlyArray<ListAction<AnyAddress>> => [
  {
    id: "address:view",
    key: "Enter",
    hint: "view",
    label: (address) => `View ${address.identifier}`,
    run: (address) => open("OPEN_VIEW", address),
    button: { label: t.view }
  },
  ...withRefusal<ListAction<AnyAddress>>(refusal("edit addresses"), [
    {
      id: "address:edit",
      key: "e",
      hint: "edit",
      label: (address) => `Edit ${address.identifier}`,
      run: (address) => open("OPEN_EDIT", address),
      button: { label: t.edit }
    }
  ]),
  ...withRefusal<ListAction<AnyAddress>>(refusal("delete addresses"), [
    {
      id: "address:delete",
      key: "Delete",
      hint: "remove",
      label: (address) => `Delete ${address.identifier}`,
      run: (address) => open("OPEN_DELETE", address),
      button: { label: t.delete, tone: "red" }
    }
  ])
]

/** A directory as the list screen takes it: its calls, its first page when start-up has it, its history. */
const addressSpec = (kind: AddressKind) => ({
  title: directories[kind].title,
  noun: "addresses",
  querySpec: addressQuerySpec,
  fetchPage: (query: ListQuery) => listAddresses(kind, query),
  store: ADDRESS_KIND,
  arrivedPage: (query: ListQuery) => arrivedAddresses(kind, query),
  idOf: (address: AnyAddress) => address._id,
  history: { kind: "address" as const, labelOf: addressLabel },
  exportCsv: (query: ListQuery) => exportAddresses(kind, query)
})

const columnsOf = (directory: DirectorySpec) =>
  directory.columns.map((column): Column<AnyAddress> => ({
    label: column.label,
    cell: (address) => cellText(address, column.field),
    ...(column.sort === undefined ? {} : { sort: column.sort }),
    ...(column.field === "identifier" ? { breakAnywhere: true } : {})
  }))

/**
 * The address modal for a directory (machines/address-modal.ts, run in the modal's own chunk:
 * ./AddressModal.tsx, `AddressModalHost`): what was asked of it, and whether it is closed. The
 * list stops taking keys the moment an opening is asked, before the chunk has arrived; the modal
 * is mounted from the first time it opens, and kept, so it closes as it opened.
 */
const useAddressModal = (kind: AddressKind, reload: () => void) => {
  const directory = directories[kind]
  // The directory can change under the same screen (the sidebar's next directory): the calls read it when made.
  // An edit names the version it opened at and shows at once.
  const save = useStableCallback((address: AnyAddress | null, draft: Readonly<Record<string, string>>, as: CallAs, version: number) => {
    const input = toInput(directory, draft)
    return address === null ? saveAddress(kind, null, input, as) : saveAddress(kind, { id: address._id, version }, input, { ...as, effect: input })
  })
  const remove = useStableCallback((address: AnyAddress) => deleteAddress(kind, address._id, address.version))
  const reloadList = useStableCallback(reload)
  const [asked, setAsked] = useState<ModalAsked | null>(null)
  const [closed, setClosed] = useState(true)
  const ask = useCallback((event: ModalAsked["event"]) => {
    setClosed(false)
    setAsked((last) => ({ event, serial: (last?.serial ?? 0) + 1 }))
  }, [])
  const open = useCallback(
    (type: Opening, address: AnyAddress) => ask({ type, address, draft: toDraft(directory, address), required: requiredFields(directory) }),
    [ask, directory]
  )
  const add = useCallback(() => ask({ type: "OPEN_ADD", required: requiredFields(directory) }), [ask, directory])
  return { asked, closed, setClosed, open, add, save, remove, reloadList }
}

/** docs/product-spec.md §2, "Address screens": one screen for the three directories, on the one list screen. */
export const AddressesScreen = ({ kind }: { readonly kind: AddressKind }) => {
  const directory = directories[kind]
  const [, navigate] = useLocation()
  const spec = useMemo(() => addressSpec(kind), [kind])
  const refusal = useEditorRefusal()
  const modal = useAddressModal(kind, () => screen.list.reload())
  const [finding, setFinding] = useState(false)
  const actions = useMemo(() => addressActions(refusal, modal.open), [modal.open, refusal])
  const commands = [
    ...withRefusal<ListCommand>(refusal("add addresses"), [{ id: "address:add", label: "Add address", shortcut: ["n"], hint: "add", run: modal.add }]),
    { id: "address:find", label: t.find, shortcut: ["f"], hint: "find", run: () => setFinding(true) }
  ]
  const screen = useListScreen(spec, { actions, idle: modal.closed && !finding, commands })
  // Arriving from "Find address…", the row whose identifier was searched is the current one.
  const pickSearched = useEffectEvent(() => {
    const found = screen.rows.find((row) => row.identifier.toLowerCase() === screen.query.search.trim().toLowerCase())
    if (found !== undefined && !screen.list.loading) screen.focus.pick(found._id)
  })
  useEffect(() => pickSearched(), [screen.rows])
  const columns = useMemo(() => columnsOf(directory), [directory])
  return (
    <ListScreen
      screen={screen}
      texts={listTextsOf(t)}
      view={{ table: { caption: directory.title, columns } }}
      tools={
        <Button onClick={modal.add}>
          <PlusIcon /> {t.add}
        </Button>
      }
    >
      {modal.asked !== null && (
        <AddressModalHost
          spec={directory}
          asked={modal.asked}
          onClosed={modal.setClosed}
          save={modal.save}
          remove={modal.remove}
          reloadList={modal.reloadList}
        />
      )}
      <FindAddressDialog
        open={finding}
        onOpenChange={setFinding}
        onPick={(hit) => navigate(urlOf(directories[hit.kind].path, { search: hit.identifier, page: 1, filters: {} }))}
      />
    </ListScreen>
  )
}
