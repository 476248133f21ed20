import { PlusIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Card, Flex, Text } from "@radix-ui/themes"
import { useEffect, useState } from "react"
import type { Passkey } from "../../../contract/passkeys.ts"
import { addPasskey, CeremonyRefused, listPasskeys, removePasskey } from "../../api/passkeys.ts"
import { shortDate } from "../../lib/dates.ts"
import { useContractForm } from "../../lib/form/use-contract-form.ts"
import { type ListAction, type ListCommand, useListScreen } from "../../lib/list/use-list-screen.ts"
import { ContractFormShell, FormBanner, TextInput } from "../../ui/FormField.tsx"
import { ListScreen } from "../../ui/list/ListScreen.tsx"
import { passkeyTexts as t } from "./texts.ts"

/**
 * Adding a passkey, on the one form pattern (docs/architecture.md, "Forms"): its name is checked
 * against the contract, then the browser asks the person's device; a refusal of the device or
 * the server is said under the form, and the name typed stays.
 */
const AddForm = ({ asked, onAdded }: { readonly asked: number; readonly onAdded: (passkey: Passkey) => void }) => {
  const contract = useContractForm<{ readonly name: string }, { readonly name: string }>({
    values: { name: "" },
    schema: () => import("../../../contract/passkeys.ts").then((module) => module.PasskeyName),
    toPayload: (values) => ({ name: values.name.trim() }),
    send: async ({ name }) => {
      const passkey = await addPasskey(name).catch((error: unknown) => {
        // Said as the device's refusal, not the browser's own words.
        if (error instanceof CeremonyRefused) throw new Error(typeof PublicKeyCredential === "undefined" ? t.unsupported : t.cancelled)
        throw error
      })
      contract.form.reset()
      onAdded(passkey)
    },
    failed: t.addFailed
  })
  const { setFocus } = contract.form
  useEffect(() => {
    if (asked > 0) setFocus("name")
  }, [asked, setFocus])
  return (
    <Card mb="4" asChild>
      <div>
        <ContractFormShell form={contract} label={t.add}>
          <TextInput name="name" label={t.name} hint={t.nameHint} required disabled={contract.busy} />
          <Flex direction="column" mt="3">
            <FormBanner />
          </Flex>
          <Flex gap="3" mt="3">
            <Button type="submit" disabled={contract.busy}>
              <PlusIcon /> {contract.busy ? t.adding : t.add}
            </Button>
          </Flex>
        </ContractFormShell>
      </div>
    </Card>
  )
}

const actions: ReadonlyArray<ListAction<Passkey>> = [
  {
    id: "passkeys:remove",
    key: "Delete",
    hint: "remove (Delete again confirms)",
    label: (passkey) => `Remove passkey ${passkey.name}`,
    button: { label: t.remove, tone: "red" },
    confirm: {
      title: t.removeTitle,
      question: t.confirmRemove,
      subject: (passkey) => passkey.name,
      texts: { cancel: t.cancel, delete: t.remove, deleting: t.removing },
      failed: t.removeFailed,
      run: removePasskey
    }
  }
]

/** A person's few passkeys: one page, no search or filters. */
const spec = {
  title: t.title,
  noun: "passkeys",
  querySpec: {},
  fetchPage: listPasskeys,
  idOf: (passkey: Passkey) => passkey._id,
  searchable: false
}

/**
 * The signed-in person's passkeys (docs/api.md, "Passkeys") on the one list screen: each with
 * when it was added and last used and whether it is synced; added from the form above the list
 * (the palette's "Add a passkey" puts the cursor in its name), removed with Delete.
 */
export const PasskeysScreen = () => {
  const [asked, setAsked] = useState(0)
  const [added, setAdded] = useState<string | null>(null)
  const commands: ReadonlyArray<ListCommand> = [
    { id: "passkeys:add", label: t.add, keywords: ["webauthn", "security key", "fingerprint"], run: () => setAsked((count) => count + 1) }
  ]
  const screen = useListScreen(spec, { actions, idle: true, commands })
  return (
    <ListScreen
      screen={screen}
      texts={{ loading: t.loading, loadFailed: t.loadFailed, empty: t.empty }}
      view={{
        table: {
          caption: t.title,
          columns: [
            { label: "Name", cell: (passkey) => <Text weight="bold">{passkey.name}</Text> },
            { label: "Added", cell: (passkey) => shortDate(passkey.createdAt) },
            { label: "Last used", cell: (passkey) => (passkey.lastUsedAt === null ? t.never : shortDate(passkey.lastUsedAt)) },
            {
              label: "Kept",
              cell: (passkey) => (
                <Badge color={passkey.backedUp ? "green" : "gray"} highContrast>
                  {passkey.backedUp ? t.synced : t.thisDevice}
                </Badge>
              )
            }
          ]
        }
      }}
      above={
        <>
          <Text as="p" size="2" mb="3" style={{ maxWidth: 720 }}>
            {t.intro}
          </Text>
          {added !== null && (
            <Callout.Root color="green" role="status" mb="3">
              <Callout.Text>{t.added(added)}</Callout.Text>
            </Callout.Root>
          )}
          <AddForm
            asked={asked}
            onAdded={(passkey) => {
              setAdded(passkey.name)
              screen.list.reload()
            }}
          />
        </>
      }
    />
  )
}
