import type { Pagination } from "../../contract/common.ts"
import type { BlogCategory, BlogPost, BlogPostInput } from "../../contract/blog.ts"
import { flagNames, type PostDraft } from "../../machines/blog-editor.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import postPage from "virtual:answer-schemas/postPage"
import { getChecked } from "./checked-answer.ts"
import { getCsv } from "./csv.ts"
import type { CallAs, CsvFile } from "./client.ts"
import { postPagePath } from "./list-paths.ts"

const api = () => import("./client.ts")

/** A page of posts: the one start-up asked for if it is this one, else a request checked the same way. */
export const listPosts = async (q: ListQuery): Promise<ListPage<BlogPost>> => {
  const answer = await getChecked<{ readonly posts: ReadonlyArray<BlogPost>; readonly pagination: Pagination }>(postPagePath(q), postPage)
  return { rows: answer.posts, pagination: answer.pagination }
}

/** The CSV of the posts the list's filters match. */
export const exportPosts = (q: ListQuery): Promise<CsvFile> => getCsv(postPagePath(q), "blog-posts.csv")

/** One post by its slug, whatever its status (the token is staff's). */
export const getPost = async (slug: string): Promise<BlogPost> => {
  const { callApi } = await api()
  return callApi((client) => client.blog.post({ params: { slug } })).then((answer) => answer.post)
}

export const listCategories = async (): Promise<ReadonlyArray<BlogCategory>> => {
  const { callApi } = await api()
  return callApi((client) => client.blog.categories()).then((answer) => answer.data)
}

export const listTags = async (): Promise<ReadonlyArray<string>> => {
  const { callApi } = await api()
  return callApi((client) => client.blog.tags()).then((answer) => answer.data)
}

export const createCategory = async (name: string): Promise<BlogCategory> => {
  const { callApi } = await api()
  return callApi((client) => client.blogAdmin.createCategory({ payload: { name } })).then((answer) => answer.data)
}

/** docs/product-spec.md §4 "Blog status": scheduledAt only when scheduled; the server sets publishedAt. */
export const inputOf = (draft: PostDraft): BlogPostInput => {
  const sponsor = { name: draft.sponsorName.trim(), logo: draft.sponsorLogo.trim(), url: draft.sponsorUrl.trim() }
  const hasSponsor = sponsor.name !== "" || sponsor.logo !== "" || sponsor.url !== ""
  return {
    title: draft.title,
    content: draft.content,
    excerpt: draft.excerpt,
    featuredImage: draft.featuredImage.trim(),
    categories: draft.categories,
    tags: draft.tags,
    status: draft.status,
    scheduledAt: draft.status === "scheduled" ? new Date(draft.scheduledAt).toISOString() : null,
    seoTitle: draft.seoTitle,
    seoDescription: draft.seoDescription,
    seoKeywords: draft.seoKeywords,
    ...Object.fromEntries(flagNames.map((flag) => [flag, draft.flags[flag]])),
    sponsorInfo: hasSponsor ? sponsor : null,
    // An empty username signs with the saving admin's name; the credentials go whatever it is.
    ...(draft.authorUsername.trim() === "" && draft.authorCredentials.trim() === ""
      ? {}
      : { author: { username: draft.authorUsername.trim(), credentials: draft.authorCredentials.trim() } })
  }
}

/** docs/product-spec.md §4 "Editor save": a post with an _id is updated by its slug, otherwise created. */
export const savePost = async (post: BlogPost | null, draft: PostDraft): Promise<BlogPost> => {
  const { callApi } = await api()
  const payload = inputOf(draft)
  return callApi((client) =>
    post === null
      ? client.blogAdmin.create({ payload })
      : client.blogAdmin.update({ params: { post: post.slug }, payload: { ...payload, version: post.version } })
  ).then((answer) => answer.post)
}

export const deletePost = async (post: BlogPost, as?: CallAs): Promise<void> => {
  const { callApi } = await api()
  await callApi((client) => client.blogAdmin.remove({ params: { post: post._id }, query: { version: post.version } }), as)
}
