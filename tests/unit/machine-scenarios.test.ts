import { describe, expect, it } from "vitest"
import { type AnyStateMachine, createActor, fromPromise } from "xstate"
import { addressModalMachine } from "../../machines/address-modal.ts"
import { authMachine } from "../../machines/auth.ts"
import { blogEditorMachine } from "../../machines/blog-editor.ts"
import { failureOf, serverMessageOf } from "../../contract/call-failure.ts"
import { listMachine, queryKey } from "../../machines/list.ts"
import { uploadMachine } from "../../machines/upload.ts"

/**
 * Scenarios written from docs/product-spec.md and docs/decisions.md, with every context and
 * every call's input spelled out: what each step must carry forward, which the generated paths
 * (comparing a machine with itself) cannot check. Texts are the spec's, written out.
 */

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Promise actors that record what they were called with and answer from a queue the test fills. */
const calls = () => {
  const inputs: Record<string, Array<unknown>> = {}
  const answers: Record<string, Array<{ readonly ok: boolean; readonly value: unknown }>> = {}
  const actor = (id: string): never =>
    fromPromise(async ({ input }: { input: unknown }) => {
      ;(inputs[id] ??= []).push(input)
      const answer = answers[id]?.shift()
      // No answer queued: the call stays in flight.
      if (answer === undefined) return new Promise(() => undefined)
      if (answer.ok) return answer.value
      throw answer.value
    }) as never
  const answer = (id: string, ok: boolean, value: unknown) => void (answers[id] ??= []).push({ ok, value })
  return { inputs, actor, answer }
}

const started = <M extends AnyStateMachine>(machine: M, input?: unknown) => {
  const actor = createActor(machine, { input } as never)
  actor.start()
  return actor
}

describe("how a failed call reads", () => {
  it("keeps the server's status and words, and words anything else as a network failure", () => {
    expect(failureOf({ status: 409, message: "stale" })).toEqual({ status: 409, message: "stale" })
    expect(failureOf({ status: "409", message: "odd" })).toEqual({ status: undefined, message: "odd" })
    expect(failureOf({ message: "Failed to fetch" })).toEqual({ status: undefined, message: "Failed to fetch" })
    expect(failureOf(new TypeError("Failed to fetch"))).toEqual({ status: undefined, message: "Failed to fetch" })
    expect(failureOf("boom")).toEqual({ status: undefined, message: "boom" })
    expect(failureOf(null)).toEqual({ status: undefined, message: "null" })
    expect(failureOf(undefined)).toEqual({ status: undefined, message: "undefined" })
    expect(failureOf(42)).toEqual({ status: undefined, message: "42" })
    expect(serverMessageOf({ status: 400, message: "duplicate" })).toBe("duplicate")
    expect(serverMessageOf({ message: "Failed to fetch" })).toBeNull()
  })
})

