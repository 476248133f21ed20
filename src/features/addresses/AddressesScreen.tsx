import { PlusIcon, ReloadIcon } from "@radix-ui/react-icons"
import { Button, Callout, Flex, Spinner, Table, Text } from "@radix-ui/themes"
import { useActorRef, useSelector } from "@xstate/react"
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react"
import { useLocation, useSearch } from "wouter"
import { fromPromise } from "xstate"
import type { AddressKind, AddressSort, AnyAddress } from "../../../contract/addresses.ts"
import { addressListMachine, type AddressListQuery } from "../../../machines/address-list.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { addressModalMachine } from "../../../machines/address-modal.ts"
import { deleteAddress, listAddresses, saveAddress } from "../../api/addresses.ts"
import { AuthContext } from "../../app/auth.tsx"
import { type Command, useRegisterCommands } from "../../app/commands.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { SearchField } from "../../ui/SearchField.tsx"
import { cellText, directories, requiredFields, toDraft, toInput } from "./directories.ts"
import { AddressModal } from "./AddressModal.tsx"
import { FindAddressDialog } from "./FindAddressDialog.tsx"
import { addressTexts as t } from "./texts.ts"

const SEARCH_DELAY_MS = 250

const sorts: ReadonlyArray<string> = ["createdAt", "identifier", "name", "category", "rank"]
const isSort = (value: string | null): value is AddressSort => value !== null && sorts.includes(value)

const queryFrom = (search: string): AddressListQuery => {
  const params = new URLSearchParams(search)
  const page = Number.parseInt(params.get("page") ?? "1", 10)
  const sort = params.get("sort")
  const order = params.get("order")
  return {
    search: params.get("search") ?? "",
    page: Number.isNaN(page) || page < 1 ? 1 : page,
    ...(isSort(sort) ? { sort } : {}),
    ...(order === "asc" || order === "desc" ? { order } : {})
  }
}

/** Clicking a header sorts by it ascending; clicking it again flips the order. */
const sortedBy = (query: AddressListQuery, sort: AddressSort): AddressListQuery => ({
  search: query.search,
  page: 1,
  sort,
  order: query.sort === sort && query.order === "asc" ? "desc" : "asc"
})

const urlFor = (path: string, query: AddressListQuery) => {
  const params = new URLSearchParams()
  if (query.search !== "") params.set("search", query.search)
  if (query.page > 1) params.set("page", String(query.page))
  if (query.sort !== undefined) params.set("sort", query.sort)
  if (query.order !== undefined) params.set("order", query.order)
  const text = params.toString()
  return text === "" ? path : `${path}?${text}`
}

