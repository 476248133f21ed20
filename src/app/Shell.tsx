import { ExitIcon, HamburgerMenuIcon, MagnifyingGlassIcon, MoonIcon, SunIcon } from "@radix-ui/react-icons"
import { Box, Button, Callout, Flex, IconButton, Kbd, Separator, Text } from "@radix-ui/themes"
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react"
import { useLocation } from "wouter"
import { AuthContext } from "../lib/auth.tsx"
import { onLinkChange, useOnline } from "../lib/link.ts"
import { type Command, shortcutLabel, usePalette, useRegisterCommands } from "../lib/commands.tsx"
import { isActive } from "./navigation.ts"
import { CommandPalette } from "./palette.tsx"
import { useShellCommands } from "./shell-commands.ts"
import { useTheme } from "../lib/theme.tsx"
import { requestSignOut } from "../lib/store/handle.ts"
import "./shell.css"

const Sidebar = ({
  navigation,
  open,
  onPick,
  onLogout
}: {
  /** The shell's navigation commands: the sidebar runs the same commands the palette offers. */
  readonly navigation: ReadonlyArray<Command>
  readonly open: boolean
  readonly onPick: () => void
  readonly onLogout: () => void
}) => {
  const [location] = useLocation()
  const email = AuthContext.useSelector((snapshot) => snapshot.context.user?.email)
  const { appearance, toggle } = useTheme()
  return (
    <nav className="sidebar" data-open={open} aria-label="Main">
      <Box px="4" py="4">
        <Text size="4" weight="bold">
          Admin Console
        </Text>
      </Box>
      <div className="sidebar-scroll">
        <ul className="sidebar-list">
          {navigation.map((command) => {
            const href = command.href ?? "/"
            const Icon = command.icon
            return (
              <li key={command.id}>
                <a
                  href={href}
                  className="sidebar-link"
                  data-active={isActive(href, location)}
                  aria-current={location === href ? "page" : undefined}
                  onClick={(event) => {
                    if (event.metaKey || event.ctrlKey || event.shiftKey) return
                    event.preventDefault()
                    command.run()
                    onPick()
                  }}
                >
                  {Icon !== undefined && <Icon />}
                  <span>{command.sidebarLabel ?? command.label}</span>
                </a>
              </li>
            )
          })}
        </ul>
      </div>
      <Separator size="4" />
      <Flex direction="column" gap="2" p="4">
        <Box>
          <Text as="div" size="2" weight="medium" truncate>
            {email ?? "Admin"}
          </Text>
          <Text as="div" size="1" color="gray">
            Administrator
          </Text>
        </Box>
        <Button variant="soft" color="gray" onClick={toggle}>
          {appearance === "dark" ? <SunIcon /> : <MoonIcon />}
          {appearance === "dark" ? "Light Mode" : "Dark Mode"}
        </Button>
        <Button variant="soft" color="red" onClick={onLogout}>
          <ExitIcon /> Logout
        </Button>
      </Flex>
    </nav>
  )
}

/** What the shell says while the server can't be reached (docs/console.md, "Offline"). */
const linkTexts = {
  offline: "Offline: the server can't be reached until the link is back. You stay signed in.",
  unreachable: "The server can't be reached. You stay signed in; the console keeps trying."
} as const

/**
 * Says when the browser has no link, or when the session is the one this browser remembers and
 * a check could not reach the server (`unconfirmed`, and the checks after it until one answers; a
 * start's own check, answering behind the screens, says nothing); tells the auth machine when the
 * link is back (`LINK_BACK`).
 */
const LinkStatus = () => {
  const auth = AuthContext.useActorRef()
  const online = useOnline()
  const session = AuthContext.useSelector((snapshot) =>
    snapshot.matches({ authenticated: "unconfirmed" }) ? "unreached" : snapshot.matches({ authenticated: "confirmed" }) ? "confirmed" : "asking"
  )
  const [unreached, setUnreached] = useState(false)
  if (session !== "asking" && unreached !== (session === "unreached")) setUnreached(session === "unreached")
  useEffect(() => onLinkChange(() => navigator.onLine && auth.send({ type: "LINK_BACK" })), [auth])
  return <StatusLine words={online ? (unreached ? linkTexts.unreachable : null) : linkTexts.offline} />
}

/** One line under the top bar that screen readers say when it changes; empty when there is nothing to say. */
const StatusLine = ({ words }: { readonly words: string | null }) => (
  <div role="status" aria-live="polite">
    {words !== null && (
      <Callout.Root color="amber" size="1" mx="4" mt="2">
        <Callout.Text>{words}</Callout.Text>
      </Callout.Root>
    )}
  </div>
)

/** docs/product-spec.md §2, "Admin shell": sidebar, top bar, and the screen in between. */
export const Shell = ({ children }: { readonly children: ReactNode }) => {
  const [menuOpen, setMenuOpen] = useState(false)
  const auth = AuthContext.useActorRef()
  const email = AuthContext.useSelector((snapshot) => snapshot.context.user?.email)
  const theme = useTheme()
  const { setOpen, said } = usePalette()
  // Changes still waiting for the server are not dropped without asking (src/lib/store/handle.ts).
  const logout = useCallback(() => requestSignOut(() => auth.send({ type: "LOGOUT" })), [auth])
  const commands = useShellCommands({ theme, logout })
  useRegisterCommands(commands)
  // From the shell's own commands, not read back from the registry: the sidebar is whole in the
  // first render instead of filling in once the registration has re-rendered it.
  const navigation = useMemo(() => commands.filter((command) => command.href !== undefined), [commands])
  // Escape closes the phone's menu, as it closes a dialog, and the focus goes back to its button.
  const menuButton = useRef<HTMLButtonElement | null>(null)
  useEffect(() => {
    if (!menuOpen) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return
      setMenuOpen(false)
      menuButton.current?.focus()
    }
    addEventListener("keydown", onKey)
    return () => removeEventListener("keydown", onKey)
  }, [menuOpen])
  return (
    <div className="shell">
      <Sidebar navigation={navigation} open={menuOpen} onPick={() => setMenuOpen(false)} onLogout={logout} />
      {menuOpen && <div className="sidebar-backdrop" onClick={() => setMenuOpen(false)} aria-hidden="true" />}
      <div className="shell-main">
        <header className="topbar">
          <IconButton
            ref={menuButton}
            className="menu-button"
            variant="ghost"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <HamburgerMenuIcon />
          </IconButton>
          <Text size="3" className="topbar-welcome">
            Welcome back
            {email === undefined ? (
              ""
            ) : (
              <>
                , <Text weight="medium">{email}</Text>
              </>
            )}
          </Text>
          {/* On a phone the button is its icon: the word stays its name, the shortcut goes (docs/architecture.md, "Styles"). */}
          <Button variant="outline" color="gray" className="palette-hint" onClick={() => setOpen(true)}>
            <MagnifyingGlassIcon /> <span className="palette-hint-label">Commands</span> <Kbd className="palette-hint-key">{shortcutLabel(["mod+k"])}</Kbd>
          </Button>
        </header>
        <LinkStatus />
        {/* A key the person's role may not use says why here, in one line (Command.refused). */}
        <StatusLine words={said} />
        <main className="shell-content">{children}</main>
      </div>
      <CommandPalette />
    </div>
  )
}
