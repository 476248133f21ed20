import { PlusIcon, ReloadIcon, TrashIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Card, Flex, Grid, Text, TextField } from "@radix-ui/themes"
import { useMemo, useState } from "react"
import type { AllowedIp } from "../../../contract/admin.ts"
import { ipInRange, ipMessages, normalizeIpRange, parseIpRange } from "../../../contract/ip-rules.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { addAllowedIp, listAllowedIps, removeAllowedIp } from "../../api/admin.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { shortDate } from "../../lib/dates.ts"
import { ConfirmDelete } from "../../ui/ConfirmDelete.tsx"
import { Field } from "../../ui/Field.tsx"
import { listCommands } from "../../lib/list/list-commands.ts"
import { useUrlQuery } from "../../lib/list/url-query.ts"
import { useList } from "../../lib/list/use-list.ts"
import { useRowKeyboard } from "../../lib/list/use-row-keyboard.ts"
import { ListFrame } from "../../ui/list/ListFrame.tsx"
import { ListTable } from "../../ui/list/ListTable.tsx"
import { Screen } from "../../ui/Screen.tsx"

const t = {
  title: "Allowed IP Addresses",
  intro: "While this list is empty, staff may sign in from anywhere. Once it holds an address, the admin console and its API answer only the addresses and ranges listed here.",
  yourIp: (ip: string) => `Your address, as the server sees it: ${ip}`,
  empty: "No addresses: every address may sign in.",
  loading: "Loading allowed addresses...",
  loadFailed: "Failed to load the allowed addresses",
  add: "Allow address",
  adding: "Adding…",
  ip: "Address or range",
  ipHint: "IPv4 or IPv6, one address (203.0.113.7) or a CIDR range (203.0.113.0/24, 2001:db8::/32).",
  ipInvalid: `Must be ${ipMessages.invalid.replace(/^must be /, "")}.`,
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
  keyboardHint: "j/k move · Delete remove ·"
} as const

/** The list has no filters: the whole list is one page. */
const querySpec = {}

/**
 * The allowed-address list (super admins; docs/api.md, "Allowed addresses"). The form checks
 * the address as the server will; a change that would shut out the caller is refused by the
 * server, and the screen says why before it is sent.
 */
