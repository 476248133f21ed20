import { Command as Cmdk } from "cmdk"
import { type ComponentProps, useLayoutEffect, useRef, useState } from "react"
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
 * `<body>` to lock scrolling, which restyles every element of the page twice per open (the
 * figures: docs/architecture.md, "Interactions").
 *
 * It is made at its first open and then stays in the page, closed (a closed `<dialog>` is not
 * displayed, nor in the accessibility tree): opening it again shows what is there and updates
 * it, where making its items again was most of an open's script.
 */
export const ThemedCommandDialog = ({ open, ...props }: CommandDialogProps) => {
  const [made, setMade] = useState(open)
  if (open && !made) setMade(true)
  return made ? <CommandDialog open={open} {...props} /> : null
}

const CommandDialog = ({ open, onOpenChange, label, children, ...props }: CommandDialogProps) => {
  const dialog = useRef<HTMLDialogElement>(null)
  useLayoutEffect(() => {
    const element = dialog.current
    if (element === null || !open) return
    const before = document.activeElement
    const input = element.querySelector<HTMLElement>("[cmdk-input]")
    // `showModal` focuses the input itself: a `focus()` after it restyled the page once more.
    input?.setAttribute("autofocus", "")
    element.showModal()
    // Each open starts on the first item, wherever the last one was left: cmdk has no call for
    // it, Home is its key for it.
    input?.dispatchEvent(new KeyboardEvent("keydown", { key: "Home", bubbles: true, cancelable: true }))
    return () => {
      element.close()
      // Focus goes back where it was, unless something else took it meanwhile.
      const focus = document.activeElement
      if ((focus === null || focus === document.body || element.contains(focus)) && before instanceof HTMLElement && before.isConnected) before.focus()
    }
  }, [open])
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
      // The close event comes a task later: a dialog opened again meanwhile stays open.
      onClose={(event) => event.currentTarget.open || onOpenChange(false)}
      // The dialog is all content; a click on the dialog element itself is on its backdrop.
      onClick={(event) => event.target === event.currentTarget && onOpenChange(false)}
    >
      <Cmdk label={label} {...props}>
        {children}
      </Cmdk>
    </dialog>
  )
}
