import { useEffect, useState } from "react"

export const SEARCH_DELAY_MS = 250

/**
 * The search box's text: what the person types shows at once, and reaches the URL (and so the
 * list) once typing pauses. A new search in the URL (back/forward, a link) replaces the text.
 */
export const useDebouncedSearch = (search: string, apply: (text: string) => void) => {
  const [text, setText] = useState(search)
  useEffect(() => {
    setText((current) => (current.trim() === search.trim() ? current : search))
  }, [search])
  useEffect(() => {
    if (text.trim() === search.trim()) return
    const timer = setTimeout(() => apply(text.trim()), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [text, search])
  return [text, setText] as const
}
