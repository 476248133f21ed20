/** The columns a directory's list can be sorted by; `name` sorts Generated's `Name` too. */
export const addressSorts = ["createdAt", "identifier", "name", "category", "rank"] as const
