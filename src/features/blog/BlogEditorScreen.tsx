import { Box, Button, Callout, Flex, Heading, Spinner, Tabs, Text } from "@radix-ui/themes"
import { ConfirmLeave } from "../../ui/ConfirmLeave.tsx"
import { useSelector } from "@xstate/react"
import { useMachine } from "../../lib/use-machine.ts"
import { useEffect, useEffectEvent, useId, useMemo, useRef, useState } from "react"
import { useLocation } from "wouter"
import { fromPromise } from "xstate"
import type { BlogPost } from "../../../contract/blog.ts"
import { blogEditorMachine, editorTabs, type EditorTab, isDirty, type PostDraft } from "../../../machines/blog-editor.ts"
import { type CallFailure, failureOf } from "../../../contract/call-failure.ts"
import { getPost, inputOf, savePost } from "../../api/blog.ts"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { historyActionLabel, useHistory } from "../../lib/history.ts"
import { checkLazily } from "../../lib/form/check-lazily.ts"
import { useFirstInvalidFocus } from "../../lib/form/use-first-invalid-focus.ts"
import { setLeaveGuard } from "../../lib/leave-guard.ts"
import { CategoriesTab } from "./editor/CategoriesTab.tsx"
import { ContentTab } from "./editor/ContentTab.tsx"
import { PreviewTab } from "./editor/PreviewTab.tsx"
import { SeoTab } from "./editor/SeoTab.tsx"
import { SettingsTab } from "./editor/SettingsTab.tsx"
import { OpenRecordNotice } from "../../ui/OpenRecordNotice.tsx"
import { useOpenRecord } from "../../lib/store/use-open-record.ts"
import { blogTexts as t } from "./texts.ts"

/**
 * Saves after the contract's check of what would be sent (contract/blog.ts, `BlogPostInput`,
 * the schema the server decodes the post with): a refused draft is never sent, and its
 * problems come back as a 400's would, for the editor to show under their fields.
 */
const checkedSave = async (post: BlogPost | null, draft: PostDraft): Promise<BlogPost> => {
  const checked = await checkLazily(() => import("../../../contract/blog.ts").then((module) => module.BlogPostInput), inputOf(draft))
  if (!checked.ok) {
    const refused: CallFailure = { status: undefined, message: "The post has problems to correct", issues: checked.issues }
    throw refused
  }
  return savePost(post, draft)
}

type Loaded = { readonly phase: "loading" } | { readonly phase: "failed"; readonly error: string } | { readonly phase: "ready"; readonly post: BlogPost | null }

/** /blog/new and /blog/{slug}/edit: the post is found first, then the editor opens on it. */
export const BlogEditorScreen = ({ slug }: { readonly slug: string | null }) => {
  const [loaded, setLoaded] = useState<Loaded>(slug === null ? { phase: "ready", post: null } : { phase: "loading" })
  // The post open in the editor: when the address changes to it after a save, nothing reloads.
  const editing = useRef<string | null>(null)
  useEffect(() => {
    if (slug === null) {
      if (editing.current !== null) {
        editing.current = null
        setLoaded({ phase: "ready", post: null })
      }
      return
    }
    if (slug === editing.current) return
    setLoaded({ phase: "loading" })
    getPost(slug).then(
      (post) => {
        editing.current = post.slug
        setLoaded({ phase: "ready", post })
      },
      (error: unknown) => setLoaded({ phase: "failed", error: failureOf(error).message })
    )
  }, [slug])
  if (loaded.phase === "loading") {
    return (
      <Flex p="5" gap="2" align="center" role="status">
        <Spinner />
        <Text color="gray">{t.loading}</Text>
      </Flex>
    )
  }
  if (loaded.phase === "failed") {
    return (
      <Box p="5">
        <Callout.Root color="red" role="alert">
          <Callout.Text>{loaded.error}</Callout.Text>
        </Callout.Root>
      </Box>
    )
  }
  return <PostEditor key={loaded.post?._id ?? "new"} post={loaded.post} onSaved={(saved) => void (editing.current = saved.slug)} />
}

