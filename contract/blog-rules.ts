/**
 * The blog's pure rules, docs/product-spec.md §5 "Blog post", shared by the server (which applies
 * them on save) and the console (which shows them while typing).
 */

/** docs/product-spec.md §4 "Blog status", plus archived. */
export const postStatuses = ["draft", "published", "scheduled", "archived"] as const

/** The blog's messages; the spec's are exact. */
export const blogMessages = {
  titleRequired: "Title is required",
  contentRequired: "Content is required",
  scheduleRequired: "Choose the date and time to publish a scheduled post",
  stale: "This post was changed by someone else since you read it.",
  notFound: "This post no longer exists. Reload the list.",
  readOnly: "Moderators can read posts but not change them.",
  exportNeedsSignIn: "Sign in to export posts."
} as const

export const WORDS_PER_MINUTE = 200

/**
 * The slug of a title: characters other than letters, digits, spaces and hyphens removed, letters
 * of every script kept (docs/product-spec.md §5); lowercase where the script has case; accents on
 * Latin letters folded ("Café" → "cafe"), marks that belong to other scripts' letters kept, in
 * NFC; spaces turned into hyphens; repeated hyphens collapsed; no hyphen at either end. A title
 * with nothing left gives "post". `slugify(slugify(t)) === slugify(t)`: a slug is its own slug.
 */
export const slugify = (title: string): string => {
  const slug = title
    .normalize("NFKD")
    .replace(/([A-Za-z])[\u0300-\u036f]+/gu, "$1")
    .toLowerCase()
    // A dropped symbol takes its marks with it (⇍ is ⇐ + U+0338), and a mark with no letter or
    // digit before it is dropped: otherwise it would join the previous letter and the slug of the
    // slug would differ.
    .replace(/[^\p{L}\p{M}\p{N}\s-]\p{M}*/gu, "")
    .replace(/(?<![\p{L}\p{N}\p{M}])\p{M}+/gu, "")
    .trim()
    .replace(/\s+/gu, "-")
    .replace(/-+/gu, "-")
    .replace(/^-|-$/gu, "")
    .normalize("NFC")
  return slug === "" ? "post" : slug
}

/** The first free slug among `base`, `base-2`, `base-3`… */
export const uniqueSlug = (base: string, taken: ReadonlySet<string>): string => {
  if (!taken.has(base)) return base
  let n = 2
  while (taken.has(`${base}-${n}`)) n++
  return `${base}-${n}`
}

/** Plain text of an HTML body: tags dropped, entities that matter for counting read as spaces. */
export const textOf = (html: string): string =>
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;|&#160;/g, " ")
    .replace(/&[a-z]+;|&#\d+;/gi, "x")

/** Minutes to read: words divided by 200, rounded up; an empty body reads in 0 minutes. */
export const readingTime = (html: string): number => {
  const words = textOf(html)
    .split(/\s+/)
    .filter((word) => word !== "").length
  return Math.ceil(words / WORDS_PER_MINUTE)
}

/** Tags and SEO keywords: trimmed, empty values and duplicates (ignoring case) dropped, first spelling kept. */
export const cleanList = (values: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const kept: Array<string> = []
  for (const value of values) {
    const trimmed = value.trim()
    const key = trimmed.toLowerCase()
    if (trimmed === "" || seen.has(key)) continue
    seen.add(key)
    kept.push(trimmed)
  }
  return kept
}
