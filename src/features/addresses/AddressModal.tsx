import { Button, Callout, DataList, Dialog, Flex, Text } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
import { HistoryButton } from "../../ui/HistoryButton.tsx"
import { OpenRecordNotice } from "../../ui/OpenRecordNotice.tsx"
import { type OpenRecord, useExpectedVersion, useOpenRecord } from "../../lib/store/use-open-record.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { useWatch } from "react-hook-form"
import { useEffect, useRef } from "react"
import { type ActorRefFrom, fromPromise, type SnapshotFrom } from "xstate"
import type { Schema } from "effect"
import type { AddressKind, AnyAddress } from "../../../contract/addresses.ts"
import { addressModalErrors, addressModalMachine } from "../../../machines/address-modal.ts"
import { useMachine } from "../../lib/use-machine.ts"
import { ADDRESS_KIND } from "../../api/addresses.ts"
import { answeredOrKept, type CallAs } from "../../lib/store/handle.ts"
import { useContractForm, useRefusal } from "../../lib/form/use-contract-form.ts"
import { confirmHint } from "../../ui/ConfirmDelete.tsx"
import { ContractFormShell, FormBanner, TextInput } from "../../ui/FormField.tsx"
import { cellText, type DirectorySpec, toDraft, toInput } from "./directories.ts"
import { addressLabel, addressTexts as t } from "./texts.ts"

type Modal = ActorRefFrom<typeof addressModalMachine>
type Snapshot = SnapshotFrom<typeof addressModalMachine>

const Failure = ({ error, detail }: { readonly error: string | null; readonly detail: string | null }) =>
  error === null ? null : (
    <Callout.Root color="red" role="alert" mb="3">
      <Callout.Text>
        <Text weight="bold">{error}</Text>
        {detail !== null && (
          <>
            <br />
            {detail}
          </>
        )}
      </Callout.Text>
    </Callout.Root>
  )

type AddressInputs = typeof import("../../../contract/addresses.ts")
const inputSchemas: Readonly<Record<AddressKind, (contract: AddressInputs) => Schema.Decoder<unknown>>> = {
  generated: (contract: AddressInputs) => contract.GeneratedAddressInput,
  cex: (contract: AddressInputs) => contract.CexAddressInput,
  "core-team": (contract: AddressInputs) => contract.CoreTeamAddressInput
}

/**
 * The edit mode, on the one form pattern (docs/architecture.md, "Forms"): the form holds what is
 * typed and checks it against the directory's contract schema; Save hands it to the modal
 * machine, which saves. Save waits for Identifier and Name (docs/product-spec.md §5).
 */
const EditForm = ({ spec, modal, snapshot }: { readonly spec: DirectorySpec; readonly modal: Modal; readonly snapshot: Snapshot }) => {
  const busy = snapshot.matches("saving")
  const contract = useContractForm<Record<string, string>, unknown>({
    values: Object.fromEntries(spec.fields.map((field) => [field.name, snapshot.context.draft[field.name] ?? ""])),
    schema: () => import("../../../contract/addresses.ts").then(inputSchemas[spec.kind]),
    toPayload: (values) => toInput(spec, values),
    send: () => void modal.send({ type: "SAVE", draft: contract.form.getValues() }),
    failed: snapshot.context.address === null ? addressModalErrors.create : addressModalErrors.update
  })
  const required = spec.fields.filter((field) => field.required === true).map((field) => field.name)
  const filled = useWatch({ control: contract.form.control, name: required }).every((value) => String(value ?? "").trim() !== "")
  // A refusal's fields, from the machine's save: under the fields; the alert only for the rest.
  const issues = snapshot.context.issues
  const stray = useRefusal(contract, issues)
  const alerted = issues.length === 0 || stray.length > 0
  return (
    <ContractFormShell form={contract}>
      {alerted && <Failure error={snapshot.context.error} detail={snapshot.context.errorDetail} />}
      <Flex direction="column" gap="3">
        {spec.fields.map((field) => (
          <TextInput
            key={field.name}
            name={field.name}
            label={field.label}
            required={field.required === true}
            disabled={busy}
            multiline={field.type === "textarea"}
            kind={field.type === "url" ? "url" : field.type === "integer" ? "number" : "text"}
          />
        ))}
        <FormBanner />
      </Flex>
      <Flex gap="3" mt="4" justify="end">
        <Button type="button" variant="soft" color="gray" onClick={() => modal.send({ type: "CLOSE" })} disabled={busy}>
          {t.cancel}
        </Button>
        <Button type="submit" disabled={busy || !filled}>
          {busy ? t.saving : t.save}
        </Button>
      </Flex>
    </ContractFormShell>
  )
}

