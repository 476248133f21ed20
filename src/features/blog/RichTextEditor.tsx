import "@blocknote/mantine/style.css"
import type { BlockNoteEditor } from "@blocknote/core"
import { BlockNoteView } from "@blocknote/mantine"
import { useCreateBlockNote, useEditorState } from "@blocknote/react"
import {
  CodeIcon,
  FontBoldIcon,
  FontItalicIcon,
  Link2Icon,
  ListBulletIcon,
  QuoteIcon,
  ResetIcon,
  TextAlignCenterIcon,
  TextAlignLeftIcon,
  TextAlignRightIcon
} from "@radix-ui/react-icons"
import { Button, Dialog, Flex, IconButton, Separator, Text, TextField, Tooltip } from "@radix-ui/themes"
import { Tooltip as TooltipPrimitive } from "radix-ui"
import { type KeyboardEvent, type ReactNode, useEffect, useMemo, useState } from "react"
import { isMac } from "../../lib/commands.tsx"
import { useTheme } from "../../lib/theme.tsx"
import { blogTexts as t } from "./texts.ts"

// The tool list drives blocks by their type names, which BlockNote types only per schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Editor = BlockNoteEditor<any, any, any>

interface ToolAction {
  readonly id: string
  readonly label: string
  /** Matched against `event.code` with Ctrl (Cmd on a Mac), plus these modifiers. */
  readonly keys: { readonly code: string; readonly shift?: boolean; readonly alt?: boolean }
  readonly glyph: ReactNode
  /** The glyph's visible text, when it is text: the button's name starts with it. */
  readonly text?: string
  readonly run: (editor: Editor, openLink: () => void) => void
  readonly active?: (editor: Editor) => boolean
}

const validLink = (url: string) => /^(https?:\/\/|mailto:)\S+$/i.test(url.trim())

const selectedBlocks = (editor: Editor) => editor.getSelection()?.blocks ?? [editor.getTextCursorPosition().block]

/** Turns the selected blocks into `type` (with `props`), or back into paragraphs when they already are. */
const toggleBlock =
  (type: string, props: Record<string, unknown> = {}) =>
  (editor: Editor) => {
    const blocks = selectedBlocks(editor)
    const already = blocks.every((block) => block.type === type && Object.entries(props).every(([key, value]) => block.props[key] === value))
    editor.transact(() => {
      for (const block of blocks) editor.updateBlock(block, already ? { type: "paragraph" } : { type, props })
    })
    editor.focus()
  }

const isBlock =
  (type: string, props: Record<string, unknown> = {}) =>
  (editor: Editor) => {
    const block = editor.getTextCursorPosition().block
    return block.type === type && Object.entries(props).every(([key, value]) => block.props[key] === value)
  }

const align = (textAlignment: "left" | "center" | "right") => (editor: Editor) => {
  editor.transact(() => {
    for (const block of selectedBlocks(editor)) {
      if ("textAlignment" in block.props) editor.updateBlock(block, { props: { textAlignment } })
    }
  })
  editor.focus()
}

const toggleStyle = (style: "bold" | "italic" | "code") => (editor: Editor) => {
  editor.toggleStyles({ [style]: true })
  editor.focus()
}

/** docs/product-spec.md §2: the toolbar's tools, each with a shortcut and an accessible name. */
const tools: ReadonlyArray<ToolAction | "separator"> = [
  { id: "bold", label: "Bold", keys: { code: "KeyB" }, glyph: <FontBoldIcon />, run: toggleStyle("bold"), active: (e) => e.getActiveStyles().bold === true },
  {
    id: "italic",
    label: "Italic",
    keys: { code: "KeyI" },
    glyph: <FontItalicIcon />,
    run: toggleStyle("italic"),
    active: (e) => e.getActiveStyles().italic === true
  },
  { id: "code", label: "Inline code", keys: { code: "KeyE" }, glyph: <CodeIcon />, run: toggleStyle("code"), active: (e) => e.getActiveStyles().code === true },
  { id: "link", label: "Link", keys: { code: "KeyK", shift: true }, glyph: <Link2Icon />, run: (_, openLink) => openLink() },
  "separator",
  ...([1, 2, 3] as const).map((level): ToolAction => ({
    id: `heading-${level}`,
    label: `Heading ${level}`,
    keys: { code: `Digit${level}`, alt: true },
    glyph: <span>H{level}</span>,
    text: `H${level}`,
    run: toggleBlock("heading", { level }),
    active: isBlock("heading", { level })
  })),
  {
    id: "bullets",
    label: "Bullet list",
    keys: { code: "Digit8", shift: true },
    glyph: <ListBulletIcon />,
    run: toggleBlock("bulletListItem"),
    active: isBlock("bulletListItem")
  },
  {
    id: "numbers",
    label: "Numbered list",
    keys: { code: "Digit7", shift: true },
    glyph: <span>1.</span>,
    text: "1.",
    run: toggleBlock("numberedListItem"),
    active: isBlock("numberedListItem")
  },
  { id: "quote", label: "Quote", keys: { code: "Digit9", shift: true }, glyph: <QuoteIcon />, run: toggleBlock("quote"), active: isBlock("quote") },
  "separator",
  {
    id: "align-left",
    label: "Align left",
    keys: { code: "KeyL", shift: true },
    glyph: <TextAlignLeftIcon />,
    run: align("left"),
    active: (e) => e.getTextCursorPosition().block.props.textAlignment === "left"
  },
  {
    id: "align-center",
    label: "Align center",
    keys: { code: "KeyE", shift: true },
    glyph: <TextAlignCenterIcon />,
    run: align("center"),
    active: (e) => e.getTextCursorPosition().block.props.textAlignment === "center"
  },
  {
    id: "align-right",
    label: "Align right",
    keys: { code: "KeyR", shift: true },
    glyph: <TextAlignRightIcon />,
    run: align("right"),
    active: (e) => e.getTextCursorPosition().block.props.textAlignment === "right"
  },
  "separator",
  { id: "undo", label: "Undo", keys: { code: "KeyZ" }, glyph: <ResetIcon />, run: (editor) => void editor.undo() },
  {
    id: "redo",
    label: "Redo",
    keys: { code: "KeyZ", shift: true },
    glyph: <ResetIcon style={{ transform: "scaleX(-1)" }} />,
    run: (editor) => void editor.redo()
  }
]

