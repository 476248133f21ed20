import { Schema } from "effect"
import { Id, LongText, OptionalPublicUrl, PublicUrl, RequiredText, ShortText, Text, TextList, Timestamp, Version } from "./common.ts"
import { postStatuses, slugify } from "./blog-rules.ts"

/** Statuses a post can be saved with; "archived" exists in old data and is displayed. */
export const PostStatus = Schema.Literals(postStatuses)

/** A post's slug where a request names one: what `slugify` makes, of any script. */
export const Slug = Schema.String.check(
  Schema.isMaxLength(220, { message: "must be a post slug" }),
  Schema.makeFilter((text: string) => (text !== "" && slugify(text) === text) || "must be a post slug", {
    // Generated slugs (fuzz, property tests) are plain Latin and Cyrillic runs joined by hyphens.
    arbitraryConstraint: { patterns: [{ source: "^[a-z0-9а-я]{1,20}(-[a-z0-9а-я]{1,20}){0,3}$", flags: "" }] }
  })
)

/** A post body: the editor's HTML, bounded well below the 1 MiB request limit. */
export const MAX_POST_CONTENT = 500_000
export type PostStatus = typeof PostStatus.Type

export const SponsorInfo = Schema.Struct({
  name: ShortText,
  logo: Schema.Union([PublicUrl, Schema.Literal("")]),
  url: Schema.Union([PublicUrl, Schema.Literal("")])
})

export const PostAuthor = Schema.Struct({
  username: ShortText,
  avatar: OptionalPublicUrl,
  credentials: Schema.optionalKey(ShortText)
})

export const BlogPost = Schema.Struct({
  _id: Id,
  title: Schema.String,
  slug: Schema.String,
  excerpt: Schema.String,
  content: Schema.String,
  featuredImage: Schema.String,
  categories: Schema.Array(Schema.String),
  tags: Schema.Array(Schema.String),
  status: PostStatus,
  publishedAt: Schema.NullOr(Timestamp),
  scheduledAt: Schema.NullOr(Timestamp),
  seoTitle: Schema.String,
  seoDescription: Schema.String,
  seoKeywords: Schema.Array(Schema.String),
  isSponsored: Schema.Boolean,
  isFeatured: Schema.Boolean,
  isEditorsChoice: Schema.Boolean,
  isTrending: Schema.Boolean,
  isResearch: Schema.Boolean,
  isReview: Schema.Boolean,
  sponsorInfo: Schema.NullOr(SponsorInfo),
  views: Schema.Int,
  readingTime: Schema.Int,
  author: PostAuthor,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type BlogPost = typeof BlogPost.Type

export const BlogCategory = Schema.Struct({
  _id: Id,
  slug: Schema.String,
  name: RequiredText
})
export type BlogCategory = typeof BlogCategory.Type

/** Tags are loaded for the editor as a plain list of strings. */
export const TagList = Schema.Array(Schema.String)

// ---------------------------------------------------------------------------
// Calls, docs/product-spec.md §7 "Blog"
// ---------------------------------------------------------------------------

/** Statuses an editor can choose; "archived" is only ever displayed. */
export const EditableStatus = Schema.Literals(["draft", "published", "scheduled"])

const optionalText = Schema.optionalKey(ShortText)
const flags = {
  isSponsored: Schema.optionalKey(Schema.Boolean),
  isFeatured: Schema.optionalKey(Schema.Boolean),
  isEditorsChoice: Schema.optionalKey(Schema.Boolean),
  isTrending: Schema.optionalKey(Schema.Boolean),
  isResearch: Schema.optionalKey(Schema.Boolean),
  isReview: Schema.optionalKey(Schema.Boolean)
}

/** What the editor sends. Title and content are checked by the server after trimming, with the spec's words. */
export const BlogPostInput = Schema.Struct({
  title: ShortText,
  content: Text(MAX_POST_CONTENT),
  excerpt: Schema.optionalKey(LongText),
  featuredImage: OptionalPublicUrl,
  categories: Schema.optionalKey(TextList),
  tags: Schema.optionalKey(TextList),
  status: EditableStatus,
  scheduledAt: Schema.optionalKey(Schema.NullOr(Timestamp)),
  seoTitle: optionalText,
  seoDescription: Schema.optionalKey(LongText),
  seoKeywords: Schema.optionalKey(TextList),
  ...flags,
  sponsorInfo: Schema.optionalKey(Schema.NullOr(SponsorInfo)),
  author: Schema.optionalKey(PostAuthor)
})
export type BlogPostInput = typeof BlogPostInput.Type
