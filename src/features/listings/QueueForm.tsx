import { LISTING_KIND } from "../../api/listings.ts"
import { useExpectedVersion } from "../../lib/store/use-open-record.ts"
import { Button, Dialog, Flex } from "@radix-ui/themes"
import { HistoryButton } from "../../ui/HistoryButton.tsx"
import { useController } from "react-hook-form"
import { uploadImage } from "../../api/uploads.ts"
import { inputDateTime } from "../../lib/dates.ts"
import { useContractForm, useContractFormContext } from "../../lib/form/use-contract-form.ts"
import { ChipsInput } from "../../ui/ChipsInput.tsx"
import { FeaturedImageField } from "../../ui/FeaturedImageField.tsx"
import { ContractFormShell, FormBanner, FormField, TextInput } from "../../ui/FormField.tsx"
import type { FieldSpec, QueueKind, QueueRow } from "./kinds.ts"
import { optionLabel } from "./kinds.ts"
import { listingTexts as t } from "./texts.ts"
import { plainText } from "../../../contract/text.ts"

/** What the form holds while it is open: every field as typed. */
export type FormValues = Record<string, string | ReadonlyArray<string>>

/** The form's values for a record (or empty ones for a new record). */
export const valuesOf = (fields: ReadonlyArray<FieldSpec>, row: QueueRow | null): FormValues =>
  Object.fromEntries(
    fields.map((field): [string, string | ReadonlyArray<string>] => {
      const value: unknown = row?.[field.name]
      if (field.kind === "list") return [field.name, Array.isArray(value) ? value.map(plainText) : []]
      if (field.kind === "datetime") return [field.name, typeof value === "string" ? inputDateTime(value) : ""]
      return [field.name, value === undefined || value === null ? (field.kind === "select" ? (field.options?.[0] ?? "") : "") : plainText(value)]
    })
  )

const NUMBER = /^-?\d+(?:\.\d+)?$/u

/**
 * What is sent: texts trimmed, numbers as numbers, empty numbers left out, lists as lists, dates
 * as instants. Text that is not a number stays text, so the contract says "must be a number"
 * rather than the form guessing. A date the field shows to the minute and that was left as it
 * was keeps the stored time to the millisecond (`row`: the record being edited), so a save that
 * did not touch it does not change it.
 */
export const payloadOf = (fields: ReadonlyArray<FieldSpec>, values: FormValues, row: QueueRow | null = null): Readonly<Record<string, unknown>> =>
  Object.fromEntries(
    fields.flatMap((field): ReadonlyArray<readonly [string, unknown]> => {
      const value = values[field.name]
      if (field.kind === "list") return [[field.name, value ?? []]]
      const text = String(value ?? "").trim()
      if (field.kind === "number") return text === "" ? [] : [[field.name, NUMBER.test(text) ? Number(text) : text]]
      if (field.kind === "datetime") {
        const stored: unknown = row?.[field.name]
        if (typeof stored === "string" && stored !== "" && text === inputDateTime(stored)) return [[field.name, stored]]
        return [[field.name, text === "" || Number.isNaN(Date.parse(text)) ? text : new Date(text).toISOString()]]
      }
      return [[field.name, text]]
    })
  )

const inputKind = { text: "text", url: "url", year: "text", number: "number", datetime: "datetime" } as const
const placeholders: Partial<Record<FieldSpec["kind"], string>> = { url: "https://", year: "2021" }