const toolList = tools.filter((tool): tool is ToolAction => tool !== "separator")

export const shortcutText = (keys: ToolAction["keys"]) => {
  const key = keys.code.replace(/^Key|^Digit/, "")
  const parts = [isMac() ? "⌘" : "Ctrl", ...(keys.alt === true ? [isMac() ? "⌥" : "Alt"] : []), ...(keys.shift === true ? ["Shift"] : []), key]
  return parts.join("+")
}

const matches = (event: KeyboardEvent, keys: ToolAction["keys"]) =>
  (isMac() ? event.metaKey : event.ctrlKey) && event.code === keys.code && event.shiftKey === (keys.shift === true) && event.altKey === (keys.alt === true)

export interface RichTextEditorProps {
  /** The stored HTML the editor starts from. */
  readonly initialHtml: string
  /** Called with the body as HTML after each change a person makes. */
  readonly onChange: (html: string) => void
  readonly labelledBy: string
  readonly describedBy?: string | undefined
  readonly invalid?: boolean
  /** Escape in the body: the body gives the keyboard up (Tab and Shift+Tab indent there). */
  readonly onLeave?: () => void
}

/**
 * The post body: BlockNote with a fixed toolbar (docs/product-spec.md §2 "Blog post editor"). Paste is
 * plain text; Shift+Enter is a line break. The HTML goes out only when someone changes the
 * body, so a post opened and saved unchanged keeps its stored HTML byte for byte.
 */
