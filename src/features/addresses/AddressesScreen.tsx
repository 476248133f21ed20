import { PlusIcon } from "@radix-ui/react-icons"
import { Button, Flex, Text } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
import { useCallback, useEffect, useMemo, useState } from "react"
import { useLocation } from "wouter"
import { fromPromise } from "xstate"
import type { AddressKind, AnyAddress } from "../../../contract/addresses.ts"
import { addressModalMachine } from "../../../machines/address-modal.ts"
import type { ListQuery } from "../../../machines/list.ts"
import { addressExportPathOf, arrivedAddresses, deleteAddress, listAddresses, preloadAddressCalls, saveAddress } from "../../api/addresses.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { useCsvExport } from "../../lib/list/export-csv.ts"
import { listCommands } from "../../lib/list/list-commands.ts"
import { urlOf, useUrlQuery } from "../../lib/list/url-query.ts"
import { useDebouncedSearch } from "../../lib/list/use-debounced-search.ts"
import { useList } from "../../lib/list/use-list.ts"
import { useRowKeyboard } from "../../lib/list/use-row-keyboard.ts"
import { ExportCsvButton, ListFrame } from "../../ui/list/ListFrame.tsx"
import { type Column, ListTable } from "../../ui/list/ListTable.tsx"
import { RowActions } from "../../ui/list/RowActions.tsx"
import { whenQuiet } from "../../ui/deferred.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { SearchField } from "../../ui/SearchField.tsx"
import { addressQuerySpec, cellText, directories, requiredFields, toDraft, toInput } from "./directories.ts"
import { AddressModal } from "./AddressModal.tsx"
import { FindAddressDialog } from "./FindAddressDialog.tsx"
import { addressTexts as t } from "./texts.ts"
import { useProvidedActorRef } from "../../lib/use-provided-actor.ts"

// Saves, deletes and "Find address" go through effect's client: its chunk loads in a quiet moment.
whenQuiet(preloadAddressCalls, { first: true })

/** docs/product-spec.md §2, "Address screens": one screen for the three directories, with the keyboard. */
export const AddressesScreen = ({ kind }: { readonly kind: AddressKind }) => {
  const spec = directories[kind]
  const [, navigate] = useLocation()
  const url = useUrlQuery(addressQuerySpec)
  const { query } = url
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  const list = useList(query, useCallback((key: string, q: ListQuery) => listAddresses(key, kind, q), [kind]),
    (key, q) => arrivedAddresses(key, kind, q))
  const modal = useProvidedActorRef<typeof addressModalMachine>(
    addressModalMachine, {
      actors: {
        save: fromPromise(({ input }) =>
          saveAddress(token, kind, input.address === null ? null : { id: input.address._id, version: input.address.version }, toInput(spec, input.draft))),
        remove: fromPromise(({ input }) => deleteAddress(token, kind, input.address._id, input.address.version))
      },
      actions: { reloadList: () => list.reload() }
    }
  )
  const modalState = useSelector(modal, (snapshot) => snapshot)
  const [searchText, setSearchText] = useDebouncedSearch(query.search, (search) => url.go({ search, page: 1 }, { replace: true }))

  const open = useCallback((type: "OPEN_VIEW" | "OPEN_EDIT" | "OPEN_DELETE", address: AnyAddress) =>
    modal.send({ type, address, draft: toDraft(spec, address), required: requiredFields(spec) }), [modal, spec])
  const keyboard = useRowKeyboard<AnyAddress, HTMLTableRowElement>(list.rows, {
    open: (address) => open("OPEN_VIEW", address),
    edit: (address) => open("OPEN_EDIT", address),
    remove: (address) => open("OPEN_DELETE", address)
  })
  // Arriving from "Find address…", the row whose identifier was searched gets the focus.
  useEffect(() => {
    const index = list.rows.findIndex((row) => row.identifier.toLowerCase() === query.search.trim().toLowerCase())
    if (index >= 0 && !list.loading) keyboard.focusRow(index)
  }, [list.rows])

  const csv = useCsvExport(() => addressExportPathOf(kind, query), `${kind}-addresses.csv`)
  const [finding, setFinding] = useState(false)
  const focusedAddress = keyboard.focusedRow
  const modalClosed = modalState.matches("closed")
  const commands = useMemo((): ReadonlyArray<Command> => {
    const group = spec.title
    const rowCommands: ReadonlyArray<Command> = focusedAddress === undefined ? [] : [
      { id: "address:view", label: `View ${focusedAddress.identifier}`, group, run: () => open("OPEN_VIEW", focusedAddress) },
      { id: "address:edit", label: `Edit ${focusedAddress.identifier}`, group, run: () => open("OPEN_EDIT", focusedAddress) },
      { id: "address:delete", label: `Delete ${focusedAddress.identifier}`, group, run: () => open("OPEN_DELETE", focusedAddress) }
    ]
    const all: ReadonlyArray<Command> = [
      { id: "address:add", label: "Add address", group, shortcut: ["n"], run: () => modal.send({ type: "OPEN_ADD", required: requiredFields(spec) }) },
      { id: "address:find", label: t.find, group, shortcut: ["f"], run: () => setFinding(true) },
      ...rowCommands,
      ...listCommands({ group, noun: "addresses", list, url, csv })
    ]
    return all.map((command): Command => ({ ...command, guard: () => modalClosed && (command.guard?.() ?? true) }))
  }, [spec, focusedAddress, modalClosed, list.pagination, list.error, query, csv.busy])
  useRegisterCommands(commands)

  const columns = useMemo(() => spec.columns.map((column): Column<AnyAddress> => ({
    label: column.label,
    cell: (address) => cellText(address, column.field),
    ...(column.sort === undefined ? {} : { sort: column.sort })
  })), [spec])

  const rowActions = useCallback((address: AnyAddress) => (
    <RowActions actions={[
      { label: t.view, onClick: () => open("OPEN_VIEW", address) },
      { label: t.edit, onClick: () => open("OPEN_EDIT", address) },
      { label: t.delete, danger: true, onClick: () => open("OPEN_DELETE", address) }
    ]} />
  ), [open])

  return (
    <Screen title={spec.title}>
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <SearchField label={t.searchLabel} placeholder={t.searchPlaceholder} value={searchText} onChange={setSearchText} busy={list.loading && !list.firstLoad} />
        <Button onClick={() => modal.send({ type: "OPEN_ADD", required: requiredFields(spec) })}>
          <PlusIcon /> {t.add}
        </Button>
        <ExportCsvButton busy={csv.busy} onExport={csv.run} />
      </Flex>
      <ListFrame list={list} loadingText={t.loading} loadFailedText={t.loadFailed} onPage={(page) => url.go({ page })} exportError={csv.error}>
        <ListTable
          caption={spec.title}
          columns={columns}
          list={list}
          keyboard={keyboard}
          empty={t.empty}
          url={url}
          actions={rowActions}
        />
      </ListFrame>
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}</Text>
      <AddressModal spec={spec} modal={modal} snapshot={modalState} />
      <FindAddressDialog
        open={finding}
        onOpenChange={setFinding}
        token={token}
        onPick={(hit) => navigate(urlOf(directories[hit.kind].path, { search: hit.identifier, page: 1, filters: {} }))}
      />
    </Screen>
  )
}
