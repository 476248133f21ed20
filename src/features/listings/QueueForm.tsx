import { Button, Callout, Dialog, Flex, Text, TextArea, TextField } from "@radix-ui/themes"
import { localDateTime } from "../../../machines/local-time.ts"
import { ChipsInput } from "../../ui/ChipsInput.tsx"
import { FeaturedImageField } from "../../ui/FeaturedImageField.tsx"
import type { FieldSpec, QueueRow } from "./kinds.ts"
import { optionLabel } from "./kinds.ts"
import { listingTexts as t } from "./texts.ts"

/** What the form holds while it is open: every field as typed. */
export type FormValues = Readonly<Record<string, string | ReadonlyArray<string>>>

export interface FormState {
  readonly target: QueueRow | null
  readonly values: FormValues
  readonly busy: boolean
  readonly error: string | null
}

/** The form's values for a record (or empty ones for a new record). */
export const valuesOf = (fields: ReadonlyArray<FieldSpec>, row: QueueRow | null): FormValues =>
  Object.fromEntries(fields.map((field) => {
    const value = row?.[field.name]
    if (field.kind === "list") return [field.name, Array.isArray(value) ? value.map(String) : []]
    if (field.kind === "datetime") return [field.name, typeof value === "string" && value !== "" ? localDateTime(new Date(value)) : ""]
    return [field.name, value === undefined || value === null ? (field.kind === "select" ? field.options?.[0] ?? "" : "") : String(value)]
  }))

/** Whether every required field is filled (after trimming). */
export const isComplete = (fields: ReadonlyArray<FieldSpec>, values: FormValues) =>
  fields.every((field) => field.required !== true || (typeof values[field.name] === "string" ? String(values[field.name]).trim() !== "" : true))

/** What is sent: texts trimmed, numbers as numbers, empty numbers left out, lists as lists. */
export const payloadOf = (fields: ReadonlyArray<FieldSpec>, values: FormValues): Readonly<Record<string, unknown>> =>
  Object.fromEntries(fields.flatMap((field): ReadonlyArray<readonly [string, unknown]> => {
    const value = values[field.name]
    if (field.kind === "list") return [[field.name, value ?? []]]
    const text = String(value ?? "").trim()
    if (field.kind === "number") return text === "" ? [] : [[field.name, Number(text)]]
    if (field.kind === "datetime") return [[field.name, text === "" ? "" : new Date(text).toISOString()]]
    return [[field.name, text]]
  }))

const inputType = { text: "text", url: "url", year: "text", number: "number", datetime: "datetime-local" } as const

/** The add/edit dialog of a queue screen, its fields from the kind's list. */
export const QueueForm = ({ state, fields, title, token, onChange, onClose, onSave }: {
  readonly state: FormState | null
  /** For image uploads. */
  readonly token: string
  readonly fields: ReadonlyArray<FieldSpec>
  readonly title: string
  readonly onChange: (values: FormValues) => void
  readonly onClose: () => void
  readonly onSave: () => void
}) => {
  const values = state?.values ?? {}
  const set = (name: string, value: string | ReadonlyArray<string>) => onChange({ ...values, [name]: value })
  const requiredNames = fields.filter((field) => field.required === true).map((field) => field.label)
  return (
    <Dialog.Root open={state !== null} onOpenChange={(open) => !open && state?.busy !== true && onClose()}>
      <Dialog.Content maxWidth="560px">
        <Dialog.Title>{title}</Dialog.Title>
        <Dialog.Description size="2" color="gray">{t.requiredFields(requiredNames)}</Dialog.Description>
        <form onSubmit={(event) => { event.preventDefault(); onSave() }}>
          <Flex direction="column" gap="3" mt="3">
            {fields.map((field) => {
              const id = `queue-field-${field.name}`
              const label = <Text as="label" htmlFor={id} size="2" weight="medium" mb="1" style={{ display: "block" }}>{field.label}{field.required === true ? " *" : ""}</Text>
              switch (field.kind) {
                case "textarea":
                  return <div key={field.name}>{label}<TextArea id={id} required={field.required} rows={4} value={String(values[field.name] ?? "")} onChange={(event) => set(field.name, event.target.value)} /></div>
                case "select":
                  return (
                    <div key={field.name}>
                      {label}
                      <select id={id} className="native-select" value={String(values[field.name] ?? "")} onChange={(event) => set(field.name, event.target.value)}>
                        {(field.options ?? []).map((option) => <option key={option} value={option}>{optionLabel(option)}</option>)}
                      </select>
                    </div>
                  )
                case "image":
                  return <FeaturedImageField key={field.name} type="events" label={field.label} token={token} value={String(values[field.name] ?? "")} onChange={(next) => set(field.name, next)} />
                case "list":
                  return <ChipsInput key={field.name} id={id} label={field.label} hint={t.listHint} values={(values[field.name] as ReadonlyArray<string> | undefined) ?? []} onChange={(next) => set(field.name, next)} />
                default:
                  return (
                    <div key={field.name}>
                      {label}
                      <TextField.Root id={id} type={inputType[field.kind]} required={field.required} inputMode={field.kind === "year" ? "numeric" : undefined}
                        placeholder={field.kind === "url" ? "https://" : field.kind === "year" ? "2021" : undefined}
                        value={String(values[field.name] ?? "")} onChange={(event) => set(field.name, event.target.value)} />
                    </div>
                  )
              }
            })}
            {state?.error != null && <Callout.Root color="red" role="alert" size="1"><Callout.Text>{state.error}</Callout.Text></Callout.Root>}
            <Flex gap="3" justify="end">
              <Dialog.Close><Button type="button" variant="soft" color="gray" disabled={state?.busy === true}>{t.cancel}</Button></Dialog.Close>
              <Button type="submit" disabled={state === null || state.busy || !isComplete(fields, values)}>{state?.busy === true ? t.saving : t.save}</Button>
            </Flex>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  )
}
