import { Theme } from "@radix-ui/themes"
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react"

export type ThemePreference = "light" | "dark" | "system"
export const THEME_KEY = "theme"

const readPreference = (): ThemePreference => {
  const stored = globalThis.localStorage?.getItem(THEME_KEY)
  return stored === "light" || stored === "dark" || stored === "system" ? stored : "system"
}

const systemDark = () => globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false

export interface ThemeState {
  readonly preference: ThemePreference
  readonly appearance: "light" | "dark"
  readonly setPreference: (preference: ThemePreference) => void
  /** Light ↔ dark, from whatever is showing now. */
  readonly toggle: () => void
}

const ThemeContext = createContext<ThemeState | null>(null)

/** Light, dark or system (the default), kept under `theme`; while on system it follows the OS. */
export const ThemeProvider = ({ children }: { readonly children: ReactNode }) => {
  const [preference, setPreferenceState] = useState(readPreference)
  const [osDark, setOsDark] = useState(systemDark)
  useEffect(() => {
    const query = globalThis.matchMedia?.("(prefers-color-scheme: dark)")
    const listen = (event: MediaQueryListEvent) => setOsDark(event.matches)
    query?.addEventListener("change", listen)
    return () => query?.removeEventListener("change", listen)
  }, [])
  const appearance = preference === "system" ? (osDark ? "dark" : "light") : preference
  const setPreference = useCallback((next: ThemePreference) => {
    localStorage.setItem(THEME_KEY, next)
    setPreferenceState(next)
  }, [])
  const toggle = useCallback(() => setPreference(appearance === "dark" ? "light" : "dark"), [appearance, setPreference])
  useEffect(() => {
    document.documentElement.style.colorScheme = appearance
  }, [appearance])
  const value = useMemo(() => ({ preference, appearance, setPreference, toggle }), [preference, appearance, setPreference, toggle])
  // Solid panels: Radix's default translucent ones (tables, cards) blur what is behind them
  // (`backdrop-filter: blur(64px)`), and where the browser composites in software that blur was
  // most of every frame that redrew a list (docs/architecture.md, "Interactions"). Behind
  // them is the page's plain background, so the blur showed nothing.
  return (
    <ThemeContext.Provider value={value}>
      <Theme appearance={appearance} accentColor="violet" grayColor="slate" radius="medium" panelBackground="solid">
        {children}
      </Theme>
    </ThemeContext.Provider>
  )
}

export const useTheme = (): ThemeState => {
  const state = useContext(ThemeContext)
  if (state === null) throw new Error("useTheme outside ThemeProvider")
  return state
}
