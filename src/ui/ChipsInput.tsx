import { Cross2Icon, PlusIcon } from "@radix-ui/react-icons"
import { Badge, Box, Button, Flex, IconButton, TextField } from "@radix-ui/themes"
import { type Ref, useState } from "react"
import { cleanList } from "../../contract/blog-rules.ts"
import type { FieldView } from "../lib/form/words.ts"
import { FieldFrame } from "./FieldFrame.tsx"

/** The words of the chip input; "Add" is the spec's button beside tag and keyword inputs. */
export const chipTexts = {
  add: "Add",
  remove: (what: string) => `Remove ${what}`
} as const

export /** A list of short texts (tags, keywords): Enter, a comma or "Add" adds; × or Backspace removes. */
const ChipsInput = ({
  view,
  values,
  onChange,
  suggestions,
  inputRef
}: {
  /** The field's label, hint and problem (src/lib/form/words.ts). */
  readonly view: FieldView
  readonly values: ReadonlyArray<string>
  readonly onChange: (values: ReadonlyArray<string>) => void
  readonly suggestions?: ReadonlyArray<string>
  /** Where the form pattern moves the focus to when the list is refused. */
  readonly inputRef?: Ref<HTMLInputElement>
}) => {
  const id = view.id
  const [text, setText] = useState("")
  const add = (raw: string) => {
    const next = cleanList([...values, ...raw.split(",")])
    if (next.length !== values.length) onChange(next)
    setText("")
  }
  return (
    <FieldFrame view={view}>
      <Flex gap="1" wrap="wrap">
        {values.map((value) => (
          <Badge key={value} size="2" variant="soft">
            {value}
            <IconButton size="1" variant="ghost" aria-label={chipTexts.remove(value)} onClick={() => onChange(values.filter((v) => v !== value))}>
              <Cross2Icon />
            </IconButton>
          </Badge>
        ))}
      </Flex>
      <Flex gap="2">
        <Box flexGrow="1">
          <TextField.Root
            {...view.control}
            ref={inputRef}
            value={text}
            list={suggestions === undefined ? undefined : `${id}-suggestions`}
            onChange={(event) => (event.target.value.includes(",") ? add(event.target.value) : setText(event.target.value))}
            onBlur={() => text.trim() !== "" && add(text)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault()
                add(text)
              } else if (event.key === "Backspace" && text === "" && values.length > 0) {
                onChange(values.slice(0, -1))
              }
            }}
          />
        </Box>
        <Button type="button" variant="soft" disabled={text.trim() === ""} onMouseDown={(event) => event.preventDefault()} onClick={() => add(text)}>
          <PlusIcon /> {chipTexts.add}
        </Button>
      </Flex>
      {suggestions !== undefined && (
        <datalist id={`${id}-suggestions`}>
          {suggestions
            .filter((s) => !values.includes(s))
            .map((s) => (
              <option key={s} value={s} />
            ))}
        </datalist>
      )}
    </FieldFrame>
  )
}
