import { Callout, Flex, Text } from "@radix-ui/themes"
import type { ReactNode } from "react"
import type { FieldView } from "../lib/form/words.ts"

type Control = FieldView["control"]

/**
 * One field of the one form pattern (docs/architecture.md, "Forms"): the label, the control,
 * a hint, and the problem under it in the label's words, which the control names with
 * `aria-describedby` and marks with `aria-invalid`. Free of the form library, so the sign-in
 * form and the blog editor (whose values machines hold) show their fields the same way.
 */
export const FieldFrame = ({ view, children }: { readonly view: FieldView; readonly children: ReactNode | ((control: Control) => ReactNode) }) => (
  <Flex direction="column" gap="1">
    {/* The mark of a required field sits beside the label, not in it: the field's name is its label alone. */}
    <Text as="div" size="2" weight="medium">
      <label htmlFor={view.id}>{view.label}</label>
      {view.required && (
        <Text color="red" aria-hidden="true">
          {" "}
          *
        </Text>
      )}
    </Text>
    {typeof children === "function" ? children(view.control) : children}
    {view.hint !== undefined && (
      <Text id={`${view.id}-hint`} size="1" color="gray">
        {view.hint}
      </Text>
    )}
    {view.error !== undefined && (
      <Text id={`${view.id}-error`} size="1" color="red" weight="medium">
        {view.error}
      </Text>
    )}
  </Flex>
)

/** A form's banner: a refusal no field owns. The focus rule scrolls it into view. */
export const BannerView = ({ message }: { readonly message: string | null }) =>
  message === null ? null : (
    <Callout.Root color="red" role="alert" size="1" data-form-banner="">
      <Callout.Text>{message}</Callout.Text>
    </Callout.Root>
  )
