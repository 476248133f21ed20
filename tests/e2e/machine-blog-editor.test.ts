import type { BrowserContext, Page, Request, Route } from "playwright-core"
import { describe, expect } from "vitest"
import type { EventObject } from "xstate"
import { blogEditorMachine } from "../../machines/blog-editor.ts"
import { blogEditorTable } from "../spec/machine-tables.ts"
import { call } from "../support/http.ts"
import { drivesEveryPath, type MachineModel, type MachineSnapshot, type ScreenDriver } from "../support/screen-model.ts"
import { product, token, nextNumber, firstHeld, pathPage, closeRun, pathHarness, serverFails } from "../support/machine-screens.ts"

pathHarness()

/**
 * The blog editor machine's generated paths, executed on the real screen in Chromium against the real
 * server (docs/testing.md, "Machines"), on the shared harness (tests/support/machine-screens.ts).
 */
describe("blog editor: generated paths on /blog/new and a post's edit screen", () => {
  interface EditorContext {
    readonly post: unknown
    readonly draft: { readonly title: string; readonly content: string; readonly status: string }
    readonly baseline: unknown
    readonly tab: string
    readonly errors: Record<string, string>
    readonly error: string | null
    readonly leaveTo: string | null
  }
  const contextOf = (snapshot: MachineSnapshot) => snapshot.context as EditorContext
  const dirtyOf = (context: EditorContext) => JSON.stringify(context.draft) !== JSON.stringify(context.baseline)
  const stored = {
    _id: "p",
    title: "TITLE",
    slug: "title",
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
  const model: MachineModel<typeof blogEditorMachine> = {
    machine: blogEditorMachine,
    inputs: [{ post: null }, { post: stored }],
    actorIds: ["save"],
    // Told apart by what the guards read (valid, dirty) and what the screen shows differently
    // (a stored post or a new one, an error); the tab is one step away from anywhere.
    key: (snapshot) => {
      const context = contextOf(snapshot)
      const valid = context.draft.title.trim() !== "" && context.draft.content !== ""
      return JSON.stringify([snapshot.value, dirtyOf(context), valid, context.error !== null, context.post === null])
    },
    // The title and body are on the Content tab: a person types there only while it is shown.
    events: (snapshot) =>
      [
        ...(contextOf(snapshot).tab === "content"
          ? [
              { type: "CHANGE", patch: { title: "  " } },
              { type: "CHANGE", patch: { title: "TITLE" } },
              ...(contextOf(snapshot).draft.content === "" ? [{ type: "CHANGE", patch: { content: "<p>Body</p>" } }] : [])
            ]
          : [{ type: "SET_TAB", tab: "content" }]),
        { type: "SET_TAB", tab: "settings" },
        { type: "SAVE" },
        { type: "PUBLISH" },
        { type: "LEAVE", to: "/blog" },
        { type: "CONFIRM_LEAVE" },
        { type: "STAY" },
        { type: "DISMISS_ERROR" },
        { type: "xstate.done.actor.save", output: { ...stored, version: 2 } },
        { type: "xstate.error.actor.save", error: { status: 409, message: "stale" } }
      ] as ReadonlyArray<EventObject>
  }

  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    /** What "TITLE" stands for on this path: a title (and so a slug) no other path uses. */
    readonly title: string
    /** The post this path edits, when it starts from a stored one. */
    readonly slug: string | null
    readonly held: Array<{ readonly route: Route; readonly request: Request }>
  }

  const heading = (run: Run, name: string) => run.page.getByRole("heading", { level: 1, name })
  const titleField = (run: Run) => run.page.getByLabel("Title", { exact: true })
  const nextHeld = (run: Run) => firstHeld(run.held)
  const serverPost = async (slug: string) => {
    const answer = await call(product.server.url, "GET", `/api/blog/posts/${slug}`, { token })
    return answer.status === 200 ? (answer.body as { post: { title: string; status: string; version: number } }).post : undefined
  }

  const driver: ScreenDriver<Run> = {
    open: async (path) => {
      const { context, page, errors } = await pathPage()
      const title = `Model post ${nextNumber()}`
      let slug: string | null = null
      if ((path.input as { post: unknown }).post !== null) {
        const made = await call(product.server.url, "POST", "/api/blog/admin/posts", { token, body: { title, content: "<p>Body</p>", status: "draft" } })
        expect(made.status).toBe(200)
        slug = (made.body as { post: { slug: string } }).post.slug
      }
      const run: Run = { context, page, errors, title, slug, held: [] }
      await page.route("**/api/blog/admin/posts**", (route, request) =>
        request.method() === "GET" ? void route.continue() : void run.held.push({ route, request })
      )
      await page.goto(`${product.server.url}${slug === null ? "/blog/new" : `/blog/${slug}/edit`}`)
      await heading(run, slug === null ? "Create New Post" : "Edit Post").waitFor()
      await run.page.getByRole("textbox", { name: "Content" }).waitFor()
      return run
    },
    close: closeRun,
    act: {
      SET_TAB: async (run, event) =>
        run.page.getByRole("tab", { name: (event as unknown as { tab: string }).tab === "settings" ? "Settings" : "Content" }).click(),
      CHANGE: async (run, event) => {
        const patch = (event as unknown as { patch: { title?: string; content?: string } }).patch
        if (patch.title !== undefined) await titleField(run).fill(patch.title === "TITLE" ? run.title : patch.title)
        else {
          await run.page.getByRole("textbox", { name: "Content" }).click()
          await run.page.keyboard.type("Body")
        }
      },
      SAVE: async (run) => run.page.getByRole("button", { name: "Save", exact: true }).click(),
      PUBLISH: async (run) => {
        await run.page.keyboard.press("Control+k")
        await run.page.keyboard.type("Publish")
        await run.page
          .getByRole("option")
          .filter({ hasText: /^Publish/ })
          .first()
          .waitFor()
        await run.page.keyboard.press("Enter")
      },
      LEAVE: async (run) => run.page.getByRole("button", { name: "Cancel" }).click(),
      CONFIRM_LEAVE: async (run) => run.page.getByRole("alertdialog").getByRole("button", { name: "Leave" }).click(),
      STAY: async (run) => run.page.getByRole("alertdialog").getByRole("button", { name: "Keep editing" }).click(),
      DISMISS_ERROR: async (run) => run.page.getByRole("alert").getByRole("button", { name: "Dismiss" }).click(),
      "xstate.done.actor.save": async (run) => (await nextHeld(run)).route.continue(),
      "xstate.error.actor.save": async (run, _event, before) => {
        const held = await nextHeld(run)
        if (contextOf(before).post === null) await serverFails(held.route)
        else {
          // Someone else saves the post first: the screen's version is stale.
          const slug = decodeURIComponent(new URL(run.page.url()).pathname.split("/")[2] ?? "")
          const current = await serverPost(slug)
          const answer = await call(product.server.url, "PUT", `/api/blog/admin/posts/${slug}`, {
            token,
            body: { title: current?.title ?? run.title, content: "<p>Body elsewhere</p>", status: "draft", version: current?.version }
          })
          expect(answer.status).toBe(200)
          await held.route.continue()
        }
      }
    },
    see: {
      editing: async (run, snapshot, event) => {
        const context = contextOf(snapshot)
        await heading(run, context.post === null ? "Create New Post" : "Edit Post").waitFor()
        await run.page.getByRole("alertdialog").waitFor({ state: "detached" })
        await expect
          .poll(() => run.page.getByRole("tab", { name: context.tab === "settings" ? "Settings" : "Content" }).getAttribute("aria-selected"))
          .toBe("true")
        const unsaved = run.page.getByText("Unsaved changes", { exact: true })
        await expect.poll(() => unsaved.isVisible()).toBe(dirtyOf(context))
        // The errors are on the Content tab: seen there, kept while another tab is shown.
        const shown = context.tab === "content" ? "visible" : "attached"
        if (context.errors.title !== undefined) await run.page.getByText("Title is required", { exact: true }).waitFor({ state: shown })
        if (context.errors.content !== undefined) await run.page.getByText("Content is required", { exact: true }).waitFor({ state: shown })
        if (context.error === null) await run.page.getByRole("alert").filter({ hasText: "Error saving post" }).waitFor({ state: "detached" })
        if (event?.type === "xstate.error.actor.save") {
          const expected =
            context.post === null ? "Error saving post: Failed to fetch" : "Error saving post: This post was changed by someone else since you read it."
          await run.page.getByRole("alert").getByText(expected).waitFor()
        }
        if (event?.type === "xstate.done.actor.save") {
          // The server holds what was saved, at the address the screen moved to.
          // "Saved" shows on the same editor: the first save of a new post does not reopen it.
          await run.page
            .getByRole("status")
            .filter({ hasText: /^Saved$/ })
            .waitFor()
          await run.page.waitForURL((url) => /^\/blog\/[^/]+\/edit$/.test(url.pathname))
          const slug = decodeURIComponent(new URL(run.page.url()).pathname.split("/")[2] ?? "")
          await expect.poll(async () => (await serverPost(slug))?.title).toBe(run.title)
        }
      },
      saving: async (run, snapshot) => {
        const saving = run.page.getByRole("button", { name: "Saving..." })
        await saving.waitFor()
        expect(await saving.isDisabled()).toBe(true)
        const held = await nextHeld(run)
        run.held.unshift(held)
        // What is sent is what the form shows, with the status a Publish asks for.
        expect(held.request.postDataJSON()).toMatchObject({ title: run.title, status: contextOf(snapshot).draft.status })
      },
      confirmingLeave: async (run) => {
        await run.page.getByRole("alertdialog").getByRole("heading", { name: "Leave without saving?" }).waitFor()
      },
      left: async (run) => {
        await run.page.waitForURL((url) => url.pathname === "/blog")
        await run.page.getByRole("heading", { level: 1, name: "Blog Management" }).waitFor()
      }
    }
  }

  drivesEveryPath("blog editor", model, blogEditorTable, driver, 600_000)
})