export const IpsScreen = () => {
  const url = useUrlQuery(querySpec)
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  const list = useList(url.query, listAllowedIps)
  const yourIp = list.page?.yourIp
  const [form, setForm] = useState({ ip: "", description: "", touched: false, busy: false, error: null as string | null })
  const [removing, setRemoving] = useState<{ ip: AllowedIp; busy: boolean; error: string | null } | null>(null)

  const normalized = normalizeIpRange(form.ip)
  const ipError = form.touched && form.ip.trim() !== "" && normalized === undefined ? t.ipInvalid : undefined
  const range = normalized === undefined ? undefined : parseIpRange(normalized)
  const coversCaller = (entry: string) => {
    const entryRange = parseIpRange(entry)
    return yourIp !== undefined && entryRange !== undefined && ipInRange(yourIp, entryRange)
  }
  const lockOutWarning = yourIp !== undefined && list.rows.length === 0 && range !== undefined && !ipInRange(yourIp, range)
  const add = async () => {
    if (normalized === undefined) return setForm({ ...form, touched: true })
    setForm({ ...form, busy: true, error: null })
    try {
      await addAllowedIp(token, form.ip.trim(), form.description.trim())
      setForm({ ip: "", description: "", touched: false, busy: false, error: null })
      list.reload()
    } catch (error) {
      setForm({ ...form, busy: false, error: `${t.addFailed}: ${failureOf(error).message}` })
    }
  }
  const confirmRemove = async () => {
    if (removing === null) return
    setRemoving({ ...removing, busy: true, error: null })
    try {
      await removeAllowedIp(token, removing.ip)
      setRemoving(null)
      list.reload()
    } catch (error) {
      setRemoving({ ...removing, busy: false, error: `${t.removeFailed}: ${failureOf(error).message}` })
    }
  }
  const askRemove = (entry: AllowedIp) => setRemoving({ ip: entry, busy: false, error: null })
  const keyboard = useRowKeyboard<AllowedIp, HTMLTableRowElement>(list.rows, { remove: askRemove })
  const focused = keyboard.focusedRow
  const commands = useMemo((): ReadonlyArray<Command> => [
    { id: "ips:add", label: t.add, group: t.title, keywords: ["whitelist", "ip"], run: () => document.getElementById("ip-address")?.focus() },
    ...(focused === undefined ? [] : [{ id: "ips:remove", label: `Remove allowed address ${focused.ip}`, group: t.title, shortcut: ["Delete"], run: () => askRemove(focused) }]),
    ...listCommands({ group: t.title, noun: "allowed addresses", list, url })
  ], [focused, list.pagination, url.query])
  useRegisterCommands(commands)

  return (
    <Screen title={t.title}>
      <Text as="p" size="2" mb="2" style={{ maxWidth: 720 }}>{t.intro}</Text>
      {yourIp !== undefined && <Text as="p" size="2" mb="3" weight="medium">{t.yourIp(yourIp)}</Text>}
      <Card mb="4" asChild>
        <form aria-label={t.add} noValidate onSubmit={(event) => { event.preventDefault(); void add() }}>
          <Grid columns={{ initial: "1", md: "2" }} gap="3">
            <Field label={t.ip} htmlFor="ip-address" hint={t.ipHint} error={ipError}>
              <TextField.Root id="ip-address" value={form.ip} disabled={form.busy} maxLength={64} aria-invalid={ipError !== undefined}
                onBlur={() => setForm({ ...form, touched: true })} onChange={(event) => setForm({ ...form, ip: event.target.value })} />
            </Field>
            <Field label={t.description} htmlFor="ip-description">
              <TextField.Root id="ip-description" value={form.description} disabled={form.busy} maxLength={200} onChange={(event) => setForm({ ...form, description: event.target.value })} />
            </Field>
          </Grid>
          {lockOutWarning && <Callout.Root color="orange" mt="3" role="status"><Callout.Text>{t.wouldLockOut}</Callout.Text></Callout.Root>}
          {form.error !== null && <Callout.Root color="red" role="alert" mt="3"><Callout.Text>{form.error}</Callout.Text></Callout.Root>}
          <Flex gap="3" mt="3">
            <Button type="submit" disabled={form.busy}><PlusIcon /> {form.busy ? t.adding : t.add}</Button>
            <Button type="button" variant="soft" onClick={list.reload}><ReloadIcon /> {t.refresh}</Button>
          </Flex>
        </form>
      </Card>
      <ListFrame list={list} loadingText={t.loading} loadFailedText={t.loadFailed} onPage={(page) => url.go({ page })}>
        <ListTable
          caption="Allowed addresses"
          list={list}
          keyboard={keyboard}
          empty={t.empty}
          columns={[
            {
              label: "Address",
              cell: (entry) => (
                <Text weight="bold" style={{ fontFamily: "var(--code-font-family)" }}>
                  {entry.ip}{coversCaller(entry.ip) && <Badge highContrast color="green" ml="2">{t.covers}</Badge>}
                </Text>
              )
            },
            { label: "Description", cell: (entry) => entry.description },
            { label: "Added", cell: (entry) => `${shortDate(entry.createdAt)}${entry.createdBy === null ? "" : ` · ${entry.createdBy}`}` }
          ]}
          actions={(entry) => (
            <Button size="1" variant="soft" color="red" tabIndex={-1} onClick={() => askRemove(entry)} aria-label={`${t.remove} ${entry.ip}`}>
              <TrashIcon /> {t.remove}
            </Button>
          )}
        />
      </ListFrame>
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint} {t.lockedOutHelp}</Text>
      <ConfirmDelete
        state={removing === null ? null : { subject: removing.ip.ip, busy: removing.busy, error: removing.error }}
        title={t.removeTitle}
        question={t.confirmRemove}
        texts={{ cancel: t.cancel, delete: t.remove, deleting: t.removing }}
        onClose={() => setRemoving(null)}
        onConfirm={() => void confirmRemove()}
      />
    </Screen>
  )
}
