import { assign, fromPromise, setup } from "xstate"
import type { BlogPost } from "../contract/blog.ts"
import { blogMessages, textOf } from "../contract/blog-rules.ts"
import { failureOf, issuesOf } from "../contract/call-failure.ts"
import { localInput } from "../contract/local-time.ts"

export const editorTabs = ["content", "settings", "categories", "seo", "preview"] as const
export type EditorTab = (typeof editorTabs)[number]

export const flagNames = ["isSponsored", "isFeatured", "isEditorsChoice", "isTrending", "isResearch", "isReview"] as const
export type FlagName = (typeof flagNames)[number]

/** Everything the five tabs edit, as the form holds it. */
export interface PostDraft {
  readonly title: string
  readonly content: string
  readonly excerpt: string
  readonly featuredImage: string
  readonly status: "draft" | "published" | "scheduled"
  /** `datetime-local` text ("2026-11-22T10:30"), in the browser's time zone; "" when unset. */
  readonly scheduledAt: string
  readonly authorUsername: string
  readonly authorCredentials: string
  readonly categories: ReadonlyArray<string>
  readonly tags: ReadonlyArray<string>
  readonly seoTitle: string
  readonly seoDescription: string
  readonly seoKeywords: ReadonlyArray<string>
  readonly flags: Readonly<Record<FlagName, boolean>>
  readonly sponsorName: string
  readonly sponsorLogo: string
  readonly sponsorUrl: string
}

/** A field of the draft, as the editor shows it. */
export type DraftField = keyof PostDraft

/**
 * Problems by field: the spec's own sentences ("Title is required") or the contract's words
 * for what follows the field's label ("must be at most 200 characters"), which the editor puts
 * after the label (docs/architecture.md, "Forms").
 */
export type FieldErrors = Partial<Record<DraftField, string>>

/**
 * The tab of each field, in the order the editor shows them: the first field with a problem is
 * the one the editor opens and puts the cursor in.
 */
export const tabOfField: Readonly<Record<DraftField, EditorTab>> = {
  title: "content",
  content: "content",
  excerpt: "content",
  featuredImage: "content",
  status: "settings",
  scheduledAt: "settings",
  authorUsername: "settings",
  authorCredentials: "settings",
  categories: "categories",
  flags: "categories",
  sponsorName: "categories",
  sponsorLogo: "categories",
  sponsorUrl: "categories",
  tags: "categories",
  seoTitle: "seo",
  seoDescription: "seo",
  seoKeywords: "seo"
}

const fieldOrder = Object.keys(tabOfField) as ReadonlyArray<DraftField>

/** The first field with a problem, in the order the editor shows them. */
export const firstInvalid = (errors: FieldErrors): DraftField | undefined => fieldOrder.find((field) => errors[field] !== undefined)

/**
 * The draft field that answers for a problem at `path` of what is sent (contract/blog.ts,
 * `BlogPostInput`): `author.credentials` is the credentials field, `sponsorInfo.url` the
 * sponsor's URL, `tags.3` the tags; undefined for a path no field shows.
 */
export const draftFieldOf = (path: string): DraftField | undefined => {
  const [head = "", part] = path.split(".")
  if (head === "author") return part === "credentials" ? "authorCredentials" : "authorUsername"
  if (head === "sponsorInfo") return part === "logo" ? "sponsorLogo" : part === "url" ? "sponsorUrl" : "sponsorName"
  if ((flagNames as ReadonlyArray<string>).includes(head)) return "flags"
  return head in tabOfField ? (head as DraftField) : undefined
}

/** An instant as `datetime-local` text in the browser's time zone. */
export const toLocalInput = localInput

export const emptyDraft: PostDraft = {
  title: "",
  content: "",
  excerpt: "",
  featuredImage: "",
  status: "draft",
  scheduledAt: "",
  authorUsername: "",
  authorCredentials: "",
  categories: [],
  tags: [],
  seoTitle: "",
  seoDescription: "",
  seoKeywords: [],
  flags: { isSponsored: false, isFeatured: false, isEditorsChoice: false, isTrending: false, isResearch: false, isReview: false },
  sponsorName: "",
  sponsorLogo: "",
  sponsorUrl: ""
}