const Details = ({ spec, modal, address }: { readonly spec: DirectorySpec; readonly modal: Modal; readonly address: AnyAddress | null }) => {
  return (
    <>
      <DataList.Root>
        {address !== null &&
          [...spec.fields.map((f) => ({ label: f.label, field: f.name })), { label: "Created", field: "createdAt" }].map((row) => (
            <DataList.Item key={row.field}>
              <DataList.Label>{row.label}</DataList.Label>
              <DataList.Value>{cellText(address, row.field) || "—"}</DataList.Value>
            </DataList.Item>
          ))}
      </DataList.Root>
      <Flex gap="3" mt="4" justify="end">
        {address !== null && <HistoryButton kind="address" id={address._id} label={addressLabel(address)} />}
        <Button variant="soft" color="gray" onClick={() => modal.send({ type: "CLOSE" })}>
          {t.close}
        </Button>
        <Button onClick={() => modal.send({ type: "EDIT" })}>{t.edit}</Button>
      </Flex>
    </>
  )
}

const DeleteConfirmation = ({ modal, snapshot }: { readonly modal: Modal; readonly snapshot: Snapshot }) => {
  const busy = snapshot.matches("deleting")
  return (
    <>
      <Failure error={snapshot.context.error} detail={snapshot.context.errorDetail} />
      <Text as="p" size="2">
        {t.confirmDelete}
      </Text>
      <Text as="p" size="1" color="gray" mt="2">
        {confirmHint(t.delete)}
      </Text>
      <Flex gap="3" mt="4" justify="end">
        <Button variant="soft" color="gray" onClick={() => modal.send({ type: "CLOSE" })} disabled={busy}>
          {t.cancel}
        </Button>
        <Button color="red" onClick={() => modal.send({ type: "CONFIRM_DELETE" })} disabled={busy}>
          {busy ? t.deleting : t.delete}
        </Button>
      </Flex>
    </>
  )
}

