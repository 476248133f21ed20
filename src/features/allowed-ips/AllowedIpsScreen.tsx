import { PlusIcon, ReloadIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Card, Flex, Grid, Text } from "@radix-ui/themes"
import { useEffect, useState } from "react"
import { useWatch } from "react-hook-form"
import type { AllowedIp, AllowedIpInput } from "../../../contract/allowed-ips.ts"
import { ipInRange, normalizeIpRange, parseIpRange } from "../../../contract/ip-rules.ts"
import { addAllowedIp, listAllowedIps, removeAllowedIp } from "../../api/allowed-ips.ts"
import { shortDate } from "../../lib/dates.ts"
import { ContractFormShell, FormBanner, TextInput } from "../../ui/FormField.tsx"
import type { CallAs } from "../../lib/store/handle.ts"
import { useContractForm } from "../../lib/form/use-contract-form.ts"
import { type ListAction, type ListCommand, useListScreen } from "../../lib/list/use-list-screen.ts"
import { ListScreen } from "../../ui/list/ListScreen.tsx"
import { allowedIpTexts as t } from "./texts.ts"

/**
 * The form that adds an address, on the one form pattern (docs/architecture.md, "Forms"): the
 * contract checks the address as the server reads it; it warns, as it is typed, when the first
 * entry would not let the caller in.
 */
const IpForm = ({
  yourIp,
  listEmpty,
  send,
  reload,
  asked
}: {
  readonly yourIp: string | undefined
  readonly listEmpty: boolean
  readonly send: (input: AllowedIpInput, as: CallAs) => Promise<unknown>
  readonly reload: () => void
  /** Counts the palette's "Allow address": each puts the cursor in the address. */
  readonly asked: number
}) => {
  const contract = useContractForm<{ readonly ip: string; readonly description: string }, AllowedIpInput>({
    values: { ip: "", description: "" },
    schema: () => import("../../../contract/allowed-ips.ts").then((module) => module.AllowedIpInput),
    toPayload: (values) => ({ ip: values.ip.trim(), description: values.description.trim() }),
    send: (input, _intent, as) => send(input, as),
    // Taken by the server, or kept in the browser to go when the link is back: the form is empty again.
    saved: () => contract.form.reset(),
    kept: () => contract.form.reset(),
    failed: t.addFailed
  })
  const { setFocus } = contract.form
  useEffect(() => {
    if (asked > 0) setFocus("ip")
  }, [asked, setFocus])
  const typed = useWatch({ control: contract.form.control, name: "ip" })
  const normalized = normalizeIpRange(typed)
  const range = normalized === undefined ? undefined : parseIpRange(normalized)
  const lockOutWarning = yourIp !== undefined && listEmpty && range !== undefined && !ipInRange(yourIp, range)
  return (
    <Card mb="4" asChild>
      <div>
        <ContractFormShell form={contract} label={t.add}>
          <Grid columns={{ initial: "1", md: "2" }} gap="3">
            {/* Arriving on the screen (g w) puts the cursor here, as on every screen that is a form first. */}
            <TextInput name="ip" label={t.ip} hint={t.ipHint} required autoFocus disabled={contract.busy} />
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

const actions: ReadonlyArray<ListAction<AllowedIp>> = [
  {
    id: "ips:remove",
    key: "Delete",
    hint: "remove (Delete again confirms)",
    label: (entry) => `Remove allowed address ${entry.ip}`,
    button: { label: t.remove, tone: "red" },
    confirm: {
      title: t.removeTitle,
      question: t.confirmRemove,
      subject: (entry) => entry.ip,
      texts: { cancel: t.cancel, delete: t.remove, deleting: t.removing },
      failed: t.removeFailed,
      removes: true,
      run: removeAllowedIp
    }
  }
]

/** The list has no search or filters: the whole list is one page. */
const spec = {
  title: t.title,
  noun: "allowed addresses",
  querySpec: {},
  fetchPage: listAllowedIps,
  store: "ip" as const,
  idOf: (entry: AllowedIp) => entry._id,
  searchable: false,
  history: { kind: "ip" as const, labelOf: (entry: AllowedIp) => entry.ip }
}

/**
 * The allowed-address list (super admins; docs/api.md, "Allowed addresses") on the one list
 * screen. The form checks the address as the server will; a change that would shut out the
 * caller is refused by the server, and the screen says why before it is sent.
 */
export const AllowedIpsScreen = () => {
  const [asked, setAsked] = useState(0)
  const commands: ReadonlyArray<ListCommand> = [{ id: "ips:add", label: t.add, keywords: ["whitelist", "ip"], run: () => setAsked((count) => count + 1) }]
  const screen = useListScreen(spec, { actions, idle: true, commands })
  const { list } = screen
  const yourIp = list.page?.yourIp
  const coversCaller = (entry: string) => {
    const entryRange = parseIpRange(entry)
    return yourIp !== undefined && entryRange !== undefined && ipInRange(yourIp, entryRange)
  }

  return (
    <ListScreen
      screen={screen}
      texts={{ loading: t.loading, loadFailed: t.loadFailed, empty: t.empty, hintAfter: t.lockedOut }}
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
          ]
        }
      }}
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
            send={(input, as) => addAllowedIp(input.ip, input.description ?? "", as).then(list.reload)}
            reload={list.reload}
            asked={asked}
          />
        </>
      }
    />
  )
}
