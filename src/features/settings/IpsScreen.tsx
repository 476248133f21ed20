import { PlusIcon, ReloadIcon, TrashIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Card, Flex, Grid, Text } from "@radix-ui/themes"
import { useMemo } from "react"
import { useWatch } from "react-hook-form"
import type { AllowedIp, AllowedIpInput } from "../../../contract/allowed-ips.ts"
import { ipInRange, normalizeIpRange, parseIpRange } from "../../../contract/ip-rules.ts"
import { addAllowedIp, listAllowedIps, removeAllowedIp } from "../../api/admin.ts"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { shortDate } from "../../lib/dates.ts"
import { ConfirmDelete } from "../../ui/ConfirmDelete.tsx"
import { ContractFormShell, FormBanner, TextInput } from "../../ui/FormField.tsx"
import { useContractForm } from "../../lib/form/use-contract-form.ts"
import { useListScreen } from "../../lib/list/use-list-screen.ts"
import { useDialogAction } from "../../lib/use-dialog-action.ts"
import type { RowAction } from "../../lib/list/use-row-focus.ts"
import { ListScreen } from "../../ui/list/ListScreen.tsx"
import { fetchFailed } from "../../lib/failure-words.ts"

const t = {
  title: "Allowed IP Addresses",
  intro:
    "While this list is empty, staff may sign in from anywhere. Once it holds an address, the admin console and its API answer only the addresses and ranges listed here.",
  yourIp: (ip: string) => `Your address, as the server sees it: ${ip}`,
  empty: "No addresses: every address may sign in.",
  loading: "Loading allowed addresses...",
  loadFailed: fetchFailed("the allowed addresses"),
  add: "Allow address",
  adding: "Adding…",
  ip: "Address or range",
  ipHint: "IPv4 or IPv6, one address (203.0.113.7) or a CIDR range (203.0.113.0/24, 2001:db8::/32).",
  description: "Description",
  wouldLockOut: "The list does not let your address in yet: add a range that covers it first, or the server will refuse this.",
  addFailed: "Failed to allow the address",
  remove: "Remove",
  removing: "Removing…",
  removeTitle: "Remove allowed address",
  confirmRemove: "Remove this address from the list? Staff signing in from it will be refused. If the list becomes empty, every address may sign in.",
  removeFailed: "Failed to remove the address",
  cancel: "Cancel",
  refresh: "Refresh",
  covers: "covers you",
  lockedOutHelp: "Locked out? On the server, `npm run admin -- clear-ips` empties the list.",
  keyboardHint: "j/k move · Delete remove (Delete again confirms) ·"
} as const

/**
 * The form that adds an address, on the one form pattern (docs/architecture.md, "Forms"): the
 * contract checks the address as the server reads it; it warns, as it is typed, when the first
 * entry would not let the caller in.
 */
const IpForm = ({
  yourIp,
  listEmpty,
  send,
  reload
}: {
  readonly yourIp: string | undefined
  readonly listEmpty: boolean
  readonly send: (input: AllowedIpInput) => Promise<unknown>
  readonly reload: () => void
}) => {
  const contract = useContractForm<{ readonly ip: string; readonly description: string }, AllowedIpInput>({
    values: { ip: "", description: "" },
    schema: () => import("../../../contract/allowed-ips.ts").then((module) => module.AllowedIpInput),
    toPayload: (values) => ({ ip: values.ip.trim(), description: values.description.trim() }),
    send: async (input) => {
      await send(input)
      contract.form.reset()
    },
    failed: t.addFailed
  })
  const typed = useWatch({ control: contract.form.control, name: "ip" })
  const normalized = normalizeIpRange(typed)
  const range = normalized === undefined ? undefined : parseIpRange(normalized)
  const lockOutWarning = yourIp !== undefined && listEmpty && range !== undefined && !ipInRange(yourIp, range)
  return (
    <Card mb="4" asChild>
      <div>
        <ContractFormShell form={contract} label={t.add}>
          <Grid columns={{ initial: "1", md: "2" }} gap="3">
            <TextInput name="ip" label={t.ip} hint={t.ipHint} required disabled={contract.busy} />
            <TextInput name="description" label={t.description} disabled={contract.busy} />
          </Grid>
          {lockOutWarning && (
            <Callout.Root color="orange" mt="3" role="status">
              <Callout.Text>{t.wouldLockOut}</Callout.Text>
            </Callout.Root>
          )}
          <Flex direction="column" mt="3">
            <FormBanner />
          </Flex>
          <Flex gap="3" mt="3">
            <Button type="submit" disabled={contract.busy}>
              <PlusIcon /> {contract.busy ? t.adding : t.add}
            </Button>
            <Button type="button" variant="soft" onClick={reload}>
              <ReloadIcon /> {t.refresh}
            </Button>
          </Flex>
        </ContractFormShell>
      </div>
    </Card>
  )
}