/** docs/product-spec.md §4, "Address modal": one dialog, three modes, driven by the modal machine. */
export const AddressModal = ({ spec, modal }: { readonly spec: DirectorySpec; readonly modal: Modal }) => {
  // The modal draws every state of its machine: it reads the whole snapshot.
  const snapshot = useSelector(modal, (current) => current)
  const open = !snapshot.matches("closed")
  const editing = snapshot.matches("editing") || snapshot.matches("saving")
  const deleting = snapshot.matches("confirmingDelete") || snapshot.matches("deleting")
  const title = editing ? (snapshot.context.address === null ? t.addTitle : t.editTitle) : deleting ? t.deleteTitle : t.viewTitle
  // The address as the browser's store has it now: a colleague's change shows in the view, and
  // its Edit starts from it (REFRESH); a form keeps what was typed and says a save would be refused.
  const record: OpenRecord<AnyAddress | null> = useOpenRecord("address", snapshot.context.address)
  const viewing = snapshot.matches("viewing")
  const newer = record.shown
  useEffect(() => {
    if (viewing && newer !== null) modal.send({ type: "REFRESH", address: newer, draft: toDraft(spec, newer) })
  }, [viewing, newer, modal, spec])
  const said = viewing ? { gone: record.gone, changed: record.changed || snapshot.context.refreshed } : record
  const identifier = snapshot.context.address?.identifier
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && modal.send({ type: "CLOSE" })}>
      <Dialog.Content
        maxWidth="520px"
        aria-describedby={undefined}
        onKeyDown={(event) => {
          // The key that asked confirms (docs/architecture.md, "Keys on a list"); the dialog opens on Cancel.
          if (event.key !== "Delete" || !snapshot.matches("confirmingDelete")) return
          event.preventDefault()
          modal.send({ type: "CONFIRM_DELETE" })
        }}
      >
        <Dialog.Title>{title}</Dialog.Title>
        {identifier !== undefined && !editing && (
          <Text as="p" size="2" color="gray" mb="3">
            {identifier}
          </Text>
        )}
        {(viewing || snapshot.matches("editing")) && <OpenRecordNotice record={said} noun="address" editing={editing} />}
        {editing && <EditForm spec={spec} modal={modal} snapshot={snapshot} />}
        {deleting && <DeleteConfirmation modal={modal} snapshot={snapshot} />}
        {viewing && <Details spec={spec} modal={modal} address={snapshot.context.address} />}
      </Dialog.Content>
    </Dialog.Root>
  )
}

/** What the screen asked of the modal: an opening (the machine's event), numbered so the same one twice is two. */
export interface ModalAsked {
  readonly event: Parameters<Modal["send"]>[0]
  readonly serial: number
}

/**
 * The modal with its machine (machines/address-modal.ts), given the directory's calls: both come
 * in this chunk, not the first screen's (docs/architecture.md, "First screen"). The screen says
 * what was asked (`asked`) and hears when the modal is closed again (`onClosed`).
 */
export const AddressModalHost = ({
  spec,
  asked,
  onClosed,
  save,
  remove,
  reloadList
}: {
  readonly spec: DirectorySpec
  readonly asked: ModalAsked
  readonly onClosed: (closed: boolean) => void
  /**
   * `as`: what the save does in the browser's store (its effect is the screen's to make from the
   * draft); `version`: the one the address opened at, past this browser's changes to it then waiting.
   */
  readonly save: (address: AnyAddress | null, draft: Readonly<Record<string, string>>, as: CallAs, version: number) => Promise<unknown>
  readonly remove: (address: AnyAddress) => Promise<unknown>
  readonly reloadList: () => void
}) => {
  // A save names the version the address opened at: a colleague's change since is refused (409), not overwritten.
  const versionOpened = useStableCallback(() => expected)
  const modal = useMachine(() =>
    addressModalMachine.provide({
      actors: {
        // Kept offline, the modal closes as after a save (docs/architecture.md, "Forms").
        save: fromPromise(({ input: { address, draft } }) =>
          answeredOrKept((kept) =>
            save(
              address,
              draft,
              {
                kind: ADDRESS_KIND,
                recordIds: address === null ? [] : [address._id],
                effect: {},
                label: address === null ? addressModalErrors.create : addressLabel(address),
                failed: address === null ? addressModalErrors.create : addressModalErrors.update,
                quiet: true,
                kept
              },
              versionOpened()
            )
          )
        ),
        remove: fromPromise(({ input }) => remove(input.address))
      },
      actions: { reloadList }
    })
  )
  const expected = useExpectedVersion(
    ADDRESS_KIND,
    useSelector(modal, (snapshot) => snapshot.context.address)
  )
  useEffect(() => modal.send(asked.event), [modal, asked])
  const closed = useSelector(modal, (snapshot) => snapshot.matches("closed"))
  // The screen counts the modal open from its asking; it hears only that it closed again.
  const opened = useRef(false)
  useEffect(() => {
    if (!closed) opened.current = true
    else if (opened.current) onClosed(true)
  }, [closed, onClosed])
  return <AddressModal spec={spec} modal={modal} />
}
