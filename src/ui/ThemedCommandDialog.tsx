import { Command as Cmdk } from "cmdk"
import { type ComponentProps, useLayoutEffect, useRef } from "react"
import "./command-dialog.css"

type CommandDialogProps = Omit<ComponentProps<typeof Cmdk>, "label"> & {
  readonly open: boolean
  readonly onOpenChange: (open: boolean) => void
  /** The dialog's accessible name, and the hidden label of its input. */
  readonly label: string
}

/**
 * A cmdk list in the browser's own modal `<dialog>`, rendered where it is used (inside the
 * Radix theme root, so it gets the theme's colours and fonts), with the palette's look. The
 * palette and "find" dialogs are both this. The native dialog makes the rest of the page inert
 * and sits in the top layer without a scroll lock: Radix's dialog sets a custom property on
 * `<body>` to lock scrolling, which restyles every element of the page twice per open, ~40 ms
 * of a palette open on the reference machine (docs/architecture.md, "Interactions").
 */
export const ThemedCommandDialog = ({ open, ...props }: CommandDialogProps) => (open ? <OpenCommandDialog {...props} /> : null)

const OpenCommandDialog = ({ onOpenChange, label, children, ...props }: Omit<CommandDialogProps, "open">) => {
  const dialog = useRef<HTMLDialogElement>(null)
  useLayoutEffect(() => {
    const element = dialog.current
    if (element === null) return
    const before = document.activeElement
    element.showModal()
    element.querySelector<HTMLElement>("[cmdk-input]")?.focus()
    return () => {
      element.close()
      // Focus goes back where it was, unless something else took it meanwhile.
      const focus = document.activeElement
      if ((focus === null || focus === document.body || element.contains(focus)) && before instanceof HTMLElement && before.isConnected) before.focus()
    }
  }, [])
  return (
    <dialog
      ref={dialog}
      className="palette"
      aria-label={label}
      // Escape: the browser asks first (cancel), and may close without asking (close).
      onCancel={(event) => {
        event.preventDefault()
        onOpenChange(false)
      }}
      onClose={() => onOpenChange(false)}
      // The dialog is all content; a click on the dialog element itself is on its backdrop.
      onClick={(event) => event.target === event.currentTarget && onOpenChange(false)}
    >
      <Cmdk label={label} {...props}>{children}</Cmdk>
    </dialog>
  )
}
