import {
  type ComponentType,
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore
} from "react"

/**
 * Everything a staff member can do is a command: the sidebar, buttons, shortcuts and the
 * palette all run the same ones. A command is offered only while its guard says it is legal.
 */
export interface Command {
  readonly id: string
  readonly label: string
  readonly group: string
  /** Keys pressed one after another, e.g. ["g", "d"]; "mod" is Ctrl, or Cmd on a Mac. */
  readonly shortcut?: ReadonlyArray<string>
  readonly keywords?: ReadonlyArray<string>
  readonly guard?: () => boolean
  readonly run: () => void
  /** Set on navigation commands, so they render as real links. */
  readonly href?: string
  /** The shorter name a navigation command has in the sidebar. */
  readonly sidebarLabel?: string
  readonly icon?: ComponentType
  /** False for keys that only move (j, k): they run by their shortcut but crowd no palette. */
  readonly inPalette?: boolean
  /** Acts on the current row or the selection: ranks before filters and screens in the palette. */
  readonly onCurrent?: boolean
  /**
   * A key the person's role may not use here: pressing it says this, in one line, instead of
   * doing nothing; the palette does not offer it.
   */
  readonly refused?: string
}

/** `items` as they are, or each refused with `refusal` when the person's role may not do them. */
export const withRefusal = <A extends { readonly refused?: string }>(refusal: string | undefined, items: ReadonlyArray<A>): ReadonlyArray<A> =>
  refusal === undefined ? items : items.map((item) => ({ ...item, refused: refusal }))

export const isMac = () => /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? "")

/** How a shortcut is shown: ["mod+k"] → "Ctrl K" (⌘ K on a Mac), ["g", "d"] → "G D". */
export const shortcutLabel = (keys: ReadonlyArray<string>): string =>
  keys
    .map((key) =>
      key
        .split("+")
        .map((part) => (part === "mod" ? (isMac() ? "⌘" : "Ctrl") : part.toUpperCase()))
        .join(" ")
    )
    .join(" ")

const isLegal = (command: Command) => command.guard === undefined || command.guard()
const isOffered = (command: Command) => command.refused === undefined && isLegal(command)

/** How long a refused key's line stays. */
const SAID_MS = 6_000

class CommandStore {
  private readonly sources = new Map<symbol, ReadonlyArray<Command>>()
  private readonly listeners = new Set<() => void>()
  private snapshot: ReadonlyArray<Command> = []

  register(commands: ReadonlyArray<Command>): () => void {
    const key = Symbol("commands")
    this.sources.set(key, commands)
    this.changed()
    return () => {
      this.sources.delete(key)
      this.changed()
    }
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  all = (): ReadonlyArray<Command> => this.snapshot

  private changed() {
    this.snapshot = [...this.sources.values()].flat()
    for (const listener of this.listeners) listener()
  }
}

interface PaletteState {
  readonly open: boolean
  readonly setOpen: (open: boolean) => void
  /** What the last refused key said (`Command.refused`), while it stays; the shell shows it. */
  readonly said: string | null
}

// Two contexts: the store never changes, so the screens registering commands don't re-render
// when the palette opens or closes; only the palette and its hint read `PaletteContext`.
const StoreContext = createContext<CommandStore | null>(null)
const PaletteContext = createContext<PaletteState | null>(null)

const required = <A,>(value: A | null): A => {
  if (value === null) throw new Error("commands used outside CommandProvider")
  return value
}

/** Registers `commands` while the calling component is mounted. */
export const useRegisterCommands = (commands: ReadonlyArray<Command>) => {
  const store = required(useContext(StoreContext))
  useEffect(() => store.register(commands), [store, commands])
}

/**
 * Registers commands a component makes afresh each render: they are made again only when what
 * they show changes (id, label, keys, refusal), and each runs the newest render's `run` and `guard`.
 */
export const useDeclaredCommands = (commands: ReadonlyArray<Command>) => {
  const latest = useRef(commands)
  useLayoutEffect(() => {
    latest.current = commands
  })
  const signature = JSON.stringify(commands.map(({ run: _run, guard: _guard, icon: _icon, ...shown }) => shown))
  const made = useMemo(() => {
    const newest = (id: string) => latest.current.find((command) => command.id === id)
    return (JSON.parse(signature) as ReadonlyArray<Command>).map((command): Command => ({
      ...command,
      guard: () => newest(command.id)?.guard?.() ?? true,
      run: () => newest(command.id)?.run()
    }))
  }, [signature])
  useRegisterCommands(made)
}

const listenToNothing = () => () => {}

/**
 * Every registered command that is legal now, in registration order. With `live` false the
 * caller is not re-rendered when commands are registered (the closed palette: screens
 * registering theirs cost it nothing); it reads them again when it next renders.
 */
export const useLegalCommands = (live = true): ReadonlyArray<Command> => {
  const store = required(useContext(StoreContext))
  const all = useSyncExternalStore(live ? store.subscribe : listenToNothing, store.all)
  return all.filter((command) => command.inPalette !== false && isOffered(command))
}

export const usePalette = (): PaletteState => required(useContext(PaletteContext))

const isEditable = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))

