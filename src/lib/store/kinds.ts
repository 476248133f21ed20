/**
 * The kind of a list whose rows are not records of one kind (the activity log's events): it is
 * read again after a change of any kind, and its rows are not kept (./console-store.ts). Apart
 * from the store's code, so a list's declaration names it without loading the store.
 */
export const ANY_KIND = "any"

/**
 * The kinds of a list whose rows are records of several kinds (the triage desk's items): each row
 * names its kind in `field`, shows as the store has that record, and the list is read again
 * after a change of any of `kinds`. Its pages are not kept: a record is kept under its own kind.
 */
export interface MixedKinds {
  readonly field: string
  readonly kinds: ReadonlyArray<string>
}

/** What a list's rows are in the store: one kind, any kind (ANY_KIND), or several (MixedKinds). */
export type StoreKind = string | MixedKinds

/** A list's kind as one text: the key its lists are held by. */
export const kindKey = (kind: StoreKind): string => (typeof kind === "string" ? kind : `${kind.field}:${kind.kinds.join(",")}`)