export const draftOf = (post: BlogPost): PostDraft => ({
  title: post.title,
  content: post.content,
  excerpt: post.excerpt,
  featuredImage: post.featuredImage,
  status: post.status === "archived" ? "draft" : post.status,
  scheduledAt: toLocalInput(post.scheduledAt),
  authorUsername: post.author.username,
  authorCredentials: post.author.credentials ?? "",
  categories: post.categories,
  tags: post.tags,
  seoTitle: post.seoTitle,
  seoDescription: post.seoDescription,
  seoKeywords: post.seoKeywords,
  flags: Object.fromEntries(flagNames.map((flag) => [flag, post[flag]])) as Record<FlagName, boolean>,
  sponsorName: post.sponsorInfo?.name ?? "",
  sponsorLogo: post.sponsorInfo?.logo ?? "",
  sponsorUrl: post.sponsorInfo?.url ?? ""
})

/** The spec's checks, before anything is sent; the server repeats them. */
export const validate = (draft: PostDraft): FieldErrors => ({
  ...(draft.title.trim() === "" ? { title: blogMessages.titleRequired } : {}),
  ...(textOf(draft.content).trim() === "" ? { content: blogMessages.contentRequired } : {}),
  ...(draft.status === "scheduled" && Number.isNaN(Date.parse(draft.scheduledAt)) ? { scheduledAt: blogMessages.scheduleRequired } : {})
})

/** docs/product-spec.md §8: "Error saving post: {message}", falling back to "Failed to save blog post", then "Unknown error". */
export const saveFailureText = (error: unknown): string => {
  const failure = failureOf(error)
  const message = failure.message.trim() !== "" ? failure.message : failure.status === undefined ? "Unknown error" : "Failed to save blog post"
  return `Error saving post: ${message}`
}

/**
 * A refused save, as the editor shows it: each problem the refusal names (the console's own
 * contract check before sending, or the server's 400) under its field, and the banner only for
 * what no field shows, or for a refusal that names none.
 */
export const refusalOf = (error: unknown): { readonly errors: FieldErrors; readonly banner: string | null } => {
  const issues = issuesOf(error)
  if (issues.length === 0) return { errors: {}, banner: saveFailureText(error) }
  const errors: Partial<Record<DraftField, string>> = {}
  const stray: Array<string> = []
  for (const issue of issues) {
    const field = draftFieldOf(issue.path)
    if (field === undefined) stray.push(issue.path === "" ? issue.message : `${issue.path} ${issue.message}`)
    else errors[field] ??= issue.message
  }
  return { errors, banner: stray.length === 0 ? null : `Error saving post: ${stray.join("; ")}` }
}

export const isDirty = (context: Pick<BlogEditorContext, "draft" | "baseline">) => JSON.stringify(context.draft) !== JSON.stringify(context.baseline)

export interface BlogEditorContext {
  /** The stored post, or null until a new one is first saved. */
  readonly post: BlogPost | null
  readonly draft: PostDraft
  /** The draft as last loaded or saved: the form is dirty when it differs. */
  readonly baseline: PostDraft
  readonly tab: EditorTab
  readonly errors: FieldErrors
  /** Counts the times problems were shown: each time, the editor puts the cursor in the first. */
  readonly shown: number
  readonly error: string | null
  /** Where the person asked to go while the form was dirty. */
  readonly leaveTo: string | null
  /** The draft being saved, while a save runs: it becomes the baseline when the save succeeds. */
  readonly sending: PostDraft | null
}

export type BlogEditorEvent =
  | { readonly type: "SET_TAB"; readonly tab: EditorTab }
  | { readonly type: "CHANGE"; readonly patch: Partial<PostDraft> }
  | { readonly type: "SAVE" }
  | { readonly type: "PUBLISH" }
  | { readonly type: "LEAVE"; readonly to: string }
  | { readonly type: "CONFIRM_LEAVE" }
  | { readonly type: "STAY" }
  | { readonly type: "DISMISS_ERROR" }

export interface BlogEditorInput {
  readonly post: BlogPost | null
  readonly defaults?: Partial<PostDraft>
}

/**
 * The post editor (docs/product-spec.md §2 "Blog post editor", section 4 "Editor save"): the open tab,
 * the draft and whether it changed, the checks, the save (create, or update by slug when the
 * post exists) and the question before leaving with unsaved changes.
 */
