import { useCallback, useEffect, useRef, useState } from "react"

export const SEARCH_DELAY_MS = 250

/**
 * The search box's text: what the person types shows at once, and reaches the URL (and so the
 * list) once typing pauses. The pause is timed from the keystroke itself, not from the render
 * that shows it (which would add that render to every search). A new search in the URL
 * (back/forward, a link) replaces the text.
 */
export const useDebouncedSearch = (search: string, apply: (text: string) => void) => {
  const [text, setText] = useState(search)
  const latest = useRef({ search, apply })
  latest.current = { search, apply }
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => {
    setText((current) => (current.trim() === search.trim() ? current : search))
  }, [search])
  useEffect(() => () => clearTimeout(timer.current), [])
  const change = useCallback((next: string) => {
    setText(next)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      if (next.trim() !== latest.current.search.trim()) latest.current.apply(next.trim())
    }, SEARCH_DELAY_MS)
  }, [])
  return [text, change] as const
}
