import { Kbd } from "@radix-ui/themes"
import { Command as Cmdk } from "cmdk"
import { useState } from "react"
import { type Command, shortcutLabel, useLegalCommands, usePalette } from "./commands.tsx"
import "./palette.css"

const groupsOf = (commands: ReadonlyArray<Command>) => {
  const groups = new Map<string, Array<Command>>()
  for (const command of commands) groups.set(command.group, [...(groups.get(command.group) ?? []), command])
  return [...groups.entries()]
}

/** The command palette: the legal commands, grouped, fuzzy-searched; Enter runs, Escape closes. */
export const CommandPalette = () => {
  const { open, setOpen } = usePalette()
  const commands = useLegalCommands()
  // Portalled inside the Radix theme root, so the dialog gets the theme's colours and fonts.
  const [container, setContainer] = useState<HTMLDivElement | null>(null)
  return (
    <>
    <div ref={setContainer} />
    <Cmdk.Dialog
      open={open}
      onOpenChange={setOpen}
      label="Command palette"
      contentClassName="palette"
      overlayClassName="palette-overlay"
      container={container ?? undefined}
    >
      <Cmdk.Input placeholder="Type a command or search…" className="palette-input" />
      <Cmdk.List className="palette-list">
        <Cmdk.Empty className="palette-empty">No matching commands</Cmdk.Empty>
        {groupsOf(commands).map(([group, items]) => (
          <Cmdk.Group key={group} heading={group} className="palette-group">
            {items.map((command) => (
              <Cmdk.Item
                key={command.id}
                value={`${command.label} ${command.id}`}
                keywords={[...(command.keywords ?? [])]}
                className="palette-item"
                onSelect={() => {
                  setOpen(false)
                  command.run()
                }}
              >
                <span>{command.label}</span>
                {command.shortcut !== undefined && <Kbd size="1">{shortcutLabel(command.shortcut)}</Kbd>}
              </Cmdk.Item>
            ))}
          </Cmdk.Group>
        ))}
      </Cmdk.List>
    </Cmdk.Dialog>
    </>
  )
}
