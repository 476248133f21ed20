import { Callout, Flex, Text, TextArea, TextField } from "@radix-ui/themes"
import type { ReactNode } from "react"
import type { FieldValues } from "react-hook-form"
import { type ContractForm, ContractFormContext, useContractFormContext } from "../lib/form/use-contract-form.ts"
import type { FieldView } from "../lib/form/words.ts"

type Control = FieldView["control"]

/**
 * One field of the one form pattern (docs/architecture.md, "Forms"): the label, the control,
 * a hint, and the problem under it in the label's words, which the control names with
 * `aria-describedby` and marks with `aria-invalid`.
 */
export const FieldFrame = ({ view, children }: { readonly view: FieldView; readonly children: ReactNode | ((control: Control) => ReactNode) }) => (
  <Flex direction="column" gap="1">
    <Text as="label" htmlFor={view.id} size="2" weight="medium">
      {view.label}{view.required && <Text color="red" aria-hidden="true"> *</Text>}
    </Text>
    {typeof children === "function" ? children(view.control) : children}
    {view.hint !== undefined && <Text id={`${view.id}-hint`} size="1" color="gray">{view.hint}</Text>}
    {view.error !== undefined && <Text id={`${view.id}-error`} size="1" color="red" weight="medium">{view.error}</Text>}
  </Flex>
)

/** A field of the form around it, by name: its control gets the pattern's id and ARIA. */
export const FormField = ({ name, label, required, hint, children }: {
  readonly name: string
  readonly label: string
  readonly required?: boolean
  readonly hint?: string
  readonly children: (control: Control) => ReactNode
}) => {
  const form = useContractFormContext()
  return <FieldFrame view={form.field(name, label, { ...(required === undefined ? {} : { required }), ...(hint === undefined ? {} : { hint }) })}>{children}</FieldFrame>
}

const inputTypes = { text: "text", url: "url", email: "email", number: "text", datetime: "datetime-local", password: "password" } as const

/**
 * A text field of the form around it. Numbers are typed as text (with a numeric keyboard): the
 * contract says what is wrong with "12abc", where a number input would silently hold nothing.
 */
export const TextInput = ({ name, label, kind = "text", required, hint, placeholder, multiline, autoFocus, autoComplete, disabled }: {
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
      {(control) => multiline === true
        ? <TextArea {...control} rows={4} placeholder={placeholder} autoFocus={autoFocus} disabled={disabled} {...form.register(name)} />
        : <TextField.Root {...control} type={inputTypes[kind]} inputMode={kind === "number" ? "numeric" : undefined} placeholder={placeholder}
            autoFocus={autoFocus} autoComplete={autoComplete} disabled={disabled} {...form.register(name)} />}
    </FormField>
  )
}

/** The form's banner: a refusal no field owns. Scrolled into view when it appears. */
export const FormBanner = () => {
  const { banner } = useContractFormContext()
  return banner === null ? null : (
    <Callout.Root color="red" role="alert" size="1" data-form-banner="">
      <Callout.Text>{banner}</Callout.Text>
    </Callout.Root>
  )
}

/** The <form> of the pattern, giving its fields their form. */
export const ContractFormShell = <Values extends FieldValues>({ form, label, children }: {
  readonly form: ContractForm<Values>
  readonly label?: string
  readonly children: ReactNode
}) => (
  <ContractFormContext.Provider value={form as unknown as ContractForm<FieldValues>}>
    <form {...form.formProps} aria-label={label}>{children}</form>
  </ContractFormContext.Provider>
)
