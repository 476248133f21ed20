import type { StoredUpload } from "./repository.ts"

/**
 * What a server keeps of the uploads it served (docs/architecture.md, "Uploads"): what it knows
 * of each file, and the bytes of the small ones, the least recently served going first when the
 * bytes pass their budget. A stored file never changes (every upload gets a new name), so what is
 * kept is never stale and servers need not tell each other anything.
 */
export interface UploadCache {
  readonly get: (path: string) => { readonly upload: StoredUpload; readonly bytes: Uint8Array | undefined } | undefined
  /** Keeps `upload`, with its bytes when they are given and small enough. */
  readonly put: (upload: StoredUpload, bytes?: Uint8Array) => void
  readonly bytesHeld: () => number
}

export interface UploadCacheLimits {
  /** The bytes held in all. */
  readonly maxBytes: number
  /** A file larger than this is streamed from the database each time. */
  readonly maxFileBytes: number
  /** How many files are known (their bytes or not). */
  readonly maxEntries: number
}

export const makeUploadCache = (limits: UploadCacheLimits): UploadCache => {
  // A Map iterates in insertion order: the first key is the least recently used.
  const entries = new Map<string, { readonly upload: StoredUpload; readonly bytes: Uint8Array | undefined }>()
  let held = 0
  const drop = (path: string) => {
    held -= entries.get(path)?.bytes?.length ?? 0
    entries.delete(path)
  }
  return {
    get: (path) => {
      const entry = entries.get(path)
      if (entry === undefined) return undefined
      entries.delete(path)
      entries.set(path, entry)
      return entry
    },
    put: (upload, bytes) => {
      const kept = bytes !== undefined && bytes.length <= limits.maxFileBytes && bytes.length <= limits.maxBytes ? bytes : undefined
      drop(upload.path)
      entries.set(upload.path, { upload, bytes: kept })
      held += kept?.length ?? 0
      for (const path of entries.keys()) {
        if (held <= limits.maxBytes && entries.size <= limits.maxEntries) break
        drop(path)
      }
    },
    bytesHeld: () => held
  }
}