/**
 * A key as shortcuts name it: a character as typed ("a", "J", "/"), a named key in lower case
 * ("enter", "delete", "arrowdown"), Shift with a digit by its place on the keyboard ("shift+1",
 * whatever the layout makes of it), Ctrl (Cmd on a Mac) as "mod+".
 */
export const keyName = (event: Pick<KeyboardEvent, "key" | "code" | "shiftKey" | "ctrlKey" | "metaKey">): string => {
  const mod = isMac() ? event.metaKey : event.ctrlKey
  const digit = /^Digit(\d)$/.exec(event.code)?.[1]
  const key = event.shiftKey && digit !== undefined ? `shift+${digit}` : normalKey(event.key)
  return mod ? `mod+${key.toLowerCase()}` : key
}

/** How a shortcut's key is compared: characters as they are, named keys in lower case. */
const normalKey = (key: string) => (key.length === 1 ? key : key.toLowerCase())

const inDialog = (target: EventTarget | null): boolean =>
  target instanceof Element && target.closest("[role=dialog], [role=alertdialog], dialog[open]") !== null

/** Enter and Space on a button, link or option are that element's: no shortcut takes them. */
const isActivation = (event: KeyboardEvent): boolean =>
  (event.key === "Enter" || event.key === " ") &&
  event.target instanceof Element &&
  event.target.closest("button, a[href], select, summary, [role=button], [role=link], [role=option], [role=menuitem], [role=tab], [role=checkbox]") !== null

const SEQUENCE_TIMEOUT_MS = 1200

/** Holds the registry, opens the palette on Ctrl/Cmd+K (or "/"), and runs shortcut sequences. */
export const CommandProvider = ({ children }: { readonly children: ReactNode }) => {
  const store = useMemo(() => new CommandStore(), [])
  // Escape (or running a command) gives focus back to where it was before the palette opened:
  // the palette's dialog does that as it closes (src/ui/ThemedCommandDialog.tsx).
  const [paletteOpen, setPaletteOpen] = useState(false)
  const [said, setSaid] = useState<{ readonly text: string } | null>(null)
  useEffect(() => {
    if (said === null) return
    const timer = setTimeout(() => setSaid(null), SAID_MS)
    return () => clearTimeout(timer)
  }, [said])
  const pending = useRef<{ keys: Array<string>; at: number }>({ keys: [], at: 0 })
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const name = keyName(event)
      if (name === "mod+k") {
        event.preventDefault()
        setPaletteOpen(!paletteOpen)
        return
      }
      // A key the focused element has handled (a card's own `2`) is not a shortcut as well.
      if (event.defaultPrevented) return
      // In a field, or in a dialog (which owns the keyboard), plain keys are the field's or the dialog's.
      const typing = (isEditable(event.target) || inDialog(event.target)) && !name.startsWith("mod+")
      if (paletteOpen || typing || isActivation(event) || event.altKey || (event.ctrlKey && !name.startsWith("mod+"))) return
      if (name === "/" && !isEditable(event.target)) {
        event.preventDefault()
        setPaletteOpen(true)
        return
      }
      const now = Date.now()
      const keys = now - pending.current.at < SEQUENCE_TIMEOUT_MS ? [...pending.current.keys, name] : [name]
      const legal = store.all().filter((command) => command.shortcut !== undefined && isLegal(command))
      const startsWith = (command: Command) => keys.every((key, index) => command.shortcut?.[index] !== undefined && normalKey(command.shortcut[index]) === key)
      const exact = legal.find((command) => startsWith(command) && command.shortcut?.length === keys.length)
      if (exact !== undefined) {
        event.preventDefault()
        pending.current = { keys: [], at: 0 }
        // A new object each time: the same refusal pressed twice is said (and kept) again.
        if (exact.refused !== undefined) setSaid({ text: exact.refused })
        else exact.run()
        return
      }
      pending.current = legal.some(startsWith) ? { keys, at: now } : { keys: [], at: 0 }
    }
    window.addEventListener("keydown", onKey)
    return () => window.removeEventListener("keydown", onKey)
  }, [store, paletteOpen, setPaletteOpen])
  const palette = useMemo(() => ({ open: paletteOpen, setOpen: setPaletteOpen, said: said?.text ?? null }), [paletteOpen, setPaletteOpen, said])
  return (
    <StoreContext.Provider value={store}>
      <PaletteContext.Provider value={palette}>{children}</PaletteContext.Provider>
    </StoreContext.Provider>
  )
}
