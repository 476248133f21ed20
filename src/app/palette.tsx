import { Kbd } from "@radix-ui/themes"
import { Command as Cmdk } from "cmdk"
import { memo, useCallback, useState } from "react"
import { type Command, shortcutLabel, useLegalCommands, usePalette } from "../lib/commands.tsx"
import { ThemedCommandDialog } from "../ui/ThemedCommandDialog.tsx"

/** The shell's commands that go to another screen (src/app/shell-commands.ts). */
const NAVIGATE = "navigate:"

const groupsOf = (commands: ReadonlyArray<Command>) => {
  const groups = new Map<string, Array<Command>>()
  for (const command of commands) groups.set(command.group, [...(groups.get(command.group) ?? []), command])
  return [...groups.entries()]
}

/**
 * The commands matching `search`, best first; at an equal match what acts on the current row
 * first ("convert" finds "Mark Converted" before "Show converted inquiries"), then what the
 * screen does before going to another screen ("scam" on the desk finds "Show scam reports on the
 * desk" before "Go to Scam Reports"); groups follow their best command.
 */
export const ranked = (commands: ReadonlyArray<Command>, search: string): ReadonlyArray<Command> =>
  commands
    .map((command, index) => ({
      command,
      index,
      score: scoreCommand(command.label, search, command.keywords),
      current: command.onCurrent === true ? 1 : 0,
      // With nothing typed, the order stays the registered one (the screens first, as in the sidebar).
      here: command.id.startsWith(NAVIGATE) && search.trim() !== "" ? 0 : 1
    }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || b.current - a.current || b.here - a.here || a.index - b.index)
    .map((entry) => entry.command)

/**
 * Ranks a command for what was typed: the label starting with it, then containing it, then
 * every typed word somewhere in label or keywords, then the letters in order.
 */
export const scoreCommand = (value: string, search: string, keywords: ReadonlyArray<string> = []): number => {
  const query = search.trim().toLowerCase()
  if (query === "") return 1
  const label = value.toLowerCase()
  if (label.startsWith(query)) return 1
  if (label.includes(query)) return 0.9
  const haystack = [label, ...keywords].join(" ").toLowerCase()
  if (query.split(/\s+/).every((word) => haystack.includes(word))) return 0.7
  let matched = 0
  for (const char of label) if (char === query[matched]) matched++
  return matched === query.length ? 0.3 : 0
}

/** One command; the same command and `onRun` render nothing again (most of an open's updates). */
const PaletteItem = memo(({ command, onRun }: { readonly command: Command; readonly onRun: (command: Command) => void }) => (
  <Cmdk.Item value={command.id} className="palette-item" onSelect={() => onRun(command)}>
    <span>{command.label}</span>
    {command.shortcut !== undefined && <Kbd size="1">{shortcutLabel(command.shortcut)}</Kbd>}
  </Cmdk.Item>
))

/** The palette's list: it follows the registered commands only while the palette is open. */
const PaletteItems = ({ live, search, onRun }: { readonly live: boolean; readonly search: string; readonly onRun: (command: Command) => void }) => {
  const commands = ranked(useLegalCommands(live), search)
  return (
    <>
      {groupsOf(commands).map(([group, items]) => (
        <Cmdk.Group key={group} heading={group} className="palette-group">
          {items.map((command) => (
            <PaletteItem key={command.id} command={command} onRun={onRun} />
          ))}
        </Cmdk.Group>
      ))}
    </>
  )
}

/**
 * The command palette: the legal commands, grouped, fuzzy-searched; Enter runs, Escape closes.
 * Once opened it stays in the page, closed (`ThemedCommandDialog`): the next open updates its
 * items rather than making them again. While closed it follows nothing, so screens registering
 * commands cost it nothing.
 */
export const CommandPalette = () => {
  const { open, setOpen } = usePalette()
  const [search, setSearch] = useState("")
  const openChange = useCallback(
    (next: boolean) => {
      if (!next) setSearch("")
      setOpen(next)
    },
    [setOpen]
  )
  const run = useCallback(
    (command: Command) => {
      openChange(false)
      command.run()
    },
    [openChange]
  )
  return (
    <ThemedCommandDialog open={open} onOpenChange={openChange} label="Command palette" shouldFilter={false}>
      <Cmdk.Input value={search} onValueChange={setSearch} placeholder="Type a command or search…" className="palette-input" />
      <Cmdk.List className="palette-list">
        <Cmdk.Empty className="palette-empty">No matching commands</Cmdk.Empty>
        <PaletteItems live={open} search={search} onRun={run} />
      </Cmdk.List>
    </ThemedCommandDialog>
  )
}
