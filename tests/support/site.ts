import { createHash } from "node:crypto"
import { call } from "./http.ts"
import * as images from "./images.ts"

/**
 * A small whole site, made through the API: uploaded images (one larger than a stored chunk),
 * posts that show them, records with several versions and one deleted, so its history and
 * activity log have something in them. `snapshotOf` reads all of it back, images as bytes, to
 * compare a copy of the site with the original (tests/api/backup.test.ts).
 */
export interface Site {
  readonly imageUrls: ReadonlyArray<string>
  readonly postSlugs: ReadonlyArray<string>
  readonly contactIds: ReadonlyArray<string>
  readonly removedContactId: string
}

const ok = <A extends { readonly status: number; readonly text: string }>(answer: A, what: string): A => {
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${answer.text}`)
  return answer
}

const uploadImage = async (url: string, token: string, bytes: Uint8Array, name: string) => {
  const form = new FormData()
  form.set("image", new Blob([Uint8Array.from(bytes)]), name)
  form.set("type", "blog")
  const response = await fetch(`${url}/api/upload/image`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } })
  const body = (await response.json()) as { url?: string; error?: string }
  if (response.status !== 200 || body.url === undefined) throw new Error(`upload ${name}: ${response.status} ${body.error}`)
  return body.url
}

export const buildSite = async (url: string, token: string): Promise<Site> => {
  const imageUrls = [
    await uploadImage(url, token, images.noisePng(700, 700), "large.png"),
    await uploadImage(url, token, images.smallJpeg(), "photo.jpg"),
    await uploadImage(url, token, images.smallGif(), "tiny.gif"),
    await uploadImage(url, token, images.smallWebp(), "pic.webp")
  ]
  const postSlugs: Array<string> = []
  for (const [index, image] of imageUrls.entries()) {
    const made = ok(
      await call(url, "POST", "/api/blog/admin/posts", {
        token,
        body: { title: `Backed up post ${index}`, content: `<p>The body of post ${index}</p>`, status: "published", featuredImage: image, tags: ["backup"] }
      }),
      "post"
    ).body.post as { _id: string; slug: string; version: number }
    ok(
      await call(url, "PUT", `/api/blog/admin/posts/${made.slug}`, {
        token,
        body: {
          title: `Backed up post ${index}`,
          content: `<p>The body of post ${index}, edited</p>`,
          status: "published",
          featuredImage: image,
          version: made.version
        }
      }),
      "post edit"
    )
    postSlugs.push(made.slug)
  }
  const contact = async (subject: string) =>
    (
      ok(
        await call(url, "POST", "/api/core-team-contact", {
          token,
          body: { contactInfo: { name: "Grace", role: "Founder" }, inquiry: { subject, details: "Details" } }
        }),
        "contact"
      ).body.data as { _id: string }
    )._id
  const contactIds = [await contact("Kept one"), await contact("Kept two")]
  for (const [version, notes] of [
    [1, "First note"],
    [2, "Second note"]
  ] as const) {
    const now = ok(await call(url, "GET", `/api/core-team-contact/${contactIds[0]}`, { token }), "read contact").body.data as {
      contact: { contactInfo: unknown; inquiry: unknown; status: string }
    }
    ok(
      await call(url, "PUT", `/api/core-team-contact/${contactIds[0]}`, {
        token,
        body: { contactInfo: now.contact.contactInfo, inquiry: now.contact.inquiry, status: now.contact.status, internalNotes: notes, version }
      }),
      "contact edit"
    )
  }
  const removedContactId = await contact("Deleted one")
  ok(await call(url, "DELETE", `/api/core-team-contact/${removedContactId}?version=1`, { token }), "contact delete")
  return { imageUrls, postSlugs, contactIds, removedContactId }
}

/** Everything `site` holds, as the API answers it; each image as its type and the hash of its bytes. */
export const snapshotOf = async (url: string, token: string, site: Site) => {
  const read = async (path: string) => ok(await call(url, "GET", path, { token }), path).body
  const posts = await Promise.all(site.postSlugs.map((slug) => read(`/api/blog/posts/${slug}`)))
  const postIds = posts.map((post) => (post.post as { _id: string })._id)
  const imageBytes = await Promise.all(
    site.imageUrls.map(async (image) => {
      const response = await fetch(`${url}${image}`)
      const bytes = new Uint8Array(await response.arrayBuffer())
      return {
        image,
        status: response.status,
        type: response.headers.get("content-type"),
        size: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex")
      }
    })
  )
  return {
    posts,
    postHistories: await Promise.all(postIds.map((id) => read(`/api/admin/history/blog/${id}`))),
    contacts: await Promise.all(site.contactIds.map((id) => read(`/api/core-team-contact/${id}`))),
    contactHistories: await Promise.all([...site.contactIds, site.removedContactId].map((id) => read(`/api/admin/history/contact/${id}`))),
    removedContacts: await read("/api/admin/history/contact"),
    activity: await read("/api/admin/activity-logs?limit=50"),
    images: imageBytes
  }
}