describe("auth, step by step", () => {
  const user = { _id: "u1", email: "ada@example.com", name: null, role: "admin" }
  const signedOut = {
    token: null,
    user: null,
    remembered: null,
    email: "",
    error: null,
    resendAfterSeconds: null,
    attempt: null,
    step: null,
    recoveryCodes: false,
    passkeyDueBy: null
  }

  it("checks a stored token, signs out, signs in again with a code, and ends on an expired session", async () => {
    const { inputs, actor, answer } = calls()
    const stored: Array<unknown> = []
    let forgotten = 0
    answer("checkSession", true, user)
    const session = started(
      authMachine.provide({
        actors: { checkSession: actor("checkSession"), requestOtp: actor("requestOtp"), verifyOtp: actor("verifyOtp"), endSession: actor("endSession") },
        actions: { storeSession: ({ context }) => void stored.push({ token: context.token }), forgetSession: () => void forgotten++ }
      }),
      { storedToken: "tok-1" }
    )
    expect(session.getSnapshot().value).toBe("checking")
    expect(inputs.checkSession).toEqual([{ token: "tok-1" }])
    await settle()
    expect(session.getSnapshot().value).toEqual({ authenticated: "confirmed" })
    expect(session.getSnapshot().context).toEqual({
      token: "tok-1",
      user,
      remembered: null,
      email: "",
      role: "super_admin",
      error: null,
      resendAfterSeconds: null,
      attempt: null,
      step: null,
      recoveryCodes: false,
      passkeyDueBy: null
    })

    answer("endSession", true, {})
    session.send({ type: "LOGOUT" })
    // The token goes before the server is told.
    expect(forgotten).toBe(1)
    expect(session.getSnapshot().value).toBe("signingOut")
    expect(inputs.endSession).toEqual([{ token: "tok-1" }])
    await settle()
    expect(session.getSnapshot().value).toBe("unauthenticated")
    expect(session.getSnapshot().context).toEqual({ ...signedOut, role: "super_admin" })

    answer("requestOtp", true, { success: true, requiresOTP: true, attempt: "attempt-1" })
    session.send({ type: "SEND_OTP", email: "ada@example.com", role: "admin" })
    expect(session.getSnapshot().context).toEqual({ ...signedOut, email: "ada@example.com", role: "admin" })
    expect(inputs.requestOtp).toEqual([{ email: "ada@example.com", role: "admin" }])
    await settle()
    expect(session.getSnapshot().value).toBe("otpSent")

    answer("verifyOtp", false, { status: 401, message: "Invalid OTP" })
    session.send({ type: "VERIFY", otp: "000000" })
    // The code goes with the attempt the request's answer named.
    expect(inputs.verifyOtp).toEqual([{ email: "ada@example.com", otp: "000000", attempt: "attempt-1" }])
    await settle()
    expect(session.getSnapshot().value).toBe("otpSent")
    expect(session.getSnapshot().context.error).toBe("Invalid OTP. Please check your email and try again.")

    answer("verifyOtp", true, { token: "tok-2", user })
    session.send({ type: "VERIFY", otp: "123456" })
    // A new attempt clears the last error while it runs.
    expect(session.getSnapshot().context.error).toBeNull()
    expect(inputs.verifyOtp?.[1]).toEqual({ email: "ada@example.com", otp: "123456", attempt: "attempt-1" })
    await settle()
    expect(session.getSnapshot().value).toEqual({ authenticated: "confirmed" })
    expect(session.getSnapshot().context).toEqual({
      token: "tok-2",
      user,
      remembered: null,
      email: "ada@example.com",
      role: "admin",
      error: null,
      resendAfterSeconds: null,
      attempt: "attempt-1",
      step: null,
      recoveryCodes: false,
      passkeyDueBy: null
    })
    expect(stored).toEqual([{ token: "tok-1" }, { token: "tok-2" }])

    session.send({ type: "SESSION_EXPIRED" })
    expect(session.getSnapshot().value).toBe("unauthenticated")
    expect(session.getSnapshot().context).toEqual({ ...signedOut, role: "admin" })
    expect(forgotten).toBe(2)

    // An answer that sent no code ("OTP request returned false") stays on the first step with the spec's words.
    answer("requestOtp", true, { success: false })
    session.send({ type: "SEND_OTP", email: "bob@example.com", role: "moderator" })
    await settle()
    expect(session.getSnapshot().value).toBe("unauthenticated")
    expect(session.getSnapshot().context.error).toBe("Failed to send OTP. Please check your email and try again.")

    // A code asked for again within the minute: the code step says when a new one can be sent.
    answer("requestOtp", true, { success: true, requiresOTP: true, attempt: "attempt-2", resendAfterSeconds: 42 })
    session.send({ type: "SEND_OTP", email: "bob@example.com", role: "moderator" })
    expect(session.getSnapshot().context.error).toBeNull()
    await settle()
    expect(session.getSnapshot().value).toBe("otpSent")
    expect(session.getSnapshot().context.resendAfterSeconds).toBe(42)
    expect(session.getSnapshot().context.attempt).toBe("attempt-2")

    // "Send a new code" from the code step: the same e-mail and role; the step stays whatever comes back.
    answer("requestOtp", false, { status: undefined, message: "Failed to fetch" })
    session.send({ type: "RESEND" })
    expect(session.getSnapshot().value).toBe("resendingOtp")
    expect(inputs.requestOtp?.at(-1)).toEqual({ email: "bob@example.com", role: "moderator" })
    await settle()
    expect(session.getSnapshot().value).toBe("otpSent")
    expect(session.getSnapshot().context.error).toBe("An error occurred while requesting OTP.")
    expect(session.getSnapshot().context.attempt).toBe("attempt-2")
    answer("requestOtp", true, { success: true, requiresOTP: true, attempt: "attempt-3" })
    session.send({ type: "RESEND" })
    expect(session.getSnapshot().context.error).toBeNull()
    await settle()
    expect(session.getSnapshot().value).toBe("otpSent")
    expect(session.getSnapshot().context).toMatchObject({ attempt: "attempt-3", resendAfterSeconds: null, error: null })
    answer("requestOtp", true, { success: false })
    session.send({ type: "RESEND" })
    await settle()
    expect(session.getSnapshot().value).toBe("otpSent")
    expect(session.getSnapshot().context.error).toBe("Failed to send OTP. Please check your email and try again.")
    session.send({ type: "USE_DIFFERENT_EMAIL" })
    expect(session.getSnapshot().value).toBe("unauthenticated")
    expect(session.getSnapshot().context.email).toBe("")
    expect(session.getSnapshot().context.resendAfterSeconds).toBeNull()
    expect(session.getSnapshot().context.attempt).toBeNull()
  })

  it("forgets a stored token the server refuses, and signs out even when the logout call fails", async () => {
    let forgotten = 0
    const refused = started(
      authMachine.provide({
        actors: { checkSession: fromPromise(() => Promise.reject({ status: 401, message: "Session expired" })) as never },
        actions: { forgetSession: () => void forgotten++ }
      }),
      { storedToken: "tok-old" }
    )
    await settle()
    expect(refused.getSnapshot().value).toBe("unauthenticated")
    expect(refused.getSnapshot().context).toEqual({ ...signedOut, role: "super_admin" })
    expect(forgotten).toBe(1)

    const offline = started(
      authMachine.provide({
        actors: {
          checkSession: fromPromise(() => Promise.resolve(user)) as never,
          endSession: fromPromise(() => Promise.reject({ message: "Failed to fetch" })) as never
        }
      }),
      { storedToken: "tok-1" }
    )
    await settle()
    offline.send({ type: "LOGOUT" })
    await settle()
    expect(offline.getSnapshot().value).toBe("unauthenticated")
    expect(offline.getSnapshot().context.token).toBeNull()

    const fresh = started(authMachine, { storedToken: null })
    expect(fresh.getSnapshot().value).toBe("unauthenticated")
    expect(fresh.getSnapshot().context).toEqual({ ...signedOut, role: "super_admin" })
  })

  it("starts a sign-in on the form shown while the server is still hearing the sign-out", async () => {
    const { inputs, actor, answer } = calls()
    const session = started(
      authMachine.provide({
        actors: {
          checkSession: fromPromise(() => Promise.resolve(user)) as never,
          endSession: actor("endSession"),
          passkeySignIn: actor("passkeySignIn"),
          requestOtp: actor("requestOtp")
        }
      }),
      { storedToken: "tok-1" }
    )
    await settle()
    // The logout is in flight (no answer queued): the form shows, and its passkey button signs in.
    session.send({ type: "LOGOUT" })
    expect(session.getSnapshot().value).toBe("signingOut")
    answer("passkeySignIn", true, { token: "tok-2", user })
    session.send({ type: "SIGN_IN_WITH_PASSKEY" })
    expect(session.getSnapshot().value).toBe("signingInWithPasskey")
    expect(session.getSnapshot().context).toEqual({ ...signedOut, role: "super_admin" })
    expect(inputs.endSession).toEqual([{ token: "tok-1" }])
    await settle()
    expect(session.getSnapshot().value).toEqual({ authenticated: "confirmed" })
    expect(session.getSnapshot().context.token).toBe("tok-2")

    // And its code step: the e-mail and role typed go with the request.
    session.send({ type: "LOGOUT" })
    session.send({ type: "SEND_OTP", email: "bob@example.com", role: "moderator" })
    expect(session.getSnapshot().value).toBe("sendingOtp")
    expect(session.getSnapshot().context).toEqual({ ...signedOut, email: "bob@example.com", role: "moderator" })
    expect(inputs.requestOtp).toEqual([{ email: "bob@example.com", role: "moderator" }])
    expect(inputs.endSession).toEqual([{ token: "tok-1" }, { token: "tok-2" }])
  })
})

