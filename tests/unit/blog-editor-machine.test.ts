import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import type { BlogPost } from "../../contract/blog.ts"
import { blogMessages } from "../spec/texts.ts"
import {
  blogEditorMachine,
  type BlogEditorContext,
  type BlogEditorEvent,
  draftFieldOf,
  draftOf,
  firstInvalid,
  isDirty,
  refusalOf,
  saveFailureText,
  toLocalInput,
  validate
} from "../../machines/blog-editor.ts"
import { blogEditorTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const stored: BlogPost = {
  _id: "p1",
  title: "Mainnet",
  slug: "mainnet",
  excerpt: "",
  content: "<p>Body</p>",
  featuredImage: "",
  categories: [],
  tags: [],
  status: "draft",
  publishedAt: null,
  scheduledAt: null,
  seoTitle: "",
  seoDescription: "",
  seoKeywords: [],
  isSponsored: false,
  isFeatured: false,
  isEditorsChoice: false,
  isTrending: false,
  isResearch: false,
  isReview: false,
  sponsorInfo: null,
  views: 0,
  readingTime: 1,
  author: { username: "Ada" },
  createdAt: "2026-11-22T08:00:00.000Z",
  updatedAt: "2026-11-22T08:00:00.000Z",
  version: 1
}
const saved = { ...stored, version: 2 }

type ModelEvent = BlogEditorEvent | ReturnType<typeof actorDone> | ReturnType<typeof actorError>

/**
 * The events offered. The form's fields are independent of each other in the machine, so the
 * model varies one (the title: filled, blank) and leaves the rest to the example tests below;
 * that keeps every snapshot exact and the model small.
 */
const events = (): ReadonlyArray<ModelEvent> => [
  { type: "SET_TAB", tab: "settings" },
  { type: "CHANGE", patch: { title: "  " } },
  { type: "CHANGE", patch: { title: "Mainnet" } },
  { type: "SAVE" },
  { type: "PUBLISH" },
  { type: "LEAVE", to: "/blog" },
  { type: "CONFIRM_LEAVE" },
  { type: "STAY" },
  { type: "DISMISS_ERROR" },
  actorDone("save", saved),
  actorError("save", { status: 409, message: blogMessages.stale })
]

describe("blog editor machine, model-based", () => {
  it("replays a generated path to every reachable state and covers every transition", async () => {
    const run = await runModel({
      machine: blogEditorMachine,
      table: blogEditorTable,
      inputs: [{ post: null, defaults: { content: "<p>Body</p>" } }, { post: stored }],
      events: () => events(),
      actorIds: ["save"],
      // Snapshots differ for the screen by state, tab, dirtiness, the errors shown and whether the post exists.
      key: (snapshot) => {
        const context = snapshot.context
        return JSON.stringify([
          snapshot.value,
          context.tab,
          isDirty(context),
          Object.keys(context.errors).sort(),
          context.error !== null,
          context.post === null,
          context.draft.title.trim() === "",
          context.leaveTo
        ])
      },
      // A form's context is open-ended: states are told apart by what the screen shows of it.
      check: (expected, actual) => {
        expect(actual.value).toEqual(expected.value)
        expect(actual.context).toEqual(expected.context)
        const context = actual.context as BlogEditorContext
        // What the screen relies on, at every step of every path.
        if (actual.value === "saving") expect(Object.keys(validate(context.sending!))).toEqual([])
        if (actual.value === "confirmingLeave") expect(isDirty(context)).toBe(true)
        if (context.errors.title !== undefined || context.errors.content !== undefined) expect(context.tab).not.toBe("preview")
      }
    })
    expectFullCoverage("blog editor", run)
  })

  it("checks before saving, shows the tab holding the first problem, and words failures as the spec does", async () => {
    const outcomes: Array<{ ok: boolean; value: unknown }> = []
    const actor = createActor(
      blogEditorMachine.provide({
        actors: {
          save: fromPromise(() => {
            const next = outcomes.shift()!
            return next.ok ? Promise.resolve(next.value as BlogPost) : Promise.reject(next.value)
          })
        }
      }),
      { input: { post: null } }
    ).start()
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
    actor.send({ type: "SET_TAB", tab: "seo" })
    actor.send({ type: "SAVE" })
    expect(actor.getSnapshot().context).toMatchObject({
      tab: "content",
      errors: { title: blogMessages.titleRequired, content: blogMessages.contentRequired }
    })
    actor.send({ type: "CHANGE", patch: { title: "T", content: "<p>x</p>", status: "scheduled" } })
    actor.send({ type: "SAVE" })
    expect(actor.getSnapshot().context).toMatchObject({ tab: "settings", errors: { scheduledAt: blogMessages.scheduleRequired } })
    actor.send({ type: "CHANGE", patch: { scheduledAt: "2026-11-22T10:30" } })
    outcomes.push({ ok: false, value: { status: 500, message: "" } })
    actor.send({ type: "SAVE" })
    await settle()
    expect(actor.getSnapshot().context.error).toBe("Error saving post: Failed to save blog post")
    outcomes.push({ ok: true, value: saved })
    actor.send({ type: "SAVE" })
    // Typing while the save runs is kept, and keeps the form dirty afterwards.
    actor.send({ type: "CHANGE", patch: { excerpt: "typed during the save" } })
    await settle()
    expect(actor.getSnapshot().value).toBe("editing")
    expect(actor.getSnapshot().context.draft.excerpt).toBe("typed during the save")
    expect(isDirty(actor.getSnapshot().context)).toBe(true)
    actor.send({ type: "LEAVE", to: "/blog" })
    expect(actor.getSnapshot().value).toBe("confirmingLeave")
  })

  it("puts a refusal's problems under their fields, opens the first one's tab and asks for the focus, with a banner only for what no field shows", async () => {
    const actor = createActor(
      blogEditorMachine.provide({
        actors: {
          save: fromPromise(() =>
            Promise.reject({
              status: 400,
              message: "Invalid request",
              issues: [
                { path: "seoKeywords.2", message: "must be at most 200 characters" },
                { path: "author.credentials", message: "must be at most 200 characters" },
                { path: "sponsorInfo.url", message: "must be an http(s) address" },
                { path: "version", message: "must be a whole number" }
              ]
            })
          )
        }
      }),
      { input: { post: null } }
    ).start()
    actor.send({ type: "CHANGE", patch: { title: "T", content: "<p>x</p>" } })
    actor.send({ type: "SAVE" })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(actor.getSnapshot().context).toMatchObject({
      tab: "settings",
      shown: 1,
      errors: { seoKeywords: "must be at most 200 characters", authorCredentials: "must be at most 200 characters", sponsorUrl: "must be an http(s) address" },
      error: "Error saving post: version must be a whole number"
    })
    // Correcting one field takes its message away and leaves the others.
    actor.send({ type: "CHANGE", patch: { authorCredentials: "Editor" } })
    expect(Object.keys(actor.getSnapshot().context.errors).sort()).toEqual(["seoKeywords", "sponsorUrl"])
    expect(refusalOf({ status: 400, message: "x", issues: [{ path: "title", message: "must be at most 200 characters" }] })).toEqual({
      errors: { title: "must be at most 200 characters" },
      banner: null
    })
    expect(refusalOf({ status: 500, message: "boom" })).toEqual({ errors: {}, banner: "Error saving post: boom" })
    expect(firstInvalid({ seoTitle: "x", excerpt: "y" })).toBe("excerpt")
    expect(draftFieldOf("isFeatured")).toBe("flags")
    expect(draftFieldOf("nonsense")).toBeUndefined()
  })

  it("words save failures with the spec's fallbacks", () => {
    expect(saveFailureText({ status: 409, message: blogMessages.stale })).toBe(`Error saving post: ${blogMessages.stale}`)
    expect(saveFailureText({ status: undefined, message: "" })).toBe("Error saving post: Unknown error")
    expect(saveFailureText(new Error("Failed to fetch"))).toBe("Error saving post: Failed to fetch")
  })

  it("loads a stored post into the same draft it would save, not dirty", () => {
    const post = { ...stored, status: "scheduled" as const, scheduledAt: "2026-11-22T10:30:00.000Z" }
    const draft = draftOf(post)
    expect(new Date(draft.scheduledAt).toISOString()).toBe(post.scheduledAt)
    expect(toLocalInput(null)).toBe("")
    const actor = createActor(blogEditorMachine, { input: { post } }).start()
    expect(isDirty(actor.getSnapshot().context)).toBe(false)
  })

  it("opens the tab that holds the field a refusal names, for every field of the editor", async () => {
    // The editor's four tabs (docs/product-spec.md §2 "Blog post editor"), field by field.
    const tabs = {
      content: ["title", "content", "excerpt", "featuredImage"],
      settings: ["status", "scheduledAt", "author.username", "author.credentials"],
      categories: ["categories", "isSponsored", "sponsorInfo.name", "sponsorInfo.logo", "sponsorInfo.url", "tags.0"],
      seo: ["seoTitle", "seoDescription", "seoKeywords.0"]
    }
    for (const [tab, paths] of Object.entries(tabs)) {
      for (const path of paths) {
        const refused = { status: 400, message: "Invalid request", issues: [{ path, message: "is refused" }] }
        const actor = createActor(blogEditorMachine.provide({ actors: { save: fromPromise(() => Promise.reject(refused)) } }), {
          input: { post: stored }
        }).start()
        actor.send({ type: "SET_TAB", tab: tab === "seo" ? "content" : "seo" })
        actor.send({ type: "SAVE" })
        await new Promise((resolve) => setTimeout(resolve, 0))
        expect([path, actor.getSnapshot().context.tab, Object.values(actor.getSnapshot().context.errors)]).toEqual([path, tab, ["is refused"]])
      }
    }
    expect(["author", "sponsorInfo", "sponsorInfo.logo"].map(draftFieldOf)).toEqual(["authorUsername", "sponsorName", "sponsorLogo"])
  })

  it("says in the banner, one after another, the problems no field shows", () => {
    const issues = [
      { path: "", message: "Post is too large" },
      { path: "version", message: "must be a whole number" }
    ]
    expect(refusalOf({ status: 400, message: "Invalid request", issues })).toEqual({
      errors: {},
      banner: "Error saving post: Post is too large; version must be a whole number"
    })
  })

  it("keeps a refused schedule's message while other fields change, and asks for the focus again at each refused save", async () => {
    const refused = { status: 400, message: "Invalid request", issues: [{ path: "scheduledAt", message: "must be in the future" }] }
    const actor = createActor(blogEditorMachine.provide({ actors: { save: fromPromise(() => Promise.reject(refused)) } }), { input: { post: stored } }).start()
    actor.send({ type: "SAVE" })
    await new Promise((resolve) => setTimeout(resolve, 0))
    actor.send({ type: "CHANGE", patch: { title: "Another title" } })
    expect(actor.getSnapshot().context.errors).toEqual({ scheduledAt: "must be in the future" })
    const blank = createActor(blogEditorMachine, { input: { post: null } }).start()
    blank.send({ type: "SAVE" })
    blank.send({ type: "SAVE" })
    expect(blank.getSnapshot().context.shown).toBe(2)
  })

  it("keeps the editor open with the banner when the console gave it no save call", async () => {
    const actor = createActor(blogEditorMachine, { input: { post: stored } }).start()
    actor.send({ type: "SAVE" })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(actor.getSnapshot().value).toBe("editing")
    expect(actor.getSnapshot().context.error).toBe("Error saving post: save not provided")
  })
})
