/**
 * The kind of a list whose rows are not records of one kind (the activity log's events): it is
 * read again after a change of any kind, and its rows are not kept (./console-store.ts). Apart
 * from the store's code, so a list's declaration names it without loading the store.
 */
export const ANY_KIND = "any"