const PostEditor = ({ post, onSaved }: { readonly post: BlogPost | null; readonly onSaved: (post: BlogPost) => void }) => {
  const [, navigate] = useLocation()
  const id = useId()
  const editor = useMachine(() => blogEditorMachine.provide({ actors: { save: fromPromise(({ input }) => checkedSave(input.post, input.draft)) } }), {
    input: { post }
  })
  // The editor draws every state of its machine: it reads the whole snapshot.
  const state = useSelector(editor, (snapshot) => snapshot)
  const { draft, tab, errors, error, shown } = state.context
  // Each time problems are shown, the cursor goes to the first (docs/architecture.md, "Forms").
  const { formRef: fieldsRef, focusFirstInvalid } = useFirstInvalidFocus<HTMLDivElement>()
  useEffect(() => {
    if (shown > 0) focusFirstInvalid()
  }, [shown, focusFirstInvalid])
  const dirty = isDirty(state.context)
  const saving = state.matches("saving")
  const change = (patch: Partial<PostDraft>) => editor.send({ type: "CHANGE", patch })

  // Leaving with unsaved changes asks first: links, the sidebar, shortcuts, and closing the tab.
  useEffect(() => {
    setLeaveGuard((to) => {
      const snapshot = editor.getSnapshot()
      if (snapshot.status === "done" || !isDirty(snapshot.context)) return true
      editor.send({ type: "LEAVE", to })
      return false
    })
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (isDirty(editor.getSnapshot().context) && editor.getSnapshot().status !== "done") event.preventDefault()
    }
    window.addEventListener("beforeunload", beforeUnload)
    return () => {
      setLeaveGuard(null)
      window.removeEventListener("beforeunload", beforeUnload)
    }
  }, [editor])
  const left = state.matches("left")
  const leaveTo = state.context.leaveTo
  useEffect(() => {
    if (left) navigate(leaveTo ?? "/blog")
  }, [left, leaveTo, navigate])
  // After the first save the address names the post, so a reload reopens it.
  const saved = state.context.post
  const announceSaved = useEffectEvent(() => {
    if (saved !== null) onSaved(saved)
  })
  const savedSlug = saved?.slug
  useEffect(() => {
    if (savedSlug === undefined) return
    announceSaved()
    if (location.pathname !== `/blog/${encodeURIComponent(savedSlug)}/edit`) {
      history.replaceState(history.state, "", `/blog/${encodeURIComponent(savedSlug)}/edit`)
    }
  }, [savedSlug])
  const [justSaved, setJustSaved] = useState(false)
  const version = state.context.post?.version
  const [openedVersion] = useState(post?.version)
  useEffect(() => {
    if (version === undefined || version === openedVersion) return
    setJustSaved(true)
    const timer = setTimeout(() => setJustSaved(false), 2500)
    return () => clearTimeout(timer)
  }, [version, openedVersion])

  // The post as the browser's store has it now: a colleague's change or delete is said here.
  const record = useOpenRecord("blog", state.context.post, state.matches("saving"))
  const confirmingLeave = state.matches("confirmingLeave")
  const records = useHistory()
  const heading = state.context.post === null ? t.createTitle : t.editTitle
  const commands = useMemo((): ReadonlyArray<Command> => {
    const group = "Post editor"
    const open = () => !confirmingLeave
    return [
      {
        id: "editor:save",
        label: "Save",
        group,
        shortcut: ["mod+s"],
        keywords: ["store", "write"],
        guard: () => open() && !saving,
        run: () => editor.send({ type: "SAVE" })
      },
      {
        id: "editor:publish",
        label: "Publish",
        group,
        shortcut: ["mod+enter"],
        keywords: ["go live", "release"],
        guard: () => open() && !saving,
        run: () => editor.send({ type: "PUBLISH" })
      },
      { id: "editor:preview", label: "Preview", group, guard: () => open() && tab !== "preview", run: () => editor.send({ type: "SET_TAB", tab: "preview" }) },
      ...editorTabs
        .filter((candidate) => candidate !== "preview")
        .map((candidate): Command => ({
          id: `editor:tab:${candidate}`,
          label: `Show the ${t.tabs[candidate]} tab`,
          group,
          guard: () => open() && tab !== candidate,
          run: () => editor.send({ type: "SET_TAB", tab: candidate })
        })),
      ...(saved === null
        ? []
        : [
            {
              id: "editor:history",
              label: historyActionLabel,
              group,
              keywords: ["versions", "revisions", "restore"],
              guard: open,
              run: () => records.show({ kind: "blog", id: saved._id, label: saved.title })
            }
          ]),
      {
        id: "editor:cancel",
        label: "Back to the posts",
        group,
        keywords: ["cancel", "close"],
        guard: open,
        run: () => editor.send({ type: "LEAVE", to: "/blog" })
      }
    ]
  }, [confirmingLeave, tab, saving, editor, saved, records])
  useRegisterCommands(commands)

  return (
    <Box p={{ initial: "3", md: "5" }}>
      <Flex justify="between" align="center" mb="4" gap="3" wrap="wrap">
        <Heading as="h1" size="7">
          {heading}
        </Heading>
        <Flex gap="3" align="center">
          {justSaved && (
            <Text size="2" color="green" role="status">
              {t.saved}
            </Text>
          )}
          {dirty && !saving && (
            <Text size="1" color="gray">
              Unsaved changes
            </Text>
          )}
          <Button variant="soft" color="gray" onClick={() => editor.send({ type: "LEAVE", to: "/blog" })}>
            {t.cancel}
          </Button>
          <Button disabled={saving} onClick={() => editor.send({ type: "SAVE" })}>
            {saving ? (
              <>
                <Spinner size="1" /> {t.saving}
              </>
            ) : (
              t.save
            )}
          </Button>
        </Flex>
      </Flex>
      <OpenRecordNotice record={record} noun="post" editing />
      {error !== null && (
        <Callout.Root color="red" role="alert" mb="3">
          <Callout.Text>
            {error}{" "}
            <Button size="1" variant="ghost" color="red" onClick={() => editor.send({ type: "DISMISS_ERROR" })}>
              Dismiss
            </Button>
          </Callout.Text>
        </Callout.Root>
      )}
      <Tabs.Root value={tab} onValueChange={(value) => editor.send({ type: "SET_TAB", tab: value as EditorTab })}>
        <Tabs.List className="editor-tabs">
          {editorTabs.map((value) => (
            <Tabs.Trigger key={value} value={value}>
              {t.tabs[value]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Box pt="4" ref={fieldsRef}>
          <Tabs.Content value="content" forceMount hidden={tab !== "content"}>
            <ContentTab id={id} draft={draft} errors={errors} change={change} initialHtml={post?.content ?? ""} />
          </Tabs.Content>
          <Tabs.Content value="settings">
            <SettingsTab id={id} draft={draft} errors={errors} change={change} />
          </Tabs.Content>
          <Tabs.Content value="categories">
            <CategoriesTab id={id} draft={draft} errors={errors} change={change} />
          </Tabs.Content>
          <Tabs.Content value="seo">
            <SeoTab id={id} draft={draft} errors={errors} change={change} />
          </Tabs.Content>
          <Tabs.Content value="preview">
            <PreviewTab draft={draft} />
          </Tabs.Content>
        </Box>
      </Tabs.Root>
      <ConfirmLeave
        open={state.matches("confirmingLeave")}
        texts={{ title: t.leaveTitle, question: t.leaveText, stay: t.stay, leave: t.leave }}
        onStay={() => editor.send({ type: "STAY" })}
        onLeave={() => editor.send({ type: "CONFIRM_LEAVE" })}
      />
    </Box>
  )
}