describe("address modal, step by step", () => {
  const address = { _id: "a1", identifier: "pi-1", Name: "Pi One", Rank: 0, createdAt: "", updatedAt: "", version: 3 }
  const required = ["identifier", "Name"]
  const draft = { identifier: "pi-1", Name: "Pi One" }
  const closed = { address: null, draft: {}, required: [], error: null, errorDetail: null, issues: [], refreshed: false }

  it("opens each mode with the row, saves and deletes with what is shown, and reloads the list once each", async () => {
    const { inputs, actor, answer } = calls()
    let reloads = 0
    const modal = started(
      addressModalMachine.provide({
        actors: { save: actor("save"), remove: actor("remove") },
        actions: { reloadList: () => void reloads++ }
      })
    )
    expect(modal.getSnapshot().context).toEqual(closed)
    for (const type of ["OPEN_VIEW", "OPEN_EDIT", "OPEN_DELETE"] as const) {
      modal.send({ type, address, draft, required })
      expect(modal.getSnapshot().context).toEqual({ address, draft, required, error: null, errorDetail: null, issues: [], refreshed: false })
      modal.send({ type: "CLOSE" })
      expect(modal.getSnapshot().context).toEqual(closed)
    }

    modal.send({ type: "OPEN_ADD", required })
    expect(modal.getSnapshot().context).toEqual({ address: null, draft: {}, required, error: null, errorDetail: null, issues: [], refreshed: false })
    modal.send({ type: "SAVE", draft: { identifier: "pi-9", Name: "   " } })
    // A name of spaces is no name: Save stays refused.
    expect(modal.getSnapshot().value).toBe("editing")
    answer("save", false, { status: 409, message: 'An address with the identifier "pi-9" already exists in this directory.' })
    modal.send({ type: "SAVE", draft: { identifier: "pi-9", Name: "Pi Nine" } })
    expect(inputs.save).toEqual([{ address: null, draft: { identifier: "pi-9", Name: "Pi Nine" } }])
    await settle()
    expect(modal.getSnapshot().context.error).toBe('An address with the identifier "pi-9" already exists in this directory.')
    expect(modal.getSnapshot().context.errorDetail).toBeNull()
    answer("save", true, address)
    modal.send({ type: "SAVE", draft: { identifier: "pi-9", Name: "Pi Nine" } })
    await settle()
    expect(modal.getSnapshot().value).toBe("closed")
    expect(modal.getSnapshot().context).toEqual(closed)
    expect(reloads).toBe(1)

    modal.send({ type: "OPEN_EDIT", address, draft, required })
    answer("save", false, { status: 409, message: "This address was changed by someone else since you read it." })
    modal.send({ type: "SAVE", draft })
    expect(inputs.save?.[2]).toEqual({ address, draft })
    await settle()
    expect(modal.getSnapshot().context).toMatchObject({
      error: "Failed to update address",
      errorDetail: "This address was changed by someone else since you read it."
    })
    modal.send({ type: "CLOSE" })

    modal.send({ type: "OPEN_DELETE", address, draft, required })
    answer("remove", false, { message: "Failed to fetch" })
    modal.send({ type: "CONFIRM_DELETE" })
    expect(inputs.remove).toEqual([{ address }])
    await settle()
    expect(modal.getSnapshot().context).toMatchObject({ error: "Failed to delete address", errorDetail: null })
    answer("remove", true, {})
    modal.send({ type: "CONFIRM_DELETE" })
    await settle()
    expect(modal.getSnapshot().value).toBe("closed")
    expect(reloads).toBe(2)

    // A new address that fails without the server's words says so in the spec's.
    modal.send({ type: "OPEN_ADD", required })
    answer("save", false, { message: "Failed to fetch" })
    modal.send({ type: "SAVE", draft: { identifier: "x", Name: "y" } })
    await settle()
    expect(modal.getSnapshot().context.error).toBe("Failed to create address")
  })
})

