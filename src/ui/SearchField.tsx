import { MagnifyingGlassIcon } from "@radix-ui/react-icons"
import { Box, Spinner, TextField } from "@radix-ui/themes"
import type { RefObject } from "react"

/**
 * A list's search box, with a spinner while a search it started is loading. Escape gives the
 * keyboard back to the rows (`onEscape`); the list's `s` puts the cursor here (`inputRef`).
 */
export const SearchField = ({
  label,
  placeholder,
  value,
  onChange,
  busy,
  inputRef,
  onEscape,
  maxLength
}: {
  readonly label: string
  readonly placeholder: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly busy: boolean
  readonly inputRef?: RefObject<HTMLInputElement | null>
  readonly onEscape?: () => void
  readonly maxLength?: number
}) => (
  <Box flexGrow="1" maxWidth="420px" minWidth="180px">
    <TextField.Root
      ref={inputRef}
      type="search"
      aria-label={label}
      placeholder={placeholder}
      value={value}
      maxLength={maxLength}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={(event) => {
        if (event.key !== "Escape" || onEscape === undefined) return
        // A search box's own Escape would empty it: here it leaves it, and keeps what was typed.
        event.preventDefault()
        onEscape()
      }}
    >
      <TextField.Slot>
        <MagnifyingGlassIcon />
      </TextField.Slot>
      {busy && (
        <TextField.Slot>
          <Spinner size="1" />
        </TextField.Slot>
      )}
    </TextField.Root>
  </Box>
)