/** The fields whose controls are not a text input: a list, an image, a choice. */
const SpecialField = ({ field }: { readonly field: FieldSpec }) => {
  const contract = useContractFormContext()
  const { field: value } = useController({ name: field.name, control: contract.form.control })
  const view = contract.field(field.name, field.label, { required: field.required === true, ...(field.kind === "list" ? { hint: t.listHint } : {}) })
  switch (field.kind) {
    case "list":
      return <ChipsInput view={view} values={(value.value as ReadonlyArray<string> | undefined) ?? []} onChange={value.onChange} inputRef={value.ref} />
    case "image":
      return (
        <FeaturedImageField
          view={view}
          type="events"
          upload={(...args) => uploadImage(...args)}
          value={String(value.value ?? "")}
          onChange={value.onChange}
          inputRef={value.ref}
        />
      )
    default:
      return (
        <FormField name={field.name} label={field.label} required={field.required === true}>
          {(control) => (
            <select
              {...control}
              className="native-select"
              ref={value.ref}
              name={value.name}
              value={String(value.value ?? "")}
              onChange={(event) => value.onChange(event.target.value)}
              onBlur={value.onBlur}
            >
              {(field.options ?? []).map((option) => (
                <option key={option} value={option}>
                  {optionLabel(option)}
                </option>
              ))}
            </select>
          )}
        </FormField>
      )
  }
}

const QueueFormBody = ({
  kind,
  record,
  onClose,
  onSaved
}: {
  readonly kind: QueueKind
  readonly record: QueueRow | null
  readonly onClose: () => void
  readonly onSaved: () => void
}) => {
  // The version the person opened the form at, counting their own changes to it still on their way:
  // the keys pressed on the record before its form (`a`, then `e`) reach the server first.
  const expected = useExpectedVersion(LISTING_KIND, record)
  const contract = useContractForm<FormValues, Readonly<Record<string, unknown>>>({
    values: valuesOf(kind.fields, record),
    schema: kind.schema,
    ...(kind.rules === undefined ? {} : { rules: kind.rules }),
    toPayload: (values) => payloadOf(kind.fields, values, record),
    send: (payload, _intent, as) => kind.save(record === null ? null : { ...record, version: expected }, payload, as),
    ...(record === null ? {} : { record: { kind: LISTING_KIND, id: record._id, label: record.name, opened: record } }),
    saved: onSaved,
    kept: onClose,
    failed: t.saveFailed
  })
  const requiredNames = kind.fields.filter((field) => field.required === true).map((field) => field.label)
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !contract.busy && onClose()}>
      <Dialog.Content maxWidth="560px">
        <Dialog.Title>{record === null ? kind.add : kind.editTitle}</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          {t.requiredFields(requiredNames)}
        </Dialog.Description>
        <ContractFormShell form={contract}>
          <Flex direction="column" gap="3" mt="3">
            {kind.fields.map((field) =>
              field.kind === "list" || field.kind === "image" || field.kind === "select" ? (
                <SpecialField key={field.name} field={field} />
              ) : (
                <TextInput
                  key={field.name}
                  name={field.name}
                  label={field.label}
                  required={field.required === true}
                  multiline={field.kind === "textarea"}
                  kind={field.kind === "textarea" ? "text" : inputKind[field.kind]}
                  {...(placeholders[field.kind] === undefined ? {} : { placeholder: placeholders[field.kind] })}
                />
              )
            )}
            <FormBanner />
            <Flex gap="3" justify="end">
              {record !== null && <HistoryButton kind="listing" id={record._id} label={record.name} disabled={contract.busy} />}
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray" disabled={contract.busy}>
                  {t.cancel}
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={contract.busy}>
                {contract.busy ? t.saving : t.save}
              </Button>
            </Flex>
          </Flex>
        </ContractFormShell>
      </Dialog.Content>
    </Dialog.Root>
  )
}

/**
 * The add/edit dialog of a queue screen, its fields from the kind's list, on the one form
 * pattern: checked against the kind's contract schema before anything is sent, each problem
 * under its field (docs/architecture.md, "Forms"). A new form for every record opened.
 */
export const QueueForm = ({
  open,
  kind,
  onClose,
  onSaved
}: {
  /** The record being edited (null: a new one), or undefined when the dialog is closed. */
  readonly open: QueueRow | null | undefined
  readonly kind: QueueKind
  /** For image uploads. */
  readonly onClose: () => void
  readonly onSaved: () => void
}) => (open === undefined ? null : <QueueFormBody key={open?._id ?? "new"} kind={kind} record={open} onClose={onClose} onSaved={onSaved} />)
