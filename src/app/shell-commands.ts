import { useMemo } from "react"
import { useLocation } from "wouter"
import type { Command } from "./commands.tsx"
import { destinations } from "./navigation.ts"

/** The shell's own commands: one per screen, the theme toggle, and logout. */
export const useShellCommands = (options: {
  readonly appearance: "light" | "dark"
  readonly toggleTheme: () => void
  readonly logout: () => void
}): ReadonlyArray<Command> => {
  const [, navigate] = useLocation()
  const { appearance, toggleTheme, logout } = options
  return useMemo(() => [
    ...destinations.map((destination): Command => ({
      id: `navigate:${destination.path}`,
      label: `Go to ${destination.label}`,
      group: "Navigation",
      shortcut: ["g", destination.key],
      keywords: [destination.title, destination.path],
      href: destination.path,
      sidebarLabel: destination.label,
      icon: destination.icon,
      run: () => navigate(destination.path)
    })),
    {
      id: "theme:toggle",
      label: appearance === "dark" ? "Switch to light mode" : "Switch to dark mode",
      group: "Preferences",
      keywords: ["theme", "dark", "light", "appearance"],
      run: toggleTheme
    },
    { id: "session:logout", label: "Log out", group: "Session", keywords: ["sign out", "logout"], run: logout }
  ], [navigate, appearance, toggleTheme, logout])
}
