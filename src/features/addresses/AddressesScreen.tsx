import { PlusIcon } from "@radix-ui/react-icons"
import { Button } from "@radix-ui/themes"
import { useActorRef, useSelector } from "@xstate/react"
import { useCallback, useEffect, useEffectEvent, useMemo, useState } from "react"
import { useLocation } from "wouter"
import { fromPromise } from "xstate"
import type { AddressKind, AnyAddress } from "../../../contract/addresses.ts"
import { addressModalMachine } from "../../../machines/address-modal.ts"
import { arrivedAddresses, exportAddresses, deleteAddress, listAddresses, preloadAddressCalls, saveAddress } from "../../api/addresses.ts"
import { useEditorRefusal } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands, withRefusal } from "../../lib/commands.tsx"
import { urlOf } from "../../lib/list/url-query.ts"
import { useListScreen } from "../../lib/list/use-list-screen.ts"
import type { RowAction } from "../../lib/list/use-row-focus.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { loadPart, whenQuiet } from "../../ui/deferred.tsx"
import { ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import type { Column } from "../../ui/list/ListTable.tsx"
import { RowActions } from "../../ui/list/RowActions.tsx"
import { addressQuerySpec, cellText, directories, requiredFields, toDraft, toInput } from "./directories.ts"
import { FindAddressDialog } from "./FindAddressDialog.tsx"
import { addressLabel, addressTexts as t } from "./texts.ts"
import type { ListQuery } from "../../../machines/list.ts"

// Saves, deletes and "Find address" go through effect's client: its chunk loads in a quiet moment.
whenQuiet(preloadAddressCalls, { first: true })

/**
 * The modal and its form (with the form library) are not part of the first screen: the rows
 * come first (docs/architecture.md, "First screen"); the chunk is preloaded in the first quiet
 * moment, or fetched when a modal opens before that.
 */
const AddressModal = loadPart(() => import("./AddressModal.tsx").then((module) => module.AddressModal))

type Opening = "OPEN_VIEW" | "OPEN_EDIT" | "OPEN_DELETE"

/** docs/product-spec.md §2, "Address screens": one screen for the three directories, on the one list screen. */
export const AddressesScreen = ({ kind }: { readonly kind: AddressKind }) => {
  const directory = directories[kind]
  const [, navigate] = useLocation()
  const spec = useMemo(
    () => ({
      title: directory.title,
      noun: "addresses",
      querySpec: addressQuerySpec,
      fetchPage: (query: ListQuery) => listAddresses(kind, query),
      arrivedPage: (query: ListQuery) => arrivedAddresses(kind, query),
      idOf: (address: AnyAddress) => address._id,
      history: { kind: "address" as const, labelOf: addressLabel },
      exportCsv: (query: ListQuery) => exportAddresses(kind, query)
    }),
    [kind, directory]
  )

  // The directory can change under the same screen (the sidebar's next directory): the calls read it when made.
  const save = useStableCallback((address: AnyAddress | null, draft: Readonly<Record<string, string>>) =>
    saveAddress(kind, address === null ? null : { id: address._id, version: address.version }, toInput(directory, draft))
  )
  const remove = useStableCallback((address: AnyAddress) => deleteAddress(kind, address._id, address.version))
  const reloadList = useStableCallback((): void => reload())
  const [modalLogic] = useState(() =>
    addressModalMachine.provide({
      actors: {
        save: fromPromise(({ input }) => save(input.address, input.draft)),
        remove: fromPromise(({ input }) => remove(input.address))
      },
      actions: { reloadList }
    })
  )
  const modal = useActorRef(modalLogic)
  const modalState = useSelector(modal, (snapshot) => snapshot)
  const [finding, setFinding] = useState(false)
  const open = useCallback(
    (type: Opening, address: AnyAddress) => modal.send({ type, address, draft: toDraft(directory, address), required: requiredFields(directory) }),
    [modal, directory]
  )
  const add = useCallback(() => modal.send({ type: "OPEN_ADD", required: requiredFields(directory) }), [modal, directory])

  const refusal = useEditorRefusal()
  const actions = useMemo(
    (): ReadonlyArray<RowAction<AnyAddress>> => [
      { id: "address:view", key: "Enter", label: (address) => `View ${address.identifier}`, run: (address) => open("OPEN_VIEW", address) },
      ...withRefusal<RowAction<AnyAddress>>(refusal("edit addresses"), [
        { id: "address:edit", key: "e", label: (address) => `Edit ${address.identifier}`, run: (address) => open("OPEN_EDIT", address) }
      ]),
      ...withRefusal<RowAction<AnyAddress>>(refusal("delete addresses"), [
        { id: "address:delete", key: "Delete", label: (address) => `Delete ${address.identifier}`, run: (address) => open("OPEN_DELETE", address) }
      ])
    ],
    [open, refusal]
  )
  const idle = modalState.matches("closed") && !finding
  // Mounted from the first time a modal opens, and kept, so it closes as it opened.
  const [modalWanted, setModalWanted] = useState(false)
  if (!modalWanted && !modalState.matches("closed")) setModalWanted(true)
  const screen = useListScreen(spec, { actions, idle })
  const reload = screen.list.reload
  const { query } = screen

  // Arriving from "Find address…", the row whose identifier was searched is the current one.
  const pickSearched = useEffectEvent(() => {
    const found = screen.rows.find((row) => row.identifier.toLowerCase() === query.search.trim().toLowerCase())
    if (found !== undefined && !screen.list.loading) screen.focus.pick(found._id)
  })
  useEffect(() => pickSearched(), [screen.rows])

  const commands = useMemo(
    (): ReadonlyArray<Command> => [
      ...withRefusal<Command>(refusal("add addresses"), [
        { id: "address:add", label: "Add address", group: directory.title, shortcut: ["n"], guard: () => idle, run: add }
      ]),
      { id: "address:find", label: t.find, group: directory.title, shortcut: ["f"], guard: () => idle, run: () => setFinding(true) }
    ],
    [directory, idle, add, refusal]
  )
  useRegisterCommands(commands)

  const columns = useMemo(
    () =>
      directory.columns.map((column): Column<AnyAddress> => ({
        label: column.label,
        cell: (address) => cellText(address, column.field),
        ...(column.sort === undefined ? {} : { sort: column.sort }),
        ...(column.field === "identifier" ? { breakAnywhere: true } : {})
      })),
    [directory]
  )
  const rowActions = useCallback(
    (address: AnyAddress) => (
      <RowActions
        actions={[
          { label: t.view, onClick: () => open("OPEN_VIEW", address) },
          { label: t.edit, onClick: () => open("OPEN_EDIT", address) },
          { label: t.delete, danger: true, onClick: () => open("OPEN_DELETE", address) }
        ]}
      />
    ),
    [open]
  )

  return (
    <ListScreen
      screen={screen}
      texts={listTextsOf(t)}
      view={{ table: { caption: directory.title, columns, actions: rowActions } }}
      tools={
        <Button onClick={add}>
          <PlusIcon /> {t.add}
        </Button>
      }
    >
      {modalWanted && <AddressModal spec={directory} modal={modal} snapshot={modalState} />}
      <FindAddressDialog
        open={finding}
        onOpenChange={setFinding}

        onPick={(hit) => navigate(urlOf(directories[hit.kind].path, { search: hit.identifier, page: 1, filters: {} }))}
      />
    </ListScreen>
  )
}
