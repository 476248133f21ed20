import { Flex, Spinner, Text } from "@radix-ui/themes"

export const FullPageSpinner = ({ label }: { readonly label: string }) => (
  <Flex role="status" aria-live="polite" align="center" justify="center" gap="3" style={{ minHeight: "100vh" }}>
    <Spinner size="3" />
    <Text color="gray">{label}</Text>
  </Flex>
)
