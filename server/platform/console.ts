import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { extname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { acceptedEncodings } from "./compression.ts"
import { consolePolicyAllowing } from "./http.ts"

// Two folders up, from the sources and from the server's bundle (build/server/, tools/build-server.ts).
export const consoleDir = fileURLToPath(new URL("../../dist", import.meta.url))

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json"
}

interface Asset {
  readonly bytes: Uint8Array
  readonly type: string
  /** The build's Brotli and gzip copies of the file, when it wrote them (tools/first-screen/precompress.ts). */
  readonly br?: Uint8Array
  readonly gzip?: Uint8Array
}

const walk = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })

const readIfThere = (file: string) => (existsSync(file) ? { bytes: readFileSync(file) } : undefined)

/** The built console, read once into memory: it is small, and every request is then a lookup. */
const loadAssets = (dir: string): ReadonlyMap<string, Asset> =>
  new Map(
    existsSync(dir)
      ? walk(dir)
          .filter((file) => !file.endsWith(".br") && !file.endsWith(".gz"))
          .map((file) => {
            const br = readIfThere(`${file}.br`)
            const gzip = readIfThere(`${file}.gz`)
            const asset: Asset = {
              bytes: readFileSync(file),
              type: contentTypes[extname(file)] ?? "application/octet-stream",
              ...(br === undefined ? {} : { br: br.bytes }),
              ...(gzip === undefined ? {} : { gzip: gzip.bytes })
            }
            return [`/${relative(dir, file).split(sep).join("/")}`, asset] as const
          })
      : []
  )

/** The smallest copy the client accepts: Brotli, then gzip, then the file itself. */
const encoded = (asset: Asset, accepted: ReadonlySet<string>): { readonly bytes: Uint8Array; readonly encoding?: string } =>
  asset.br !== undefined && accepted.has("br")
    ? { bytes: asset.br, encoding: "br" }
    : asset.gzip !== undefined && accepted.has("gzip")
      ? { bytes: asset.gzip, encoding: "gzip" }
      : { bytes: asset.bytes }

const notBuilt = HttpServerResponse.text(
  `<!doctype html><title>Admin console</title>
<p>The console has not been built. Run <code>npm run build</code> (or <code>npm start</code>, which builds first).</p>`,
  { contentType: "text/html; charset=utf-8", status: 503 }
)

const requestPath = (url: string): string => {
  const raw = url.split("?")[0] ?? "/"
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/** The CSP source that allows exactly this inline script. */
const scriptHash = (source: string) => `'sha256-${createHash("sha256").update(source).digest("base64")}'`

/** The bodies of `index.html`'s inline scripts (those without `src`), allowed by their hashes. */
const inlineScripts = (html: Uint8Array): ReadonlyArray<string> =>
  [...new TextDecoder().decode(html).matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? "")

/** Serves the console with an SPA fallback: any path that is not a file gets `index.html`. */
export const consoleRoutes = (dir: string = consoleDir) =>
  Layer.unwrap(
    Effect.sync(() => {
      const assets = loadAssets(dir)
      const index = assets.get("/index.html")
      const indexPolicy = consolePolicyAllowing(index === undefined ? [] : inlineScripts(index.bytes).map(scriptHash))
      return HttpRouter.add("GET", "/*", (request) => {
        const accepted = acceptedEncodings(request.headers["accept-encoding"])
        const respond = (asset: Asset, cache: string, policy?: string) => {
          const { bytes, encoding } = encoded(asset, accepted)
          const compressible = asset.br !== undefined || asset.gzip !== undefined
          return HttpServerResponse.uint8Array(bytes, {
            contentType: asset.type,
            headers: {
              "cache-control": cache,
              ...(compressible ? { vary: "Accept-Encoding" } : {}),
              ...(policy === undefined ? {} : { "content-security-policy": policy }),
              ...(encoding === undefined ? {} : { "content-encoding": encoding })
            }
          })
        }
        const path = requestPath(request.url)
        const asset = assets.get(path)
        if (asset !== undefined && path !== "/index.html") {
          const immutable = path.startsWith("/assets/")
          return Effect.succeed(respond(asset, immutable ? "public, max-age=31536000, immutable" : "no-cache"))
        }
        if (extname(path) !== "" && path !== "/index.html") {
          return Effect.succeed(HttpServerResponse.text("Not found", { status: 404 }))
        }
        return Effect.succeed(index === undefined ? notBuilt : respond(index, "no-cache", indexPolicy))
      })
    })
  )
