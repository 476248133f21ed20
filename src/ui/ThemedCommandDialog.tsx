import { Command as Cmdk } from "cmdk"
import { type ComponentProps, useState } from "react"
import "./command-dialog.css"

/**
 * A cmdk dialog portalled inside the Radix theme root (so it gets the theme's colours and
 * fonts), with the palette's look. The palette and "find" dialogs are both this.
 */
export const ThemedCommandDialog = ({ children, ...props }: ComponentProps<typeof Cmdk.Dialog>) => {
  const [container, setContainer] = useState<HTMLDivElement | null>(null)
  return (
    <>
      <div ref={setContainer} />
      <Cmdk.Dialog {...props} contentClassName="palette" overlayClassName="palette-overlay" container={container ?? undefined}>
        {children}
      </Cmdk.Dialog>
    </>
  )
}
