import { Cross2Icon, PlusIcon } from "@radix-ui/react-icons"
import {
  AlertDialog,
  Badge,
  Box,
  Button,
  Callout,
  Checkbox,
  Flex,
  Heading,
  IconButton,
  Select,
  Spinner,
  Tabs,
  Text,
  TextArea,
  TextField
} from "@radix-ui/themes"
import { useActorRef, useSelector } from "@xstate/react"
import { lazy, type ReactNode, Suspense, useEffect, useId, useMemo, useRef, useState } from "react"
import { useLocation } from "wouter"
import { fromPromise } from "xstate"
import type { BlogCategory, BlogPost } from "../../../contract/blog.ts"
import { cleanList } from "../../../contract/blog-rules.ts"
import {
  blogEditorMachine,
  editorTabs,
  type EditorTab,
  flagNames,
  isDirty,
  type PostDraft
} from "../../../machines/blog-editor.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { createCategory, getPost, listCategories, listTags, savePost } from "../../api/blog.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { setLeaveGuard } from "../../lib/leave-guard.ts"
import { FeaturedImageField } from "./FeaturedImageField.tsx"
import { blogTexts as t } from "./texts.ts"

/** BlockNote is big: it loads only when an editor opens, never with the list or the rest of the console. */
const RichTextEditor = lazy(() => import("./RichTextEditor.tsx"))

const Field = ({ label, htmlFor, error, hint, children }: {
  readonly label: string
  readonly htmlFor?: string
  readonly error?: string | undefined
  readonly hint?: string
  readonly children: ReactNode
}) => (
  <Flex direction="column" gap="1">
    <Text as="label" htmlFor={htmlFor} size="2" weight="medium">{label}</Text>
    {children}
    {hint !== undefined && <Text size="1" color="gray">{hint}</Text>}
    {error !== undefined && <Text id={htmlFor === undefined ? undefined : `${htmlFor}-error`} size="1" color="red" role="alert">{error}</Text>}
  </Flex>
)

/** A list of short texts (tags, keywords): Enter or a comma adds, × or Backspace removes. */
const ChipsInput = ({ id, values, onChange, suggestions, label, hint }: {
  readonly id: string
  readonly values: ReadonlyArray<string>
  readonly onChange: (values: ReadonlyArray<string>) => void
  readonly suggestions?: ReadonlyArray<string>
  readonly label: string
  readonly hint: string
}) => {
  const [text, setText] = useState("")
  const add = (raw: string) => {
    const next = cleanList([...values, ...raw.split(",")])
    if (next.length !== values.length) onChange(next)
    setText("")
  }
  return (
    <Field label={label} htmlFor={id} hint={hint}>
      <Flex gap="1" wrap="wrap">
        {values.map((value) => (
          <Badge key={value} size="2" variant="soft">
            {value}
            <IconButton size="1" variant="ghost" aria-label={t.remove(value)} onClick={() => onChange(values.filter((v) => v !== value))}>
              <Cross2Icon />
            </IconButton>
          </Badge>
        ))}
      </Flex>
      <TextField.Root
        id={id}
        value={text}
        list={suggestions === undefined ? undefined : `${id}-suggestions`}
        onChange={(event) => (event.target.value.includes(",") ? add(event.target.value) : setText(event.target.value))}
        onBlur={() => text.trim() !== "" && add(text)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault()
            add(text)
          } else if (event.key === "Backspace" && text === "" && values.length > 0) {
            onChange(values.slice(0, -1))
          }
        }}
      />
      {suggestions !== undefined && (
        <datalist id={`${id}-suggestions`}>
          {suggestions.filter((s) => !values.includes(s)).map((s) => <option key={s} value={s} />)}
        </datalist>
      )}
    </Field>
  )
}

type Loaded = { readonly phase: "loading" } | { readonly phase: "failed"; readonly error: string } | { readonly phase: "ready"; readonly post: BlogPost | null }

