import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { extname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"

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
}

const walk = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })

/** The built console, read once into memory: it is small, and every request is then a lookup. */
const loadAssets = (dir: string): ReadonlyMap<string, Asset> =>
  new Map(
    existsSync(dir)
      ? walk(dir).map((file) => [
        `/${relative(dir, file).split(sep).join("/")}`,
        { bytes: readFileSync(file), type: contentTypes[extname(file)] ?? "application/octet-stream" }
      ])
      : []
  )

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

/** Serves the console with an SPA fallback: any path that is not a file gets `index.html`. */
export const consoleRoutes = (dir: string = consoleDir) =>
  Layer.unwrap(Effect.sync(() => {
    const assets = loadAssets(dir)
    const index = assets.get("/index.html")
    const respond = (asset: Asset, cache: string) =>
      HttpServerResponse.uint8Array(asset.bytes, { contentType: asset.type, headers: { "cache-control": cache } })
    return HttpRouter.add("GET", "/*", (request) => {
      const path = requestPath(request.url)
      const asset = assets.get(path)
      if (asset !== undefined && path !== "/index.html") {
        const immutable = path.startsWith("/assets/")
        return Effect.succeed(respond(asset, immutable ? "public, max-age=31536000, immutable" : "no-cache"))
      }
      if (extname(path) !== "" && path !== "/index.html") {
        return Effect.succeed(HttpServerResponse.text("Not found", { status: 404 }))
      }
      return Effect.succeed(index === undefined ? notBuilt : respond(index, "no-cache"))
    })
  }))
