import { PlusIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Card, Checkbox, Flex, Grid, Heading, Text } from "@radix-ui/themes"
import { useEffect, useState } from "react"
import { useController } from "react-hook-form"
import { roleLabels } from "../../../contract/common.ts"
import type { Passkey, PasskeyRule } from "../../../contract/passkeys.ts"
import { addPasskey, CeremonyRefused, listPasskeys, passkeyRules, removePasskey, renamePasskey, setPasskeyRule } from "../../api/passkeys.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { shortDate } from "../../lib/dates.ts"
import { useContractForm, useContractFormContext } from "../../lib/form/use-contract-form.ts"
import { type ListAction, type ListCommand, useListScreen } from "../../lib/list/use-list-screen.ts"
import { ContractFormShell, FormBanner, TextInput } from "../../ui/FormField.tsx"
import { BannerView } from "../../ui/FieldFrame.tsx"
import { ListScreen } from "../../ui/list/ListScreen.tsx"
import { RecoveryCodes } from "./RecoveryCodes.tsx"
import { passkeyTexts as t } from "./texts.ts"

/**
 * Adding a passkey, on the one form pattern (docs/architecture.md, "Forms"): its name is checked
 * against the contract, then the browser asks the person's device; a refusal of the device or
 * the server is said under the form, and the name typed stays.
 */
/** A name already on another of the person's passkeys (any case), said under the field before anything is sent. */
const nameTakenRefusal = () => Object.assign(new Error(t.nameTaken), { status: 409, issues: [{ path: "name", message: t.nameTaken }] })

