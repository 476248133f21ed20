import { useMemo } from "react"
import { useLocation } from "wouter"
import { useEditorRefusal } from "../lib/auth.tsx"
import { type Command, withRefusal } from "../lib/commands.tsx"
import { newRecordIntent } from "../lib/paths.ts"
import { destinations, paletteDestinations } from "./navigation.ts"
import type { ThemeState } from "../lib/theme.tsx"

/** The shell's own commands: one per screen, the theme toggle, and logout. */
export const useShellCommands = (options: { readonly theme: ThemeState; readonly logout: () => void }): ReadonlyArray<Command> => {
  const [location, navigate] = useLocation()
  const refusal = useEditorRefusal()
  const {
    theme: { appearance, preference, toggle: toggleTheme, setPreference },
    logout
  } = options
  return useMemo(
    () => [
      // The sidebar shows the commands with an address; the screens beyond it are palette-only.
      ...[...destinations.map((destination) => [destination, true] as const), ...paletteDestinations.map((destination) => [destination, false] as const)].map(
        ([destination, inSidebar]): Command => ({
          id: `navigate:${destination.path}`,
          label: `Go to ${destination.label}`,
          group: "Navigation",
          shortcut: ["g", destination.key],
          keywords: [destination.title, destination.path],
          ...(inSidebar ? { href: destination.path, sidebarLabel: destination.label, icon: destination.icon } : {}),
          run: () => navigate(destination.path)
        })
      ),
      ...withRefusal<Command>(refusal("add posts"), [
        {
          id: "blog:new",
          label: "New post",
          group: "Blog",
          keywords: ["write", "add", "create", "article"],
          // On the blog screens, the screen's own "New post" (with its shortcut) is offered instead.
          guard: () => !location.startsWith("/blog"),
          run: () => navigate("/blog/new")
        }
      ]),
      ...(
        [
          ["/events", "event"],
          ["/hackathons", "hackathon"]
        ] as const
      ).flatMap(([path, noun]) =>
        withRefusal<Command>(refusal(`add ${noun}s`), [
          {
            id: `${noun}:new`,
            label: `New ${noun}`,
            group: noun === "event" ? "Events" : "Hackathons",
            keywords: ["add", "create"],
            // On its own screen, the screen's "New event" (or hackathon) is offered instead.
            guard: () => location !== path,
            // The queue's screen opens its form (src/lib/intents.ts, loaded with the screens).
            run: () =>
              void import("../lib/intents.ts").then(({ ask }) => {
                ask(newRecordIntent(noun))
                navigate(path)
              })
          }
        ])
      ),
      {
        id: "theme:toggle",
        label: appearance === "dark" ? "Switch to light mode" : "Switch to dark mode",
        group: "Preferences",
        keywords: ["theme", "dark", "light", "appearance"],
        run: toggleTheme
      },
      {
        id: "theme:system",
        label: "Follow the system theme",
        group: "Preferences",
        keywords: ["theme", "auto", "os"],
        guard: () => preference !== "system",
        run: () => setPreference("system")
      },
      { id: "session:logout", label: "Log out", group: "Session", keywords: ["sign out", "logout"], run: logout }
    ],
    [location, navigate, appearance, preference, toggleTheme, setPreference, logout, refusal]
  )
}