const blogEditorSetup = setup({
  types: {} as { context: BlogEditorContext; events: BlogEditorEvent; input: BlogEditorInput },
  actors: {
    save: fromPromise<BlogPost, { readonly post: BlogPost | null; readonly draft: PostDraft }>(() => Promise.reject(new Error("save not provided")))
  },
  actions: {
    setTab: assign({ tab: (_, params: { readonly tab: EditorTab }) => params.tab }),
    change: assign(({ context }, params: { readonly patch: Partial<PostDraft> }) => {
      const draft = { ...context.draft, ...params.patch }
      if (Object.keys(context.errors).length === 0) return { draft }
      // Once shown, a changed field's message follows it as it is corrected: the spec's checks
      // run again on it, and a refusal's message goes (the next save checks it again).
      const touched = new Set<string>(Object.keys(params.patch))
      if (touched.has("status")) touched.add("scheduledAt")
      const again = validate(draft)
      const errors = Object.fromEntries(
        fieldOrder.flatMap((field) => {
          const message = touched.has(field) ? again[field] : context.errors[field]
          return message === undefined ? [] : [[field, message]]
        })
      ) as FieldErrors
      return { draft, errors }
    }),
    showErrors: assign(({ context }) => {
      const errors = validate(context.draft)
      const first = firstInvalid(errors)
      return { errors, shown: context.shown + 1, tab: first === undefined ? context.tab : tabOfField[first] }
    })
  },
  guards: {
    invalid: ({ context }) => Object.keys(validate(context.draft)).length > 0,
    dirty: ({ context }) => isDirty(context)
  }
})

/** Typing and switching tabs work while a save runs too: nothing typed is lost. */
const typing = {
  SET_TAB: { actions: { type: "setTab", params: ({ event }: { readonly event: { readonly tab: EditorTab } }) => ({ tab: event.tab }) } },
  CHANGE: { actions: { type: "change", params: ({ event }: { readonly event: { readonly patch: Partial<PostDraft> } }) => ({ patch: event.patch }) } }
} as const

export const blogEditorMachine = blogEditorSetup.createMachine({
  context: ({ input }) => {
    const draft = input.post === null ? { ...emptyDraft, ...input.defaults } : draftOf(input.post)
    return { post: input.post, draft, baseline: draft, tab: "content", errors: {}, shown: 0, error: null, leaveTo: null, sending: null }
  },
  initial: "editing",
  states: {
    editing: {
      on: {
        ...typing,
        SAVE: [{ guard: "invalid", actions: "showErrors" }, { target: "saving" }],
        PUBLISH: {
          target: "validatingPublish",
          actions: assign({ draft: ({ context }) => ({ ...context.draft, status: "published" as const }) })
        },
        LEAVE: [
          { guard: "dirty", target: "confirmingLeave", actions: assign({ leaveTo: ({ event }) => event.to }) },
          { target: "left", actions: assign({ leaveTo: ({ event }) => event.to }) }
        ],
        DISMISS_ERROR: { actions: assign({ error: null }) }
      }
    },
    validatingPublish: {
      always: [{ guard: "invalid", target: "editing", actions: "showErrors" }, { target: "saving" }]
    },
    saving: {
      entry: assign(({ context }) => ({ errors: {}, error: null, sending: context.draft })),
      on: { ...typing },
      invoke: {
        id: "save",
        src: "save",
        input: ({ context }) => ({ post: context.post, draft: context.draft }),
        onDone: {
          target: "editing",
          actions: assign(({ context, event }) => ({
            post: event.output,
            baseline: context.sending ?? context.draft,
            sending: null
          }))
        },
        onError: {
          target: "editing",
          actions: assign(({ context, event }) => {
            const { errors, banner } = refusalOf(event.error)
            const first = firstInvalid(errors)
            return {
              sending: null,
              error: banner,
              errors,
              shown: first === undefined ? context.shown : context.shown + 1,
              tab: first === undefined ? context.tab : tabOfField[first]
            }
          })
        }
      }
    },
    confirmingLeave: {
      on: {
        CONFIRM_LEAVE: "left",
        STAY: { target: "editing", actions: assign({ leaveTo: null }) }
      }
    },
    left: { type: "final" }
  }
})
