import { describe, expect, it } from "vitest"
import type { AdminAccount } from "../../contract/admin-users.ts"
import type { AnyAddress } from "../../contract/addresses.ts"
import type { BlogPost } from "../../contract/blog.ts"
import type { CoreTeamContact } from "../../contract/contacts.ts"
import type { HistoryEntry } from "../../contract/history.ts"
import { draftOf, type PostDraft } from "../../machines/blog-editor.ts"
import { inputOf as postInputOf } from "../../src/api/blog.ts"
import { directories, toDraft, toInput } from "../../src/features/addresses/directories.ts"
import { type FormValues as ContactValues, inputFrom, valuesOf as contactValuesOf } from "../../src/features/contacts/ContactForm.tsx"
import { type FieldSpec, type QueueRow, queueKinds } from "../../src/features/listings/kinds.ts"
import { payloadOf, valuesOf } from "../../src/features/listings/QueueForm.tsx"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"

/**
 * A save that leaves a field as it was records no change for it (docs/api.md, "Record history"):
 * for each form of each kind, a record is read as the form reads it, put through the form's own
 * values and payload, one field changed, and sent back; the history's newest version then names
 * exactly that field. Records are made with every field filled the way the API allows (an
 * author's avatar, times with seconds), so a form that drops or rounds what it does not show
 * is caught. On both engines.
 */