/** The list has no search or filters: the whole list is one page. */
const spec = {
  title: t.title,
  noun: "allowed addresses",
  querySpec: {},
  fetchPage: listAllowedIps,
  idOf: (entry: AllowedIp) => entry._id,
  searchable: false,
  history: { kind: "ip" as const, labelOf: (entry: AllowedIp) => entry.ip }
}

/**
 * The allowed-address list (super admins; docs/api.md, "Allowed addresses") on the one list
 * screen. The form checks the address as the server will; a change that would shut out the
 * caller is refused by the server, and the screen says why before it is sent.
 */
export const IpsScreen = () => {
  const removing = useDialogAction<AllowedIp>(t.removeFailed)
  const askRemove = removing.open
  const actions: ReadonlyArray<RowAction<AllowedIp>> = [
    { id: "ips:remove", key: "Delete", label: (entry) => `Remove allowed address ${entry.ip}`, run: askRemove }
  ]
  const screen = useListScreen(spec, { actions, idle: removing.state === null })
  const { list } = screen
  const yourIp = list.page?.yourIp

  const coversCaller = (entry: string) => {
    const entryRange = parseIpRange(entry)
    return yourIp !== undefined && entryRange !== undefined && ipInRange(yourIp, entryRange)
  }
  const commands = useMemo(
    (): ReadonlyArray<Command> => [
      {
        id: "ips:add",
        label: t.add,
        group: t.title,
        keywords: ["whitelist", "ip"],
        run: () => document.querySelector<HTMLInputElement>("input[name='ip']")?.focus()
      }
    ],
    []
  )
  useRegisterCommands(commands)

  return (
    <ListScreen
      screen={screen}
      texts={{ loading: t.loading, loadFailed: t.loadFailed, empty: t.empty, hint: `${t.keyboardHint} ${t.lockedOutHelp}` }}
      above={
        <>
          <Text as="p" size="2" mb="2" style={{ maxWidth: 720 }}>
            {t.intro}
          </Text>
          {yourIp !== undefined && (
            <Text as="p" size="2" mb="3" weight="medium">
              {t.yourIp(yourIp)}
            </Text>
          )}
          <IpForm
            yourIp={yourIp}
            listEmpty={list.rows.length === 0}
            send={(input) => addAllowedIp(input.ip, input.description ?? "").then(list.reload)}
            reload={list.reload}
          />
        </>
      }
      view={{
        table: {
          caption: "Allowed addresses",
          columns: [
            {
              label: "Address",
              cell: (entry) => (
                <Text weight="bold" style={{ fontFamily: "var(--code-font-family)" }}>
                  {entry.ip}
                  {coversCaller(entry.ip) && (
                    <Badge highContrast color="green" ml="2">
                      {t.covers}
                    </Badge>
                  )}
                </Text>
              )
            },
            { label: "Description", cell: (entry) => entry.description },
            { label: "Added", cell: (entry) => `${shortDate(entry.createdAt)}${entry.createdBy === null ? "" : ` · ${entry.createdBy}`}` }
          ],
          actions: (entry) => (
            <Button size="1" variant="soft" color="red" tabIndex={-1} onClick={() => askRemove(entry)} aria-label={`${t.remove} ${entry.ip}`}>
              <TrashIcon /> {t.remove}
            </Button>
          )
        }
      }}
    >
      <ConfirmDelete
        state={removing.state === null ? null : { subject: removing.state.target.ip, busy: removing.state.busy, error: removing.state.error }}
        title={t.removeTitle}
        question={t.confirmRemove}
        texts={{ cancel: t.cancel, delete: t.remove, deleting: t.removing }}
        onClose={removing.close}
        onConfirm={() => void removing.run((entry) => removeAllowedIp(entry), list.reload)}
      />
    </ListScreen>
  )
}
