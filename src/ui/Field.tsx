import { Flex, Text } from "@radix-ui/themes"
import type { ReactNode } from "react"

/** A form field: its label, the control, a hint, and the error (announced) when there is one. */
export const Field = ({ label, htmlFor, error, hint, children }: {
  readonly label: string
  readonly htmlFor?: string
  readonly error?: string | undefined
  readonly hint?: string
  readonly children: ReactNode
}) => (
  <Flex direction="column" gap="1">
    <Text as="label" htmlFor={htmlFor} size="2" weight="medium">{label}</Text>
    {children}
    {hint !== undefined && <Text size="1" color="gray">{hint}</Text>}
    {error !== undefined && <Text id={htmlFor === undefined ? undefined : `${htmlFor}-error`} size="1" color="red" role="alert">{error}</Text>}
  </Flex>
)