describe("image upload, step by step", () => {
  const png = { name: "a.png", type: "image/png", size: 1000 }
  const idle = { file: null, progress: 0, url: null, error: null }

  it("sends the picked file for its area, shows real progress held at 90, and 100 when stored", async () => {
    const { inputs, actor, answer } = calls()
    const upload = started(uploadMachine.provide({ actors: { upload: actor("upload") } }), { type: "events" })
    expect(upload.getSnapshot().context).toEqual({ type: "events", ...idle })
    expect(started(uploadMachine).getSnapshot().context).toEqual({ type: "blog", ...idle })

    upload.send({ type: "PICK", file: png })
    expect(upload.getSnapshot().value).toBe("uploading")
    expect(inputs.upload).toEqual([{ file: png, type: "events" }])
    upload.send({ type: "PROGRESS", loaded: 50, total: 100 })
    expect(upload.getSnapshot().context.progress).toBe(50)
    upload.send({ type: "PROGRESS", loaded: 10, total: 100 })
    expect(upload.getSnapshot().context.progress).toBe(50)
    upload.send({ type: "PROGRESS", loaded: 99, total: 0 })
    expect(upload.getSnapshot().context.progress).toBe(50)
    upload.send({ type: "PROGRESS", loaded: 100, total: 100 })
    expect(upload.getSnapshot().context.progress).toBe(90)
    upload.stop()

    const second = started(uploadMachine.provide({ actors: { upload: actor("upload") } }), { type: "events" })
    answer("upload", true, { url: "/uploads/events/x.png" })
    second.send({ type: "PICK", file: png })
    await settle()
    expect(second.getSnapshot().value).toBe("done")
    expect(second.getSnapshot().context).toEqual({ type: "events", file: png, progress: 100, url: "/uploads/events/x.png", error: null })
    second.send({ type: "RESET" })
    expect(second.getSnapshot().context).toEqual({ type: "events", ...idle })

    answer("upload", false, { status: 500, message: "   " })
    second.send({ type: "PICK", file: png })
    second.send({ type: "PROGRESS", loaded: 30, total: 100 })
    await settle()
    expect(second.getSnapshot().context).toMatchObject({ progress: 0, error: "Upload failed: Upload failed" })
    answer("upload", false, { message: "" })
    second.send({ type: "PICK", file: png })
    await settle()
    expect(second.getSnapshot().context.error).toBe("Upload failed: Unknown error")
    answer("upload", false, { status: 413, message: "File size must be less than 5MB" })
    second.send({ type: "PICK", file: png })
    await settle()
    expect(second.getSnapshot().context.error).toBe("Upload failed: File size must be less than 5MB")

    second.send({ type: "PICK", file: png })
    second.send({ type: "PROGRESS", loaded: 40, total: 100 })
    second.send({ type: "CANCEL" })
    expect(second.getSnapshot().value).toBe("idle")
    expect(second.getSnapshot().context).toEqual({ type: "events", ...idle })
  })

  it("refuses before sending: anything but an image, and more than 5 MB, but exactly 5 MB goes", () => {
    const { inputs, actor } = calls()
    const upload = started(uploadMachine.provide({ actors: { upload: actor("upload") } }))
    upload.send({ type: "PICK", file: { name: "notes.txt", type: "text/plain", size: 10 } })
    expect(upload.getSnapshot().context.error).toBe("Please select a valid image file")
    upload.send({ type: "PICK", file: { name: "big.png", type: "image/png", size: 5 * 1024 * 1024 + 1 } })
    expect(upload.getSnapshot().context.error).toBe("File size must be less than 5MB")
    expect(inputs.upload).toBeUndefined()
    upload.send({ type: "PICK", file: { name: "edge.webp", type: "image/webp", size: 5 * 1024 * 1024 } })
    expect(upload.getSnapshot().value).toBe("uploading")
    expect(upload.getSnapshot().context).toMatchObject({ error: null, progress: 0, url: null })
  })
})

