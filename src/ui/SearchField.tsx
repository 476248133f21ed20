import { MagnifyingGlassIcon } from "@radix-ui/react-icons"
import { Box, Spinner, TextField } from "@radix-ui/themes"

/** A list's search box, with a spinner while a search it started is loading. */
export const SearchField = ({ label, placeholder, value, onChange, busy }: {
  readonly label: string
  readonly placeholder: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly busy: boolean
}) => (
  <Box flexGrow="1" maxWidth="420px">
    <TextField.Root type="search" aria-label={label} placeholder={placeholder} value={value} onChange={(event) => onChange(event.target.value)}>
      <TextField.Slot><MagnifyingGlassIcon /></TextField.Slot>
      {busy && <TextField.Slot><Spinner size="1" /></TextField.Slot>}
    </TextField.Root>
  </Box>
)
