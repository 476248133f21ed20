/**
 * How every screen says it could not read what it shows: the spec's one wording (docs/product-spec.md
 * §8, "Failed to fetch reports"), for every list, the dashboard and every dialog that reads.
 */
export const fetchFailed = (what: string): string => `Failed to fetch ${what}`
