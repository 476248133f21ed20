import { Button, Callout, DataList, Dialog, Flex, Text, TextArea, TextField } from "@radix-ui/themes"
import type { FormEvent } from "react"
import type { ActorRefFrom, SnapshotFrom } from "xstate"
import type { addressModalMachine } from "../../../machines/address-modal.ts"
import { cellText, type DirectorySpec, type FieldSpec } from "./directories.ts"
import { addressTexts as t } from "./texts.ts"

type Modal = ActorRefFrom<typeof addressModalMachine>
type Snapshot = SnapshotFrom<typeof addressModalMachine>

const Failure = ({ error, detail }: { readonly error: string | null; readonly detail: string | null }) =>
  error === null ? null : (
    <Callout.Root color="red" role="alert" mb="3">
      <Callout.Text>
        <Text weight="bold">{error}</Text>
        {detail !== null && <><br />{detail}</>}
      </Callout.Text>
    </Callout.Root>
  )

const Field = ({ field, value, disabled, onChange }: {
  readonly field: FieldSpec
  readonly value: string
  readonly disabled: boolean
  readonly onChange: (value: string) => void
}) => (
  <label>
    <Text as="div" size="2" weight="medium" mb="1">
      {field.label}{field.required === true && <Text color="red" aria-hidden="true"> *</Text>}
    </Text>
    {field.type === "textarea"
      ? <TextArea name={field.name} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} />
      : (
        <TextField.Root
          name={field.name}
          type={field.type === "url" ? "url" : field.type === "integer" ? "number" : "text"}
          step={field.type === "integer" ? 1 : undefined}
          required={field.required}
          value={value}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
  </label>
)

const EditForm = ({ spec, modal, snapshot }: { readonly spec: DirectorySpec; readonly modal: Modal; readonly snapshot: Snapshot }) => {
  const busy = snapshot.matches("saving")
  const submit = (event: FormEvent) => {
    event.preventDefault()
    modal.send({ type: "SAVE" })
  }
  return (
    <form onSubmit={submit}>
      <Failure error={snapshot.context.error} detail={snapshot.context.errorDetail} />
      <Flex direction="column" gap="3">
        {spec.fields.map((field) => (
          <Field
            key={field.name}
            field={field}
            value={snapshot.context.draft[field.name] ?? ""}
            disabled={busy}
            onChange={(value) => modal.send({ type: "CHANGE", field: field.name, value })}
          />
        ))}
      </Flex>
      <Flex gap="3" mt="4" justify="end">
        <Button type="button" variant="soft" color="gray" onClick={() => modal.send({ type: "CLOSE" })} disabled={busy}>
          {t.cancel}
        </Button>
        <Button type="submit" disabled={busy || !snapshot.can({ type: "SAVE" })}>{busy ? t.saving : t.save}</Button>
      </Flex>
    </form>
  )
}

const Details = ({ spec, modal, snapshot }: { readonly spec: DirectorySpec; readonly modal: Modal; readonly snapshot: Snapshot }) => {
  const address = snapshot.context.address
  return (
    <>
      <DataList.Root>
        {address !== null && [...spec.fields.map((f) => ({ label: f.label, field: f.name })), { label: "Created", field: "createdAt" }].map((row) => (
          <DataList.Item key={row.field}>
            <DataList.Label>{row.label}</DataList.Label>
            <DataList.Value>{cellText(address, row.field) || "—"}</DataList.Value>
          </DataList.Item>
        ))}
      </DataList.Root>
      <Flex gap="3" mt="4" justify="end">
        <Button variant="soft" color="gray" onClick={() => modal.send({ type: "CLOSE" })}>{t.close}</Button>
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
      <Text as="p" size="2">{t.confirmDelete}</Text>
      <Flex gap="3" mt="4" justify="end">
        <Button variant="soft" color="gray" onClick={() => modal.send({ type: "CLOSE" })} disabled={busy}>{t.cancel}</Button>
        <Button color="red" onClick={() => modal.send({ type: "CONFIRM_DELETE" })} disabled={busy}>
          {busy ? t.deleting : t.delete}
        </Button>
      </Flex>
    </>
  )
}

/** docs/product-spec.md §4, "Address modal": one dialog, three modes, driven by the modal machine. */
export const AddressModal = ({ spec, modal, snapshot }: { readonly spec: DirectorySpec; readonly modal: Modal; readonly snapshot: Snapshot }) => {
  const open = !snapshot.matches("closed")
  const editing = snapshot.matches("editing") || snapshot.matches("saving")
  const deleting = snapshot.matches("confirmingDelete") || snapshot.matches("deleting")
  const title = editing
    ? snapshot.context.address === null ? t.addTitle : t.editTitle
    : deleting ? t.deleteTitle : t.viewTitle
  const identifier = snapshot.context.address?.identifier
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && modal.send({ type: "CLOSE" })}>
      <Dialog.Content maxWidth="520px" aria-describedby={undefined}>
        <Dialog.Title>{title}</Dialog.Title>
        {identifier !== undefined && !editing && <Text as="p" size="2" color="gray" mb="3">{identifier}</Text>}
        {editing && <EditForm spec={spec} modal={modal} snapshot={snapshot} />}
        {deleting && <DeleteConfirmation modal={modal} snapshot={snapshot} />}
        {snapshot.matches("viewing") && <Details spec={spec} modal={modal} snapshot={snapshot} />}
      </Dialog.Content>
    </Dialog.Root>
  )
}
