import { describe, expect, it } from "vitest"
import { makeUploadCache } from "../../server/uploads/cache.ts"
import type { StoredUpload } from "../../server/uploads/repository.ts"

const upload = (path: string, size: number): StoredUpload => ({ path, mime: "image/png", size, sha256: path, chunkSize: 256 })
const bytes = (size: number) => new Uint8Array(size)

describe("the uploads a server keeps in memory", () => {
  it("keeps small files' bytes within the budget, the least recently served going first", () => {
    const cache = makeUploadCache({ maxBytes: 100, maxFileBytes: 60, maxEntries: 10 })
    cache.put(upload("a", 40), bytes(40))
    cache.put(upload("b", 40), bytes(40))
    expect(cache.bytesHeld()).toBe(80)
    // "a" served again: "b" is now the oldest, and goes when "c" needs the room.
    expect(cache.get("a")?.bytes?.length).toBe(40)
    cache.put(upload("c", 40), bytes(40))
    expect([cache.get("a")?.bytes?.length, cache.get("b"), cache.get("c")?.bytes?.length]).toEqual([40, undefined, 40])
    expect(cache.bytesHeld()).toBe(80)
  })

  it("knows a large file without holding its bytes, and counts a file kept twice once", () => {
    const cache = makeUploadCache({ maxBytes: 100, maxFileBytes: 60, maxEntries: 10 })
    cache.put(upload("large", 90), bytes(90))
    expect(cache.get("large")).toEqual({ upload: upload("large", 90), bytes: undefined })
    cache.put(upload("small", 50), bytes(50))
    cache.put(upload("small", 50), bytes(50))
    expect(cache.bytesHeld()).toBe(50)
  })

  it("forgets the oldest files past its count", () => {
    const cache = makeUploadCache({ maxBytes: 1000, maxFileBytes: 100, maxEntries: 2 })
    for (const path of ["a", "b", "c"]) cache.put(upload(path, 10))
    expect([cache.get("a"), cache.get("b")?.upload.path, cache.get("c")?.upload.path]).toEqual([undefined, "b", "c"])
  })
})
