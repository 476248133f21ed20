import { join } from "node:path"
import { build } from "rolldown"
import type { Plugin } from "vite"

/** The inline scripts' sources: modules of the console, compiled here (the first with the files it names). */
const SCRIPT_MODULE = "src/app/start/preload-signed-in.ts"
const PAINT_MODULE = "src/lib/list/kept-paint.ts"

/** The parts of a built chunk this plugin reads (Vite's and Rolldown's output chunk). */
interface BuiltChunk {
  readonly type: "chunk"
  readonly fileName: string
  readonly isEntry: boolean
  readonly moduleIds: ReadonlyArray<string>
  readonly imports: ReadonlyArray<string>
  readonly viteMetadata?: { readonly importedCss: ReadonlySet<string> }
}

type Bundle = Readonly<Record<string, { readonly type: string }>>

const chunks = (bundle: Bundle) => Object.values(bundle).filter((item): item is BuiltChunk => item.type === "chunk")

/** A chunk's file and every file it statically needs, CSS included, in load order. */
const filesOf = (bundle: Bundle, entry: string): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const visit = (fileName: string) => {
    const chunk = bundle[fileName] as BuiltChunk | undefined
    if (seen.has(fileName) || chunk?.type !== "chunk") return
    seen.add(fileName)
    for (const imported of chunk.imports) visit(imported)
    for (const css of chunk.viteMetadata?.importedCss ?? []) seen.add(css)
  }
  visit(entry)
  return [...seen]
}

/** The files of the chunk that holds `module`, and what it needs. */
const filesFor = (bundle: Bundle, module: string) => {
  const found = chunks(bundle).find((chunk) => chunk.moduleIds.some((id) => id.endsWith(module)))
  if (found === undefined) throw new Error(`first-screen: no chunk holds ${module}`)
  return filesOf(bundle, found.fileName)
}

/** An inline script: `call(...args)` of a console module, compiled into one self-contained statement. */
const compiledScript = async (root: string, module: string, call: string, ...args: ReadonlyArray<unknown>): Promise<string> => {
  const entry = `\0inline-${call}`
  const built = await build({
    input: entry,
    platform: "browser",
    plugins: [
      {
        name: "inline-script-entry",
        resolveId: (id) => (id === entry ? entry : undefined),
        load: (id) =>
          id === entry
            ? `import { ${call} } from ${JSON.stringify(join(root, module))}\n${call}(${args.map((arg) => JSON.stringify(arg)).join(", ")})`
            : undefined
      }
    ],
    output: { format: "iife", minify: true },
    write: false
  })
  return built.output[0].code.trim()
}

/**
 * Names the first screen's files in `index.html`, so the browser fetches them while it parses the
 * page instead of after the entry has run (docs/architecture.md, "First screen"):
 * - `start` (every visit: React and the sign-in form): `modulepreload` and stylesheet links;
 * - `signedIn` (only with a stored token) and `byPath` (with a token, a feature's screens when the
 *   address is under its path): asked for by the inline script at the top of the page
 *   (src/app/start/preload-signed-in.ts), so the sign-in form never waits on them;
 * - at the end of the body, the page a reload in the same tab shows before any of it has run: the
 *   tab's copy of the list it showed (src/lib/list/kept-paint.ts).
 * The server allows both inline scripts by their hashes (server/platform/console.ts).
 */
export const pagePreloads = (options: {
  readonly root: string
  readonly start: string
  readonly signedIn: string
  readonly byPath: Readonly<Record<string, string>>
}): Plugin => {
  let base = "/"
  return {
    name: "first-screen-page-preloads",
    apply: "build",
    configResolved: (config) => void (base = config.base),
    transformIndexHtml: {
      order: "post",
      handler: async (_html, context) => {
        const bundle = context.bundle
        if (bundle === undefined) return []
        const entry = chunks(bundle).find((chunk) => chunk.isEntry)
        const loaded = new Set(entry === undefined ? [] : filesOf(bundle, entry.fileName))
        const newFiles = (files: ReadonlyArray<string>) => {
          const fresh = files.filter((file) => !loaded.has(file))
          for (const file of fresh) loaded.add(file)
          return fresh.map((file) => `${base}${file}`)
        }
        const start = newFiles(filesFor(bundle, options.start))
        const signedIn = newFiles(filesFor(bundle, options.signedIn))
        const byPath = Object.entries(options.byPath).map(
          ([path, module]) =>
            [
              path,
              filesFor(bundle, module)
                .filter((file) => !loaded.has(file))
                .map((file) => `${base}${file}`)
            ] as const
        )
        return [
          ...start.map((href) => ({
            tag: "link",
            attrs: href.endsWith(".css") ? { rel: "stylesheet", href } : { rel: "modulepreload", crossorigin: true, href },
            injectTo: "head" as const
          })),
          {
            tag: "script",
            children: await compiledScript(options.root, SCRIPT_MODULE, "preloadSignedIn", { always: signedIn, byPath }),
            injectTo: "head-prepend" as const
          },
          { tag: "script", children: await compiledScript(options.root, PAINT_MODULE, "paintKeptPage"), injectTo: "body" as const }
        ]
      }
    }
  }
}
