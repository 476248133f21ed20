import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { Page } from "playwright-core"
import { rolldown } from "rolldown"

/**
 * A module of the browser's store (src/lib/store/) bundled as the console bundles it and served
 * from a localhost origin, whose page puts it on `window.storeModule`: IndexedDB is Chromium's
 * own (tests/e2e/browser-store.test.ts, `npm run bench -- sync`).
 */
export const serveStoreModule = async (input: string) => {
  const bundle = await rolldown({ input, platform: "browser", logLevel: "warn" })
  const { output } = await bundle.generate({ format: "esm" })
  await bundle.close()
  const code = output[0].code
  const server = createServer((request, response) => {
    if (request.url === "/store.js") {
      response.writeHead(200, { "content-type": "text/javascript" })
      response.end(code)
      return
    }
    response.writeHead(200, { "content-type": "text/html" })
    response.end(`<!doctype html><title>store</title><script type="module">import * as m from "/store.js"; window.storeModule = m</script>`)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/**
 * Everything the console's store (`console-store` in IndexedDB) holds in `page`, by object store
 * (`meta` as its keys and values), read with IndexedDB's own calls; undefined when there is none.
 */
export const storeContents = (page: Page) =>
  page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((one) => one.name === "console-store")) return undefined
    const asked = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error ?? new Error("IndexedDB refused"))
      })
    const db = await asked(indexedDB.open("console-store"))
    try {
      const held: Record<string, unknown> = {}
      for (const name of db.objectStoreNames) {
        const store = db.transaction(name).objectStore(name)
        const [keys, values] = [await asked(store.getAllKeys()), await asked(db.transaction(name).objectStore(name).getAll())]
        held[name] = name === "meta" ? Object.fromEntries(keys.map((key, at) => [typeof key === "string" ? key : JSON.stringify(key), values[at]])) : values
      }
      return held
    } finally {
      db.close()
    }
  })