describe("list, step by step", () => {
  const first = { search: "", page: 1, filters: {} }

  it("asks for the query in the URL, and tells queries apart by every part of them", async () => {
    const { inputs, actor, answer } = calls()
    const page = { rows: ["a"], pagination: { page: 1, limit: 20, total: 1, pages: 1 } }
    answer("fetchPage", true, page)
    const list = started(listMachine.provide({ actors: { fetchPage: actor("fetchPage") } }), { query: first })
    expect(inputs.fetchPage).toEqual([first])
    await settle()
    expect(list.getSnapshot().context).toEqual({ query: first, page, error: null })
    const next = { search: "pi", page: 2, filters: { status: "pending" } }
    list.send({ type: "LOAD", query: next })
    expect(inputs.fetchPage?.[1]).toEqual(next)
    expect(list.getSnapshot().context.query).toEqual(next)

    expect(queryKey({ ...first, sort: "name" })).not.toBe(queryKey(first))
    expect(queryKey({ ...first, filters: { status: "pending" } })).not.toBe(queryKey(first))
    expect(queryKey({ ...first, filters: { status: "pending" } })).not.toBe(queryKey({ ...first, filters: { status: "approved" } }))
    expect(queryKey({ ...first, filters: { status: "" } })).toBe(queryKey(first))
  })
})