describe.each(engines)("a form's save records only what it changed, on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const api = async (method: string, path: string, body?: object, token = staff.admin) => {
    const answer = await call(staff.server.url, method, path, { token, ...(body === undefined ? {} : { body }) })
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200)
    return answer.body
  }
  const newestChange = async (kind: string, id: string, token = staff.admin): Promise<HistoryEntry> => {
    const page = (await api("GET", `/api/admin/history/${kind}/${id}?limit=1`, undefined, token)).data as { entries: ReadonlyArray<HistoryEntry> }
    return page.entries[0]!
  }
  /** The fields the newest version changed, by their paths (`details.website`, `author.username`). */
  const changedFields = async (kind: string, id: string, token = staff.admin) => (await newestChange(kind, id, token)).changes.map((change) => change.field)
  let unique = 0
  const marker = () => `${engine.name}-${++unique}-${Date.now().toString(36)}`

  describe("the post editor", () => {
    const newPost = async (author?: object) => {
      const made = (
        await api("POST", "/api/blog/admin/posts", {
          title: `Round trip ${marker()}`,
          content: "<h2>Intro</h2><p>Some <strong>bold</strong> words.</p><ul><li>One</li><li>Two</li></ul>",
          excerpt: "The first excerpt",
          status: "draft",
          tags: ["pi"],
          seoKeywords: ["pi"],
          ...(author === undefined ? {} : { author })
        })
      ).post as BlogPost
      return made.slug
    }
    const edited: ReadonlyArray<readonly [string, (draft: PostDraft) => PostDraft]> = [
      ["excerpt", (draft) => ({ ...draft, excerpt: "A new excerpt" })],
      ["title", (draft) => ({ ...draft, title: `${draft.title} again` })],
      ["seoTitle", (draft) => ({ ...draft, seoTitle: "A search title" })],
      ["tags", (draft) => ({ ...draft, tags: [...draft.tags, "kyc"] })],
      ["author.credentials", (draft) => ({ ...draft, authorCredentials: "Editor" })]
    ]
    it.each([
      ["signed by the saving admin (no author sent)", undefined],
      ["with an avatar and credentials given through the API", { username: "Ana", avatar: "https://img.example/ana.png", credentials: "Writer" }],
      ["with an author without credentials", { username: "Ana" }]
    ] as const)("a post %s: each field changed alone is the only one named", async (_, author) => {
      for (const [field, change] of edited) {
        if (field === "author.credentials" && author !== undefined && "credentials" in author) continue
        const slug = await newPost(author)
        const post = (await api("GET", `/api/blog/posts/${slug}`)).post as BlogPost
        await api("PUT", `/api/blog/admin/posts/${slug}`, { ...postInputOf(change(draftOf(post))), version: post.version })
        expect(await changedFields("blog", post._id), field).toEqual([field])
        const after = (await api("GET", `/api/blog/posts/${slug}`)).post as BlogPost
        // What the editor does not show is kept.
        if (author !== undefined && "avatar" in author) expect(after.author.avatar).toBe(author.avatar)
      }
    })
  })

  describe("the address forms", () => {
    it.each(Object.values(directories).map((spec) => [spec.kind, spec] as const))("%s: each field changed alone is the only one named", async (kind, spec) => {
      /** Addresses a person would give: the website, the logo and where to buy are links. */
      const isLink = (field: { readonly name: string; readonly type: string }) => field.type === "url" || /^(logo|buy)$/i.test(field.name)
      const filled = (id: string): Record<string, string | number> =>
        Object.fromEntries(
          spec.fields.map((field) => [
            field.name,
            field.name === "identifier" ? id : field.type === "integer" ? 3 : isLink(field) ? "https://site.example/a" : `${field.label} ${id}`
          ])
        )
      for (const field of spec.fields) {
        const made = ((await api("POST", `/api/admin/addresses/${kind}`, filled(marker()))).data as { address: AnyAddress }).address
        const draft = toDraft(spec, made)
        const changed = field.type === "integer" ? "7" : isLink(field) ? "https://site.example/b" : `${draft[field.name]} changed`
        await api("PUT", `/api/admin/addresses/${kind}/${made._id}`, { ...toInput(spec, { ...draft, [field.name]: changed }), version: made.version })
        expect(
          (await changedFields("address", made._id)).map((name) => name.toLowerCase()),
          field.name
        ).toEqual([field.name.toLowerCase()])
      }
    })
  })

  describe("the listing forms", () => {
    const createPath: Readonly<Record<keyof typeof queueKinds, string>> = {
      community: "/api/admin/communities",
      influencer: "/api/admin/influencers",
      business: "/api/admin/businesses",
      startup: "/api/admin/startups",
      project: "/api/admin/projects",
      event: "/api/ecosystem?type=events",
      hackathon: "/api/ecosystem?type=hackathons"
    }
    const updatePath = (key: keyof typeof queueKinds, id: string) => {
      const [path, query] = createPath[key].split("?")
      return `${path}/${id}${query === undefined ? "" : `?${query}`}`
    }
    /** A stored value for every field, as the API takes it (times with seconds: the form shows minutes). */
    const storedValue = (field: FieldSpec, id: string): unknown => {
      switch (field.kind) {
        case "number":
          return 12
        case "year":
          return "2019"
        case "url":
        case "image":
          return "https://site.example/a.png"
        case "list":
          return ["Ana", "Bo"]
        case "select":
          return field.options?.[1] ?? field.options?.[0]
        case "datetime":
          return field.name === "startsAt" ? "2027-03-01T10:00:30.250Z" : "2027-03-02T18:30:45.000Z"
        default:
          return `${field.label} ${id}`
      }
    }
    const typedChange = (field: FieldSpec, now: string | ReadonlyArray<string>): string | ReadonlyArray<string> => {
      switch (field.kind) {
        case "number":
          return "7"
        case "year":
          return "2020"
        case "url":
        case "image":
          return "https://site.example/b.png"
        case "list":
          return [...(now as ReadonlyArray<string>), "Cy"]
        case "select":
          return field.options?.find((option) => option !== now) ?? ""
        case "datetime":
          return field.name === "startsAt" ? "2027-02-27T09:15" : "2027-03-04T20:00"
        default:
          return `${String(now)} changed`
      }
    }
    it.each(Object.keys(createPath) as ReadonlyArray<keyof typeof queueKinds>)("%s: each field changed alone is the only one named", async (key) => {
      const kind = queueKinds[key]
      for (const field of kind.fields) {
        const id = marker()
        const made = (
          (await api("POST", createPath[key], Object.fromEntries(kind.fields.map((each) => [each.name, storedValue(each, id)])))).data as {
            listing: QueueRow
          }
        ).listing
        const values = valuesOf(kind.fields, made)
        const sent = payloadOf(kind.fields, { ...values, [field.name]: typedChange(field, values[field.name] ?? "") }, made)
        await api("PUT", updatePath(key, made._id), { ...sent, version: made.version })
        const column = field.name === "name" || field.name === "description" ? field.name : `details.${field.name}`
        expect(await changedFields("listing", made._id), `${key} ${field.name}`).toEqual([column])
      }
    })
  })

  describe("the core-team contact form", () => {
    /** The form's fields, each with the column it is stored in. */
    const fields: ReadonlyArray<readonly [keyof ContactValues, string, string | boolean]> = [
      ["name", "contactName", "Grace H."],
      ["email", "contactEmail", "grace@example.org"],
      ["organization", "contactOrganization", "Pi Labs"],
      ["role", "contactRole", "CTO"],
      ["priority", "priority", "high"],
      ["subject", "subject", "Another subject"],
      ["details", "details", "Other details"],
      ["projectName", "projectName", "Wallet"],
      ["website", "projectWebsite", "https://wallet.example"],
      ["submittedAt", "submittedAt", "2026-01-02T03:04"],
      ["assignedTo", "assignedTo", "Ana"],
      ["internalNotes", "internalNotes", "Called"],
      ["followUpRequired", "followUpRequired", true],
      ["expectedResponseTime", "expectedResponseTime", "24"]
    ]
    it("each field changed alone is the only one named", async () => {
      for (const [field, column, value] of fields) {
        const made = (
          await api("POST", "/api/core-team-contact", {
            contactInfo: { name: "Grace", role: "Founder", email: "grace@example.com" },
            inquiry: { subject: `Round trip ${marker()}`, details: "Details" },
            submittedAt: "2025-11-03T08:09:10.123Z"
          })
        ).data as { _id: string }
        const contact = ((await api("GET", `/api/core-team-contact/${made._id}`)).data as { contact: CoreTeamContact }).contact
        const values = contactValuesOf(contact)
        await api("PUT", `/api/core-team-contact/${contact._id}`, { ...inputFrom({ ...values, [field]: value }, contact), version: contact.version })
        expect(await changedFields("contact", contact._id), field).toEqual([column])
      }
    })
  })

  describe("the admin form", () => {
    it("a role changed alone, or a name alone, is the only one named", async () => {
      const boss = await signedInAs(staff.server, "super_admin")
      const email = `form-${marker()}@example.com`
      const read = async () =>
        ((await api("GET", `/api/admin/users?search=${encodeURIComponent(email)}`, undefined, boss)).data as { users: ReadonlyArray<AdminAccount> }).users[0]!
      await api("POST", "/api/admin/users", { email, role: "moderator" }, boss)
      // As the form sends it (src/features/admin-users/AdminUsersScreen.tsx): the name as typed, empty as none, and the role.
      const save = async (name: string, role: string) => {
        const admin = await read()
        await api("PUT", `/api/admin/users/${admin._id}`, { name: name.trim() === "" ? null : name.trim(), role, version: admin.version }, boss)
        return admin._id
      }
      expect(await changedFields("admin", await save("", "admin"), boss)).toEqual(["role"])
      expect(await changedFields("admin", await save("Ana", "admin"), boss)).toEqual(["name"])
      expect(await changedFields("admin", await save("Ana", "moderator"), boss)).toEqual(["role"])
    })
  })
})
