import { useLayoutEffect, useRef, useState } from "react"

/**
 * Whether a list's table fits its box (docs/architecture.md, "The list pattern"). A table wider
 * than its box scrolls inside it with the row buttons off-screen (the blog's 930 px table in a
 * 334 px phone), so it is shown as cards instead, until the box is as wide as the table needed.
 * Judged before the browser paints: a phone never sees the table. `rows` are the rows shown: new
 * ones may need another width.
 *
 * When the view changes under the focused row (arrival on a phone, a turned phone), the focus
 * falls to the page; the current row of the new view takes it, as the list keys expect.
 */
export const useTableFits = (rows: unknown) => {
  const box = useRef<HTMLDivElement | null>(null)
  const scroller = useRef<HTMLDivElement | null>(null)
  const needed = useRef(0)
  const [fits, setFits] = useState(true)

  useLayoutEffect(() => {
    const element = box.current
    if (element === null) return
    const judge = () => {
      const table = scroller.current
      if (table !== null && table.isConnected) {
        if (table.scrollWidth <= table.clientWidth) return
        needed.current = table.scrollWidth
        setFits(false)
      } else if (element.clientWidth >= needed.current) setFits(true)
    }
    judge()
    const observer = new ResizeObserver(judge)
    observer.observe(element)
    return () => observer.disconnect()
  }, [rows, fits])

  const shown = useRef(fits)
  useLayoutEffect(() => {
    if (shown.current === fits) return
    shown.current = fits
    if (document.activeElement !== null && document.activeElement !== document.body) return
    box.current?.querySelector<HTMLElement>("[data-current='true']")?.focus()
  }, [fits])

  return { box, scroller, fits }
}