describe("blog editor, step by step", () => {
  const post = {
    _id: "p1",
    title: "Mainnet",
    slug: "mainnet",
    excerpt: "What it means",
    content: "<p>Body</p>",
    featuredImage: "https://example.com/a.png",
    categories: ["News"],
    tags: ["pi"],
    status: "archived" as const,
    publishedAt: null,
    scheduledAt: "2026-11-22T08:05:00.000Z",
    seoTitle: "S",
    seoDescription: "D",
    seoKeywords: ["k"],
    isSponsored: true,
    isFeatured: false,
    isEditorsChoice: true,
    isTrending: false,
    isResearch: false,
    isReview: true,
    sponsorInfo: { name: "Acme", logo: "https://example.com/l.png", url: "https://acme.example" },
    views: 0,
    readingTime: 1,
    author: { username: "Ada", credentials: "Editor" },
    createdAt: "",
    updatedAt: "",
    version: 4
  }
  const blank = {
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
  const local = (iso: string) => {
    const date = new Date(iso)
    const two = (n: number) => (n < 10 ? `0${n}` : `${n}`)
    return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`
  }

  it("opens a new post blank on the Content tab, and a stored one as it was saved", () => {
    const fresh = started(blogEditorMachine, { post: null })
    expect(fresh.getSnapshot().context).toEqual({
      post: null,
      draft: blank,
      baseline: blank,
      tab: "content",
      errors: {},
      shown: 0,
      error: null,
      leaveTo: null,
      sending: null
    })
    const withDefaults = started(blogEditorMachine, { post: null, defaults: { content: "<p>Hi</p>" } })
    expect(withDefaults.getSnapshot().context.draft).toEqual({ ...blank, content: "<p>Hi</p>" })

    const opened = started(blogEditorMachine, { post }).getSnapshot().context
    expect(opened.draft).toEqual({
      title: "Mainnet",
      content: "<p>Body</p>",
      excerpt: "What it means",
      featuredImage: "https://example.com/a.png",
      // An archived post is edited as a draft.
      status: "draft",
      scheduledAt: local("2026-11-22T08:05:00.000Z"),
      authorUsername: "Ada",
      authorCredentials: "Editor",
      categories: ["News"],
      tags: ["pi"],
      seoTitle: "S",
      seoDescription: "D",
      seoKeywords: ["k"],
      flags: { isSponsored: true, isFeatured: false, isEditorsChoice: true, isTrending: false, isResearch: false, isReview: true },
      sponsorName: "Acme",
      sponsorLogo: "https://example.com/l.png",
      sponsorUrl: "https://acme.example"
    })
    expect(opened.draft.scheduledAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/)
    const plain = started(blogEditorMachine, {
      post: { ...post, status: "published" as const, scheduledAt: null, sponsorInfo: null, author: { username: "Bo" } }
    }).getSnapshot().context.draft
    expect(plain).toMatchObject({ status: "published", scheduledAt: "", authorCredentials: "", sponsorName: "", sponsorLogo: "", sponsorUrl: "" })
  })

  it("checks before saving, keeps checking as a person fixes things, saves what was typed and words failures", async () => {
    const { inputs, actor, answer } = calls()
    const editor = started(blogEditorMachine.provide({ actors: { save: actor("save") } }), { post: null })
    editor.send({ type: "SET_TAB", tab: "seo" })
    expect(editor.getSnapshot().context.tab).toBe("seo")
    editor.send({ type: "CHANGE", patch: { title: "   ", content: "<p> </p>" } })
    // Nothing is flagged before a save is asked for.
    expect(editor.getSnapshot().context.errors).toEqual({})
    editor.send({ type: "SAVE" })
    expect(editor.getSnapshot().context.errors).toEqual({ title: "Title is required", content: "Content is required" })
    // The tab holding the first problem is shown.
    expect(editor.getSnapshot().context.tab).toBe("content")
    editor.send({ type: "CHANGE", patch: { title: "Mainnet" } })
    expect(editor.getSnapshot().context.errors).toEqual({ content: "Content is required" })
    editor.send({ type: "SET_TAB", tab: "seo" })
    editor.send({ type: "SAVE" })
    expect(editor.getSnapshot().context.tab).toBe("content")
    editor.send({ type: "CHANGE", patch: { content: "<p>Body</p>", status: "scheduled" } })
    editor.send({ type: "SET_TAB", tab: "seo" })
    editor.send({ type: "SAVE" })
    expect(editor.getSnapshot().context.errors).toEqual({ scheduledAt: "Choose the date and time to publish a scheduled post" })
    expect(editor.getSnapshot().context.tab).toBe("settings")
    editor.send({ type: "CHANGE", patch: { status: "draft" } })
    expect(editor.getSnapshot().context.errors).toEqual({})

    answer("save", false, { status: 500, message: "  " })
    editor.send({ type: "SAVE" })
    const sent = { ...blank, title: "Mainnet", content: "<p>Body</p>" }
    expect(inputs.save).toEqual([{ post: null, draft: sent }])
    await settle()
    expect(editor.getSnapshot().context.error).toBe("Error saving post: Failed to save blog post")
    answer("save", false, { message: "" })
    editor.send({ type: "SAVE" })
    await settle()
    expect(editor.getSnapshot().context.error).toBe("Error saving post: Unknown error")
    editor.send({ type: "DISMISS_ERROR" })
    expect(editor.getSnapshot().context.error).toBeNull()

    const saved = { ...post, status: "draft" as const, version: 1 }
    answer("save", true, saved)
    editor.send({ type: "SAVE" })
    // Typing goes on while the save runs; what was typed stays unsaved after it.
    editor.send({ type: "CHANGE", patch: { excerpt: "typed meanwhile" } })
    editor.send({ type: "SET_TAB", tab: "preview" })
    await settle()
    const after = editor.getSnapshot().context
    expect(after).toMatchObject({ post: saved, baseline: sent, sending: null, tab: "preview", error: null })
    expect(after.draft).toEqual({ ...sent, excerpt: "typed meanwhile" })

    editor.send({ type: "LEAVE", to: "/blog?page=2" })
    expect(editor.getSnapshot().value).toBe("confirmingLeave")
    expect(editor.getSnapshot().context.leaveTo).toBe("/blog?page=2")
    editor.send({ type: "STAY" })
    expect(editor.getSnapshot().context.leaveTo).toBeNull()

    answer("save", true, { ...saved, version: 2, status: "published" })
    editor.send({ type: "PUBLISH" })
    expect(inputs.save?.[3]).toEqual({ post: saved, draft: { ...sent, excerpt: "typed meanwhile", status: "published" } })
    await settle()
    editor.send({ type: "LEAVE", to: "/blog" })
    expect(editor.getSnapshot().value).toBe("left")
    expect(editor.getSnapshot().status).toBe("done")
    expect(editor.getSnapshot().context.leaveTo).toBe("/blog")
  })
})