/** /blog/new and /blog/{slug}/edit: the post is found first, then the editor opens on it. */
export const BlogEditorScreen = ({ slug }: { readonly slug: string | null }) => {
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
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
    getPost(token, slug).then(
      (post) => {
        editing.current = post.slug
        setLoaded({ phase: "ready", post })
      },
      (error: unknown) => setLoaded({ phase: "failed", error: failureOf(error).message })
    )
  }, [slug, token])
  if (loaded.phase === "loading") {
    return <Flex p="5" gap="2" align="center" role="status"><Spinner /><Text color="gray">{t.loading}</Text></Flex>
  }
  if (loaded.phase === "failed") {
    return (
      <Box p="5">
        <Callout.Root color="red" role="alert"><Callout.Text>{loaded.error}</Callout.Text></Callout.Root>
      </Box>
    )
  }
  return (
    <PostEditor
      key={loaded.post?._id ?? "new"}
      post={loaded.post}
      token={token}
      onSaved={(saved) => void (editing.current = saved.slug)}
    />
  )
}

const PostEditor = ({ post, token, onSaved }: {
  readonly post: BlogPost | null
  readonly token: string
  readonly onSaved: (post: BlogPost) => void
}) => {
  const [, navigate] = useLocation()
  const id = useId()
  const signedIn = AuthContext.useSelector((snapshot) => snapshot.context.user)
  const editor = useActorRef(
    blogEditorMachine.provide({
      actors: { save: fromPromise(({ input }) => savePost(token, input.post, input.draft)) }
    }),
    { input: { post } }
  )
  const state = useSelector(editor, (snapshot) => snapshot)
  const { draft, tab, errors, error } = state.context
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
  useEffect(() => {
    if (state.matches("left")) navigate(state.context.leaveTo ?? "/blog")
  }, [state.value])
  // After the first save the address names the post, so a reload reopens it.
  const savedSlug = state.context.post?.slug
  useEffect(() => {
    if (savedSlug === undefined || state.context.post === null) return
    onSaved(state.context.post)
    if (location.pathname !== `/blog/${encodeURIComponent(savedSlug)}/edit`) {
      history.replaceState(history.state, "", `/blog/${encodeURIComponent(savedSlug)}/edit`)
    }
  }, [savedSlug])
  const [justSaved, setJustSaved] = useState(false)
  const version = state.context.post?.version
  useEffect(() => {
    if (version === undefined || version === post?.version) return
    setJustSaved(true)
    const timer = setTimeout(() => setJustSaved(false), 2500)
    return () => clearTimeout(timer)
  }, [version])

  const [categories, setCategories] = useState<ReadonlyArray<BlogCategory>>([])
  const [tags, setTags] = useState<ReadonlyArray<string>>([])
  useEffect(() => {
    listCategories(token).then(setCategories, () => undefined)
    listTags(token).then(setTags, () => undefined)
  }, [token])
  const [newCategory, setNewCategory] = useState("")
  const [categoryError, setCategoryError] = useState<string | null>(null)
  const addCategory = async () => {
    const name = newCategory.trim()
    if (name === "") return
    try {
      const category = await createCategory(token, name)
      setCategories((current) => current.some((c) => c.slug === category.slug) ? current : [...current, category])
      if (!draft.categories.includes(category.slug)) change({ categories: [...draft.categories, category.slug] })
      setNewCategory("")
      setCategoryError(null)
    } catch (failure) {
      setCategoryError(failureOf(failure).message)
    }
  }

  const heading = state.context.post === null ? t.createTitle : t.editTitle
  const commands = useMemo((): ReadonlyArray<Command> => {
    const group = "Post editor"
    const open = () => !state.matches("confirmingLeave")
    return [
      { id: "editor:save", label: "Save", group, shortcut: ["mod+s"], keywords: ["store", "write"], guard: () => open() && !saving, run: () => editor.send({ type: "SAVE" }) },
      { id: "editor:publish", label: "Publish", group, keywords: ["go live", "release"], guard: () => open() && !saving, run: () => editor.send({ type: "PUBLISH" }) },
      { id: "editor:preview", label: "Preview", group, guard: () => open() && tab !== "preview", run: () => editor.send({ type: "SET_TAB", tab: "preview" }) },
      ...editorTabs.filter((candidate) => candidate !== "preview").map((candidate): Command => ({
        id: `editor:tab:${candidate}`,
        label: `Show the ${t.tabs[candidate]} tab`,
        group,
        guard: () => open() && tab !== candidate,
        run: () => editor.send({ type: "SET_TAB", tab: candidate })
      })),
      { id: "editor:cancel", label: "Back to the posts", group, keywords: ["cancel", "close"], guard: open, run: () => editor.send({ type: "LEAVE", to: "/blog" }) }
    ]
  }, [state.value, tab, saving])
  useRegisterCommands(commands)

  const titleId = `${id}-title`
  const bodyLabel = `${id}-body-label`
  return (
    <Box p={{ initial: "3", md: "5" }}>
      <Flex justify="between" align="center" mb="4" gap="3" wrap="wrap">
        <Heading as="h1" size="7">{heading}</Heading>
        <Flex gap="3" align="center">
          {justSaved && <Text size="2" color="green" role="status">{t.saved}</Text>}
          {dirty && !saving && <Text size="1" color="gray">Unsaved changes</Text>}
          <Button variant="soft" color="gray" onClick={() => editor.send({ type: "LEAVE", to: "/blog" })}>{t.cancel}</Button>
          <Button disabled={saving} onClick={() => editor.send({ type: "SAVE" })}>
            {saving ? <><Spinner size="1" /> {t.saving}</> : t.save}
          </Button>
        </Flex>
      </Flex>
      {error !== null && (
        <Callout.Root color="red" role="alert" mb="3">
          <Callout.Text>
            {error}{" "}
            <Button size="1" variant="ghost" color="red" onClick={() => editor.send({ type: "DISMISS_ERROR" })}>Dismiss</Button>
          </Callout.Text>
        </Callout.Root>
      )}
      <Tabs.Root value={tab} onValueChange={(value) => editor.send({ type: "SET_TAB", tab: value as EditorTab })}>
        <Tabs.List>
          {editorTabs.map((value) => <Tabs.Trigger key={value} value={value}>{t.tabs[value]}</Tabs.Trigger>)}
        </Tabs.List>
        <Box pt="4">
          <Tabs.Content value="content" forceMount hidden={tab !== "content"}>
            <Flex direction="column" gap="4">
              <Field label={t.postTitle} htmlFor={titleId} error={errors.title}>
                <TextField.Root
                  id={titleId}
                  size="3"
                  value={draft.title}
                  aria-invalid={errors.title !== undefined}
                  aria-describedby={errors.title === undefined ? undefined : `${titleId}-error`}
                  onChange={(event) => change({ title: event.target.value })}
                />
              </Field>
              <Flex direction="column" gap="1">
                <Text id={bodyLabel} size="2" weight="medium">{t.body}</Text>
                <Suspense fallback={<Flex gap="2" align="center" role="status"><Spinner /><Text color="gray">Loading the editor…</Text></Flex>}>
                  <RichTextEditor
                    initialHtml={post?.content ?? ""}
                    labelledBy={bodyLabel}
                    describedBy={errors.content === undefined ? undefined : `${id}-body-error`}
                    invalid={errors.content !== undefined}
                    onChange={(content) => change({ content })}
                  />
                </Suspense>
                {errors.content !== undefined && <Text id={`${id}-body-error`} size="1" color="red" role="alert">{errors.content}</Text>}
              </Flex>
              <Field label={t.excerpt} htmlFor={`${id}-excerpt`}>
                <TextArea id={`${id}-excerpt`} rows={3} value={draft.excerpt} onChange={(event) => change({ excerpt: event.target.value })} />
              </Field>
              <FeaturedImageField value={draft.featuredImage} onChange={(featuredImage) => change({ featuredImage })} token={token} />
            </Flex>
          </Tabs.Content>
          <Tabs.Content value="settings">
            <Flex direction="column" gap="4" maxWidth="520px">
              <Field label={t.status} htmlFor={`${id}-status`}>
                <Select.Root value={draft.status} onValueChange={(value) => change({ status: value as PostDraft["status"] })}>
                  <Select.Trigger id={`${id}-status`} />
                  <Select.Content>
                    {(["draft", "published", "scheduled"] as const).map((value) => <Select.Item key={value} value={value}>{t.statuses[value]}</Select.Item>)}
                  </Select.Content>
                </Select.Root>
              </Field>
              {draft.status === "scheduled" && (
                <Field label={t.scheduleDate} htmlFor={`${id}-schedule`} error={errors.scheduledAt} hint={t.scheduleHint}>
                  <TextField.Root
                    id={`${id}-schedule`}
                    type="datetime-local"
                    value={draft.scheduledAt}
                    aria-invalid={errors.scheduledAt !== undefined}
                    onChange={(event) => change({ scheduledAt: event.target.value })}
                  />
                </Field>
              )}
              <Field label={t.authorUsername} htmlFor={`${id}-author`} hint={t.authorUsernameHint}>
                <TextField.Root
                  id={`${id}-author`}
                  value={draft.authorUsername}
                  placeholder={signedIn?.name ?? signedIn?.email ?? ""}
                  onChange={(event) => change({ authorUsername: event.target.value })}
                />
              </Field>
              <Field label={t.authorCredentials} htmlFor={`${id}-credentials`}>
                <TextField.Root id={`${id}-credentials`} value={draft.authorCredentials} onChange={(event) => change({ authorCredentials: event.target.value })} />
              </Field>
            </Flex>
          </Tabs.Content>
          <Tabs.Content value="categories">
            <Flex direction="column" gap="5" maxWidth="620px">
              <fieldset className="plain-fieldset">
                <legend><Text size="2" weight="medium">{t.categories}</Text></legend>
                {categories.length === 0 && <Text size="2" color="gray">{t.noCategories}</Text>}
                <Flex direction="column" gap="2" mt="2">
                  {categories.map((category) => (
                    <Text as="label" size="2" key={category.slug}>
                      <Flex gap="2" align="center">
                        <Checkbox
                          checked={draft.categories.includes(category.slug)}
                          onCheckedChange={(checked) =>
                            change({ categories: checked === true ? [...draft.categories, category.slug] : draft.categories.filter((c) => c !== category.slug) })}
                        />
                        {category.name}
                      </Flex>
                    </Text>
                  ))}
                </Flex>
                <Flex gap="2" mt="3" align="end">
                  <Box flexGrow="1">
                    <TextField.Root
                      aria-label={t.newCategory}
                      placeholder={t.newCategory}
                      value={newCategory}
                      onChange={(event) => setNewCategory(event.target.value)}
                      onKeyDown={(event) => {
                        if (event.key === "Enter") {
                          event.preventDefault()
                          void addCategory()
                        }
                      }}
                    />
                  </Box>
                  <Button type="button" variant="soft" disabled={newCategory.trim() === ""} onClick={() => void addCategory()}><PlusIcon /> {t.addCategory}</Button>
                </Flex>
                {categoryError !== null && <Text size="1" color="red" role="alert">{categoryError}</Text>}
              </fieldset>
              <fieldset className="plain-fieldset">
                <legend><Text size="2" weight="medium">{t.flagsTitle}</Text></legend>
                <Flex gap="4" wrap="wrap" mt="2">
                  {flagNames.map((flag) => (
                    <Text as="label" size="2" key={flag}>
                      <Flex gap="2" align="center">
                        <Checkbox checked={draft.flags[flag]} onCheckedChange={(checked) => change({ flags: { ...draft.flags, [flag]: checked === true } })} />
                        {t.flags[flag]}
                      </Flex>
                    </Text>
                  ))}
                </Flex>
              </fieldset>
              <fieldset className="plain-fieldset">
                <legend><Text size="2" weight="medium">{t.sponsorTitle}</Text></legend>
                <Flex direction="column" gap="3" mt="2">
                  <Field label={t.sponsorName} htmlFor={`${id}-sponsor-name`}>
                    <TextField.Root id={`${id}-sponsor-name`} value={draft.sponsorName} onChange={(event) => change({ sponsorName: event.target.value })} />
                  </Field>
                  <Field label={t.sponsorLogo} htmlFor={`${id}-sponsor-logo`}>
                    <TextField.Root id={`${id}-sponsor-logo`} type="url" value={draft.sponsorLogo} onChange={(event) => change({ sponsorLogo: event.target.value })} />
                  </Field>
                  <Field label={t.sponsorUrl} htmlFor={`${id}-sponsor-url`}>
                    <TextField.Root id={`${id}-sponsor-url`} type="url" value={draft.sponsorUrl} onChange={(event) => change({ sponsorUrl: event.target.value })} />
                  </Field>
                </Flex>
              </fieldset>
              <ChipsInput id={`${id}-tags`} label={t.tags} hint={t.tagsHint} values={draft.tags} suggestions={tags} onChange={(values) => change({ tags: values })} />
            </Flex>
          </Tabs.Content>
          <Tabs.Content value="seo">
            <Flex direction="column" gap="4" maxWidth="620px">
              <Field label={t.seoTitle} htmlFor={`${id}-seo-title`}>
                <TextField.Root id={`${id}-seo-title`} value={draft.seoTitle} onChange={(event) => change({ seoTitle: event.target.value })} />
              </Field>
              <Field label={t.seoDescription} htmlFor={`${id}-seo-description`}>
                <TextArea id={`${id}-seo-description`} rows={3} value={draft.seoDescription} onChange={(event) => change({ seoDescription: event.target.value })} />
              </Field>
              <ChipsInput id={`${id}-keywords`} label={t.seoKeywords} hint={t.keywordsHint} values={draft.seoKeywords} onChange={(values) => change({ seoKeywords: values })} />
            </Flex>
          </Tabs.Content>
          <Tabs.Content value="preview">
            <article className="post-preview" aria-label={t.tabs.preview}>
              {draft.featuredImage !== "" && <img src={draft.featuredImage} alt="" />}
              <Heading as="h2" size="8" mb="2">{draft.title.trim() === "" ? t.previewEmpty : draft.title}</Heading>
              {draft.excerpt.trim() !== "" && <Text as="p" size="4" color="gray" mb="4">{draft.excerpt}</Text>}
              <div className="post-body" dangerouslySetInnerHTML={{ __html: draft.content }} />
            </article>
          </Tabs.Content>
        </Box>
      </Tabs.Root>
      <AlertDialog.Root open={state.matches("confirmingLeave")} onOpenChange={(open) => !open && editor.send({ type: "STAY" })}>
        <AlertDialog.Content maxWidth="440px">
          <AlertDialog.Title>{t.leaveTitle}</AlertDialog.Title>
          <AlertDialog.Description>{t.leaveText}</AlertDialog.Description>
          <Flex gap="3" mt="4" justify="end">
            <AlertDialog.Cancel><Button variant="soft" color="gray">{t.stay}</Button></AlertDialog.Cancel>
            <AlertDialog.Action><Button color="red" onClick={() => editor.send({ type: "CONFIRM_LEAVE" })}>{t.leave}</Button></AlertDialog.Action>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </Box>
  )
}