const AddForm = ({
  asked,
  arrived,
  taken,
  onAdded
}: {
  readonly asked: number
  /** Whether one of the person's passkeys has this name. */
  readonly taken: (name: string) => boolean
  /** The screen was just arrived at (g k): the cursor goes to the name, so what is typed next is the name, not a row's key. */
  readonly arrived: boolean
  readonly onAdded: (passkey: Passkey) => void
}) => {
  const contract = useContractForm<{ readonly name: string }, { readonly name: string }>({
    values: { name: "" },
    schema: () => import("../../../contract/passkeys.ts").then((module) => module.PasskeyName),
    toPayload: (values) => ({ name: values.name.trim() }),
    send: async ({ name }) => {
      // Before the device is asked: its prompt would be for nothing.
      if (taken(name)) throw nameTakenRefusal()
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
          <TextInput name="name" label={t.name} hint={t.nameHint} required autoFocus={arrived} disabled={contract.busy} />
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

/** Renaming a passkey, on the one form pattern, in the add form's place. */
const RenameForm = ({
  passkey,
  taken,
  onDone
}: {
  readonly passkey: Passkey
  /** Whether another of the person's passkeys has this name. */
  readonly taken: (name: string) => boolean
  readonly onDone: (renamed: Passkey | null) => void
}) => {
  const contract = useContractForm<{ readonly name: string }, { readonly name: string }>({
    values: { name: passkey.name },
    schema: () => import("../../../contract/passkeys.ts").then((module) => module.PasskeyName),
    toPayload: (values) => ({ name: values.name.trim() }),
    send: async ({ name }) => {
      if (taken(name)) throw nameTakenRefusal()
      onDone(await renamePasskey(passkey._id, name))
    },
    failed: t.renameFailed
  })
  return (
    <Card mb="4" asChild>
      <div>
        <ContractFormShell form={contract} label={t.renameTitle(passkey.name)}>
          <Heading as="h2" size="3" mb="2">
            {t.renameTitle(passkey.name)}
          </Heading>
          <TextInput name="name" label={t.name} required autoFocus disabled={contract.busy} />
          <Flex direction="column" mt="3">
            <FormBanner />
          </Flex>
          <Flex gap="3" mt="3">
            <Button type="submit" disabled={contract.busy}>
              {contract.busy ? t.saving : t.save}
            </Button>
            <Button type="button" variant="soft" disabled={contract.busy} onClick={() => onDone(null)}>
              {t.cancel}
            </Button>
          </Flex>
        </ContractFormShell>
      </div>
    </Card>
  )
}

const RequiredBox = () => {
  const contract = useContractFormContext()
  const { field } = useController({ name: "required", control: contract.form.control })
  return (
    <Text as="label" size="2">
      <Flex gap="2" align="center">
        <Checkbox ref={field.ref} checked={field.value === true} disabled={contract.busy} onCheckedChange={(checked) => field.onChange(checked === true)} />
        {t.required}
      </Flex>
    </Text>
  )
}

/** One role's rule, on the one form pattern: required or not, and the days of grace from now. */
const RuleForm = ({ rule, onSaved }: { readonly rule: PasskeyRule; readonly onSaved: (rule: PasskeyRule) => void }) => {
  const label = roleLabels[rule.role]
  const contract = useContractForm<{ readonly required: boolean; readonly graceDays: string }, { readonly required: boolean; readonly graceDays: number }>({
    values: { required: rule.required, graceDays: "7" },
    schema: () => import("../../../contract/passkeys.ts").then((module) => module.PasskeyRuleChange),
    // A whole number goes as one; anything else as typed, so the contract says what is wrong with it.
    toPayload: (values) => ({
      required: values.required,
      graceDays: (/^\d+$/u.test(values.graceDays.trim()) ? Number(values.graceDays) : values.graceDays) as number
    }),
    send: async ({ required, graceDays }) => onSaved(await setPasskeyRule(rule.role, required, graceDays)),
    failed: t.ruleFailed
  })
  return (
    <ContractFormShell form={contract} label={t.saveRule(label)}>
      <Grid columns={{ initial: "1", md: "4" }} gap="3" align="end">
        <Text weight="bold">{label}</Text>
        <RequiredBox />
        <TextInput name="graceDays" label={t.graceDays} kind="number" hint={t.graceHint} disabled={contract.busy} />
        <Button type="submit" variant="soft" disabled={contract.busy} aria-label={t.saveRule(label)}>
          {contract.busy ? t.saving : t.save}
        </Button>
      </Grid>
      <Text as="p" size="1" color="gray" mt="1">
        {rule.required
          ? rule.graceUntil === null
            ? t.ruleSaved(label, true)
            : `${t.ruleSaved(label, true)} Grace until ${shortDate(rule.graceUntil)}.`
          : t.ruleSaved(label, false)}
      </Text>
      <FormBanner />
    </ContractFormShell>
  )
}

/** Super admins: which roles require a passkey (docs/security.md, "Passkeys"). */
const RoleRules = () => {
  const [rules, setRules] = useState<ReadonlyArray<PasskeyRule> | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    passkeyRules().then(setRules, () => setFailed(true))
  }, [])
  return (
    <Card mb="4">
      <Heading as="h2" size="3" mb="2">
        {t.rulesTitle}
      </Heading>
      <Text as="p" size="2" mb="3" style={{ maxWidth: 720 }}>
        {t.rulesIntro}
      </Text>
      <BannerView message={failed ? t.rulesFailed : null} />
      <Flex direction="column" gap="3">
        {rules?.map((rule) => (
          <RuleForm
            key={rule.role}
            rule={rule}
            onSaved={(saved) => setRules((known) => known?.map((one) => (one.role === saved.role ? saved : one)) ?? null)}
          />
        ))}
      </Flex>
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

/** `r` and the row's Rename: the rename form, on that passkey. */
const renameAction = (rename: (passkey: Passkey) => void): ListAction<Passkey> => ({
  id: "passkeys:rename",
  key: "r",
  hint: "rename",
  label: (passkey) => `Rename passkey ${passkey.name}`,
  button: { label: t.rename },
  run: rename
})

/** Whether a passkey listed, other than `except`, has the name (any case). */
const nameTakenIn = (rows: ReadonlyArray<Passkey>) => (except: string | null) => (name: string) =>
  rows.some((passkey) => passkey._id !== except && passkey.name.toLowerCase() === name.trim().toLowerCase())

/**
 * The signed-in person's passkeys (docs/api.md, "Passkeys") on the one list screen: each with
 * when it was added and last used and whether it is synced; added from the form above the list
 * (the palette's "Add a passkey" puts the cursor in its name), removed with Delete.
 */
export const PasskeysScreen = () => {
  const [asked, setAsked] = useState(0)
  const [askedCodes, setAskedCodes] = useState(0)
  const [added, setAdded] = useState<string | null>(null)
  const [renaming, setRenaming] = useState<Passkey | null>(null)
  // The add form takes the cursor as the screen opens, not when it comes back after a rename.
  const [renamedHere, setRenamedHere] = useState(false)
  const superAdmin = AuthContext.useSelector((snapshot) => snapshot.context.user?.role === "super_admin")
  const commands: ReadonlyArray<ListCommand> = [
    { id: "passkeys:add", label: t.add, keywords: ["webauthn", "security key", "fingerprint"], run: () => setAsked((count) => count + 1) },
    { id: "passkeys:recovery", label: t.makeCodes, keywords: ["backup codes", "lost device"], run: () => setAskedCodes((count) => count + 1) }
  ]
  const rename = (passkey: Passkey) => {
    setRenamedHere(true)
    setRenaming(passkey)
  }
  const screen = useListScreen(spec, { actions: [renameAction(rename), ...actions], idle: renaming === null, commands })
  const page = screen.list.page
  const nameTaken = nameTakenIn(screen.rows)
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
          {page?.required === true && (
            <Callout.Root color={page.dueBy === null ? "blue" : "orange"} role="status" mb="3">
              <Callout.Text>{page.dueBy === null ? t.requiredHeld : t.requiredDue(shortDate(page.dueBy))}</Callout.Text>
            </Callout.Root>
          )}
          {added !== null && (
            <Callout.Root color="green" role="status" mb="3">
              <Callout.Text>{added}</Callout.Text>
            </Callout.Root>
          )}
          {renaming === null ? (
            <AddForm
              asked={asked}
              arrived={!renamedHere}
              taken={nameTaken(null)}
              onAdded={(passkey) => {
                setAdded(t.added(passkey.name))
                screen.list.reload()
              }}
            />
          ) : (
            <RenameForm
              passkey={renaming}
              taken={nameTaken(renaming._id)}
              onDone={(renamed) => {
                setRenaming(null)
                if (renamed === null) return
                setAdded(t.renamed(renamed.name))
                screen.list.reload()
              }}
            />
          )}
        </>
      }
    >
      <Flex direction="column" mt="4">
        <RecoveryCodes left={page?.recoveryCodesLeft ?? 0} asked={askedCodes} onMade={screen.list.reload} />
        {superAdmin && <RoleRules />}
      </Flex>
    </ListScreen>
  )
}