/** Spec section 2, "Address screens": one screen for the three directories, with the keyboard. */
export const AddressesScreen = ({ kind }: { readonly kind: AddressKind }) => {
  const spec = directories[kind]
  const [location, navigate] = useLocation()
  const urlQuery = queryFrom(useSearch())
  const auth = AuthContext.useActorRef()
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""

  const list = useActorRef(
    addressListMachine.provide({
      actors: { fetchPage: fromPromise(({ input }) => listAddresses(token, kind, input)) },
      actions: {
        loadFailed: (_, { error }) => {
          if (failureOf(error).status === 401) auth.send({ type: "SESSION_EXPIRED" })
        }
      }
    }),
    { input: { query: urlQuery } }
  )
  const listState = useSelector(list, (snapshot) => snapshot)
  const modal = useActorRef(
    addressModalMachine.provide({
      actors: {
        save: fromPromise(({ input }) =>
          saveAddress(token, kind, input.address === null ? null : { id: input.address._id, version: input.address.version }, toInput(spec, input.draft))),
        remove: fromPromise(({ input }) => deleteAddress(token, kind, input.address._id, input.address.version))
      },
      actions: { reloadList: () => list.send({ type: "RELOAD" }) }
    })
  )
  const modalState = useSelector(modal, (snapshot) => snapshot)

  // The URL is the list's query: typing, paging, a link and the back button all go through it.
  const [searchText, setSearchText] = useState(urlQuery.search)
  const queryKey = JSON.stringify(urlQuery)
  useEffect(() => {
    list.send({ type: "LOAD", query: urlQuery })
    setSearchText((current) => (current.trim() === urlQuery.search.trim() ? current : urlQuery.search))
  }, [queryKey, list])
  useEffect(() => {
    if (searchText.trim() === urlQuery.search.trim()) return
    const timer = setTimeout(() => navigate(urlFor(location, { ...urlQuery, search: searchText.trim(), page: 1 }), { replace: true }), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [searchText, queryKey, location, navigate])

  const page = listState.context.page
  const rows = page?.addresses ?? []
  const [focused, setFocused] = useState<number | null>(null)
  const rowRefs = useRef<Array<HTMLTableRowElement | null>>([])
  const focusRow = (index: number) => {
    const bounded = Math.max(0, Math.min(rows.length - 1, index))
    rowRefs.current[bounded]?.focus()
  }
  // Arriving from "Find address…", the row whose identifier was searched gets the focus.
  useEffect(() => {
    const index = rows.findIndex((row) => row.identifier.toLowerCase() === urlQuery.search.trim().toLowerCase())
    if (index >= 0 && listState.matches("ready")) rowRefs.current[index]?.focus()
  }, [page])

  const open = (type: "OPEN_VIEW" | "OPEN_EDIT" | "OPEN_DELETE", address: AnyAddress) =>
    modal.send({ type, address, draft: toDraft(spec, address), required: requiredFields(spec) })
  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, index: number, address: AnyAddress) => {
    if (event.target !== event.currentTarget) return
    const actions: Record<string, () => void> = {
      ArrowDown: () => focusRow(index + 1),
      j: () => focusRow(index + 1),
      ArrowUp: () => focusRow(index - 1),
      k: () => focusRow(index - 1),
      Enter: () => open("OPEN_VIEW", address),
      e: () => open("OPEN_EDIT", address),
      Delete: () => open("OPEN_DELETE", address)
    }
    const action = actions[event.key]
    if (action !== undefined && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault()
      action()
    }
  }

  const [finding, setFinding] = useState(false)
  const focusedAddress = focused === null ? undefined : rows[focused]
  const modalClosed = modalState.matches("closed")
  const pagination = page?.pagination
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
      { id: "address:reload", label: "Reload the list", group, run: () => list.send({ type: "RELOAD" }) },
      {
        id: "address:next-page",
        label: "Next page",
        group,
        guard: () => pagination !== undefined && pagination.page < pagination.pages,
        run: () => navigate(urlFor(location, { ...urlQuery, page: urlQuery.page + 1 }))
      },
      {
        id: "address:previous-page",
        label: "Previous page",
        group,
        guard: () => urlQuery.page > 1,
        run: () => navigate(urlFor(location, { ...urlQuery, page: urlQuery.page - 1 }))
      }
    ]
    return all.map((command): Command => ({ ...command, guard: () => modalClosed && (command.guard?.() ?? true) }))
  }, [spec, focusedAddress, modalClosed, pagination, queryKey, location])
  useRegisterCommands(commands)

  const loading = listState.matches("loading")
  return (
    <Screen title={spec.title}>
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <SearchField label={t.searchLabel} placeholder={t.searchPlaceholder} value={searchText} onChange={setSearchText} busy={loading && page !== null} />
        <Button onClick={() => modal.send({ type: "OPEN_ADD", required: requiredFields(spec) })}>
          <PlusIcon /> {t.add}
        </Button>
      </Flex>
      {listState.matches("failed") && (
        <Callout.Root color="red" role="alert" mb="3">
          <Callout.Text>
            {t.loadFailed}: {listState.context.error}{" "}
            <Button size="1" variant="soft" color="red" onClick={() => list.send({ type: "RELOAD" })}><ReloadIcon /> {t.retry}</Button>
          </Callout.Text>
        </Callout.Root>
      )}
      {page === null && loading
        ? <Flex gap="2" align="center" role="status"><Spinner /><Text color="gray">{t.loading}</Text></Flex>
        : (
          <Table.Root variant="surface" aria-busy={loading}>
            <caption className="visually-hidden">{spec.title}</caption>
            <Table.Header>
              <Table.Row>
                {spec.columns.map((column) => {
                  const active = column.sort !== undefined && (urlQuery.sort ?? "createdAt") === column.sort
                  const order = urlQuery.order ?? (urlQuery.sort === undefined || urlQuery.sort === "createdAt" ? "desc" : "asc")
                  return (
                    <Table.ColumnHeaderCell key={column.label} aria-sort={active ? (order === "asc" ? "ascending" : "descending") : undefined}>
                      {column.sort === undefined ? column.label : (
                        <button type="button" className="sort-button" onClick={() => column.sort !== undefined && navigate(urlFor(location, sortedBy(urlQuery, column.sort)))}>
                          {column.label}
                          {active && <span aria-hidden="true">{order === "asc" ? " ▲" : " ▼"}</span>}
                        </button>
                      )}
                    </Table.ColumnHeaderCell>
                  )
                })}
                <Table.ColumnHeaderCell>{t.actions}</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.length === 0 && !loading && (
                <Table.Row>
                  <Table.Cell colSpan={spec.columns.length + 1}><Text color="gray">{t.empty}</Text></Table.Cell>
                </Table.Row>
              )}
              {rows.map((address, index) => (
                <Table.Row
                  key={address._id}
                  ref={(element) => void (rowRefs.current[index] = element)}
                  tabIndex={index === (focused ?? 0) ? 0 : -1}
                  className="address-row"
                  data-focused={focused === index}
                  onFocus={() => setFocused(index)}
                  onKeyDown={(event) => onRowKey(event, index, address)}
                >
                  {spec.columns.map((column) => <Table.Cell key={column.label}>{cellText(address, column.field)}</Table.Cell>)}
                  <Table.Cell>
                    <Flex gap="2">
                      <Button size="1" variant="soft" tabIndex={-1} onClick={() => open("OPEN_VIEW", address)}>{t.view}</Button>
                      <Button size="1" variant="soft" tabIndex={-1} onClick={() => open("OPEN_EDIT", address)}>{t.edit}</Button>
                      <Button size="1" variant="soft" color="red" tabIndex={-1} onClick={() => open("OPEN_DELETE", address)}>{t.delete}</Button>
                    </Flex>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      {pagination !== undefined && pagination.pages > 1 && (
        <Flex gap="3" align="center" justify="center" mt="3">
          <Button variant="soft" disabled={urlQuery.page <= 1} onClick={() => navigate(urlFor(location, { ...urlQuery, page: urlQuery.page - 1 }))}>{t.previous}</Button>
          <Text size="2">{t.page(pagination.page, pagination.pages)}</Text>
          <Button variant="soft" disabled={urlQuery.page >= pagination.pages} onClick={() => navigate(urlFor(location, { ...urlQuery, page: urlQuery.page + 1 }))}>{t.next}</Button>
        </Flex>
      )}
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}</Text>
      <AddressModal spec={spec} modal={modal} snapshot={modalState} />
      <FindAddressDialog
        open={finding}
        onOpenChange={setFinding}
        token={token}
        onPick={(hit) => navigate(urlFor(directories[hit.kind].path, { search: hit.identifier, page: 1 }))}
      />
    </Screen>
  )
}
