import { Button, Callout, Flex, TextArea, TextField } from "@radix-ui/themes"
import type { ReactNode } from "react"
import type { FieldValues } from "react-hook-form"
import { type ContractForm, ContractFormContext, useContractFormContext } from "../lib/form/use-contract-form.ts"
import type { FieldView } from "../lib/form/words.ts"
import { BannerView, FieldFrame } from "./FieldFrame.tsx"

type Control = FieldView["control"]

/** A field of the form around it, by name: its control gets the pattern's id and ARIA. */
export const FormField = ({
  name,
  label,
  required,
  hint,
  children
}: {
  readonly name: string
  readonly label: string
  readonly required?: boolean
  readonly hint?: string
  readonly children: (control: Control) => ReactNode
}) => {
  const form = useContractFormContext()
  return (
    <FieldFrame view={form.field(name, label, { ...(required === undefined ? {} : { required }), ...(hint === undefined ? {} : { hint }) })}>
      {children}
    </FieldFrame>
  )
}

const inputTypes = { text: "text", url: "url", email: "email", number: "text", datetime: "datetime-local", password: "password" } as const

/**
 * A text field of the form around it. Numbers are typed as text (with a numeric keyboard): the
 * contract says what is wrong with "12abc", where a number input would silently hold nothing.
 */
export const TextInput = ({
  name,
  label,
  kind = "text",
  required,
  hint,
  placeholder,
  multiline,
  autoFocus,
  autoComplete,
  disabled
}: {
  readonly name: string
  readonly label: string
  readonly kind?: keyof typeof inputTypes
  readonly required?: boolean
  readonly hint?: string
  readonly placeholder?: string
  readonly multiline?: boolean
  readonly autoFocus?: boolean
  readonly autoComplete?: string
  readonly disabled?: boolean
}) => {
  const { form } = useContractFormContext()
  return (
    <FormField name={name} label={label} {...(required === undefined ? {} : { required })} {...(hint === undefined ? {} : { hint })}>
      {(control) =>
        multiline === true ? (
          <TextArea {...control} rows={4} placeholder={placeholder} autoFocus={autoFocus} disabled={disabled} {...form.register(name)} />
        ) : (
          <TextField.Root
            {...control}
            type={inputTypes[kind]}
            inputMode={kind === "number" ? "numeric" : undefined}
            placeholder={placeholder}
            autoFocus={autoFocus}
            autoComplete={autoComplete}
            disabled={disabled}
            {...form.register(name)}
          />
        )
      }
    </FormField>
  )
}

/** The form's banner: a refusal no field owns. Scrolled into view when it appears. */
export const FormBanner = () => <BannerView message={useContractFormContext().banner} />

/**
 * A refusal that a machine's call brought back (`useRefusal`): its message as an alert unless
 * every problem it named is shown under its field, then the form's own banner.
 */
export const MachineRefusal = ({
  error,
  issues,
  stray
}: {
  readonly error: string | null
  readonly issues: ReadonlyArray<unknown>
  readonly stray: ReadonlyArray<unknown>
}) => (
  <>
    {error !== null && (issues.length === 0 || stray.length > 0) && (
      <Callout.Root color="red" role="alert" mt="3">
        <Callout.Text>{error}</Callout.Text>
      </Callout.Root>
    )}
    <Flex direction="column" mt="3">
      <FormBanner />
    </Flex>
  </>
)

/**
 * The foot of a toggled form (docs/architecture.md, "Forms"): the form's banner, then its submit
 * and Cancel buttons, both held while it saves.
 */
export const FormActions = ({
  busy,
  submit,
  cancel,
  onCancel
}: {
  readonly busy: boolean
  readonly submit: string
  readonly cancel: string
  readonly onCancel: () => void
}) => (
  <>
    <Flex direction="column" mt="3">
      <FormBanner />
    </Flex>
    <Flex gap="3" mt="4">
      <Button type="submit" disabled={busy}>
        {submit}
      </Button>
      <Button type="button" variant="soft" color="gray" disabled={busy} onClick={onCancel}>
        {cancel}
      </Button>
    </Flex>
  </>
)

/** The <form> of the pattern, giving its fields their form. */
export const ContractFormShell = <Values extends FieldValues>({
  form,
  label,
  children
}: {
  readonly form: ContractForm<Values>
  readonly label?: string
  readonly children: ReactNode
}) => (
  <ContractFormContext.Provider value={form as unknown as ContractForm<FieldValues>}>
    <form {...form.formProps} aria-label={label}>
      {children}
    </form>
  </ContractFormContext.Provider>
)
