import type { FieldErrors, PostDraft } from "../../../../machines/blog-editor.ts"

/** What every editor tab gets: the draft, its problems by field and how to change it. */
export interface TabProps {
  /** The editor's id prefix, for the fields' ids. */
  readonly id: string
  readonly draft: PostDraft
  readonly errors: FieldErrors
  readonly change: (patch: Partial<PostDraft>) => void
}