export default function RichTextEditor({ initialHtml, onChange, labelledBy, describedBy, invalid, onLeave }: RichTextEditorProps) {
  const { appearance } = useTheme()
  const editor = useCreateBlockNote({
    pasteHandler: ({ event, editor: target }) => {
      target.pasteText(event.clipboardData?.getData("text/plain") ?? "")
      return true
    }
  }) as unknown as Editor
  // The stored HTML is parsed once, when the editor is created: later values of the prop are the
  // editor's own output coming back.
  const [opened] = useState(initialHtml)
  useMemo(() => {
    if (opened.trim() !== "") editor.replaceBlocks(editor.document, editor.tryParseHTMLToBlocks(opened))
  }, [editor, opened])
  const active = useEditorState({
    editor: editor as never,
    selector: ({ editor: current }) =>
      Object.fromEntries(toolList.map((tool) => [tool.id, tool.active?.(current as unknown as Editor) ?? false])) as Record<string, boolean>
  })

  // The editable element itself carries the field's name and hint (BlockNote puts props on its wrapper).
  useEffect(() => {
    const name = () => {
      const editable = editor.domElement
      if (editable === undefined) return
      if (labelledBy !== undefined) editable.setAttribute("aria-labelledby", labelledBy)
      if (describedBy !== undefined) editable.setAttribute("aria-describedby", describedBy)
      else editable.removeAttribute("aria-describedby")
      // Marked invalid like every field of the form pattern, so the editor finds it first when it is.
      if (invalid === true) editable.setAttribute("aria-invalid", "true")
      else editable.removeAttribute("aria-invalid")
    }
    name()
    return editor.onMount(name)
  }, [editor, labelledBy, describedBy, invalid])

  // The link dialog takes the focus, so the selection it applies to is kept aside.
  type Selection = Editor["prosemirrorState"]["selection"]
  const [link, setLink] = useState<{ url: string; selection: Selection } | null>(null)
  const openLink = () => setLink({ url: editor.getSelectedLinkUrl() ?? "https://", selection: editor.prosemirrorState.selection })
  const applyLink = () => {
    if (link === null) return
    const url = link.url.trim()
    if (!validLink(url)) return
    setLink(null)
    const view = editor.prosemirrorView
    // The document cannot change while the dialog is open, so the kept selection still fits it.
    if (view.state.doc === link.selection.$anchor.doc) view.dispatch(view.state.tr.setSelection(link.selection))
    editor.createLink(url, link.selection.empty ? url : undefined)
    editor.focus()
  }

  // The toolbar's one tab stop: the tool last used or moved to.
  const [toolStop, setToolStop] = useState(0)
  const moveInToolbar = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key]
    const target =
      event.key === "Home"
        ? 0
        : event.key === "End"
          ? toolList.length - 1
          : step === undefined
            ? undefined
            : (toolStop + step + toolList.length) % toolList.length
    if (target === undefined) return
    event.preventDefault()
    setToolStop(target)
    event.currentTarget.querySelectorAll<HTMLButtonElement>("button")[target]?.focus()
  }

  const onKeyDownCapture = (event: KeyboardEvent) => {
    if (event.key === "Escape" && onLeave !== undefined && event.target instanceof HTMLElement && event.target.isContentEditable) {
      event.preventDefault()
      onLeave()
      return
    }
    const tool =
      toolList.find((candidate) => matches(event, candidate.keys)) ??
      (matches(event, { code: "KeyY" }) ? toolList.find((candidate) => candidate.id === "redo") : undefined)
    if (tool === undefined) return
    event.preventDefault()
    event.stopPropagation()
    tool.run(editor, openLink)
  }

  return (
    <div className="rich-text" data-invalid={invalid === true} onKeyDownCapture={onKeyDownCapture}>
      {/* The console's root theme leaves the tooltip provider out (tools/first-screen/theme-root.ts). */}
      <TooltipPrimitive.Provider delayDuration={200}>
        {/* One tab stop (WAI-ARIA toolbar): Tab goes title → toolbar → body, the arrows, Home and End move inside it. */}
        <div role="toolbar" aria-label={t.toolbar} aria-controls="post-body" className="rich-text-toolbar" onKeyDown={moveInToolbar}>
          {tools.map((tool, index) =>
            tool === "separator" ? (
              <Separator key={`separator-${index}`} orientation="vertical" size="1" />
            ) : (
              <Tooltip key={tool.id} content={`${tool.label} (${shortcutText(tool.keys)})`}>
                <IconButton
                  type="button"
                  size="1"
                  variant={active?.[tool.id] === true ? "solid" : "ghost"}
                  aria-label={tool.text === undefined ? tool.label : `${tool.text} ${tool.label}`}
                  aria-keyshortcuts={shortcutText(tool.keys).replace("⌘", "Meta").replace("⌥", "Alt")}
                  aria-pressed={tool.active === undefined ? undefined : active?.[tool.id] === true}
                  tabIndex={toolList.indexOf(tool) === toolStop ? 0 : -1}
                  onFocus={() => setToolStop(toolList.indexOf(tool))}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => tool.run(editor, openLink)}
                >
                  {tool.glyph}
                </IconButton>
              </Tooltip>
            )
          )}
        </div>
      </TooltipPrimitive.Provider>
      <BlockNoteView
        id="post-body"
        editor={editor}
        theme={appearance}
        formattingToolbar={false}
        sideMenu={false}
        slashMenu={false}
        emojiPicker={false}
        filePanel={false}
        tableHandles={false}
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        onChange={() => onChange(editor.blocksToHTMLLossy(editor.document))}
      />
      <Dialog.Root open={link !== null} onOpenChange={(open) => !open && setLink(null)}>
        <Dialog.Content
          maxWidth="420px"
          // Focus goes back to the text, where the link now is, not to wherever the browser kept it.
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            editor.focus()
          }}
        >
          <Dialog.Title>{t.linkTitle}</Dialog.Title>
          <form
            onSubmit={(event) => {
              event.preventDefault()
              applyLink()
            }}
          >
            <label>
              <Text as="div" size="2" mb="1" weight="medium">
                {t.linkUrl}
              </Text>
              <TextField.Root autoFocus value={link?.url ?? ""} onChange={(event) => link !== null && setLink({ ...link, url: event.target.value })} />
            </label>
            {!validLink(link?.url ?? "") && (
              <Text size="1" color="gray">
                {t.linkHint}
              </Text>
            )}
            <Flex gap="3" mt="4" justify="end">
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray">
                  {t.cancel}
                </Button>
              </Dialog.Close>
              <Button type="submit">{t.linkApply}</Button>
            </Flex>
          </form>
        </Dialog.Content>
      </Dialog.Root>
    </div>
  )
}
