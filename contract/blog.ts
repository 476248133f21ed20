import { Schema } from "effect"
import { Id, RequiredText, Timestamp, Version } from "./common.ts"

/** Statuses a post can be saved with; "archived" exists in old data and is displayed. */
export const PostStatus = Schema.Literals(["draft", "published", "scheduled", "archived"])
export type PostStatus = typeof PostStatus.Type

export const SponsorInfo = Schema.Struct({
  name: Schema.String,
  logo: Schema.String,
  url: Schema.String
})

export const PostAuthor = Schema.Struct({
  username: Schema.String,
  avatar: Schema.optionalKey(Schema.String),
  credentials: Schema.optionalKey(Schema.String)
})

export const BlogPost = Schema.Struct({
  _id: Id,
  title: RequiredText,
  slug: Schema.String,
  excerpt: Schema.String,
  content: RequiredText,
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
