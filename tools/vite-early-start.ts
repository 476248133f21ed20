import { build, type Plugin } from "vite"

/** Set while the survey build runs (see `earlyStart`): that build is the bundler's own split. */
const SURVEY = "EARLY_START_SURVEY"

/** The parts of a built chunk this plugin reads (Vite's and Rolldown's output chunk). */
interface BuiltChunk {
  readonly type: "chunk"
  readonly fileName: string
  readonly facadeModuleId: string | null
  readonly isEntry: boolean
  readonly moduleIds: ReadonlyArray<string>
  readonly imports: ReadonlyArray<string>
  readonly viteMetadata?: { readonly importedCss: ReadonlySet<string> }
}

/** A chunk's file and every file it statically needs, CSS included, in load order. */
const filesOf = (bundle: Record<string, { readonly type: string }>, entry: string): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const visit = (fileName: string) => {
    if (seen.has(fileName)) return
    const chunk = bundle[fileName] as BuiltChunk | undefined
    if (chunk?.type !== "chunk") return
    seen.add(fileName)
    for (const imported of chunk.imports) visit(imported)
    for (const css of chunk.viteMetadata?.importedCss ?? []) seen.add(css)
  }
  visit(entry)
  return [...seen]
}

const chunkFor = (bundle: Record<string, { readonly type: string }>, moduleSuffix: string): string => {
  const found = Object.values(bundle).find(
    (item): item is BuiltChunk =>
      item.type === "chunk" &&
      (((item as BuiltChunk).facadeModuleId ?? "").endsWith(moduleSuffix) || (item as BuiltChunk).moduleIds.some((id) => id.endsWith(moduleSuffix)))
  )
  if (found === undefined) throw new Error(`vite-early-start: no chunk is built from ${moduleSuffix}`)
  return found.fileName
}

/**
 * The files the first screens load beyond the entry's own: `always` (every visit) and
 * `signedIn` (with a stored token), each without what an earlier group already loads.
 */
const firstScreenFiles = (
  bundle: Record<string, { readonly type: string }>,
  options: { readonly always: ReadonlyArray<string>; readonly signedIn: ReadonlyArray<string> }
) => {
  const entry = Object.values(bundle).find((item): item is BuiltChunk => item.type === "chunk" && (item as BuiltChunk).isEntry)
  const atEntry = new Set(entry === undefined ? [] : filesOf(bundle, entry.fileName))
  const filesFor = (modules: ReadonlyArray<string>) => [...new Set(modules.flatMap((module) => filesOf(bundle, chunkFor(bundle, module))))]
  const always = filesFor(options.always).filter((file) => !atEntry.has(file))
  const signedIn = filesFor(options.signedIn).filter((file) => !atEntry.has(file) && !always.includes(file))
  return { atEntry, always, signedIn }
}

/**
 * Puts the first screen's chunks in `index.html`, so the browser fetches them while it parses the
 * page instead of after the start-up chunk has run (docs/architecture.md, "First screen"):
 * - `always`: modules every visit needs (React and the sign-in form), as `modulepreload` links;
 * - `signedIn`: modules only a visit with a stored token needs (the signed-in screens), preloaded
 *   by a small inline script that looks for the token first, so the sign-in form never waits on
 *   them. The server allows that one script by its hash
 *   (server/platform/console.ts);
 * - `byPath`: with a token, the module of the screens served under a path, when the address is
 *   that path or below it (a feature whose screens are a chunk of their own).
 */
export const earlyStart = (options: {
  readonly always: ReadonlyArray<string>
  readonly signedIn: ReadonlyArray<string>
  readonly byPath: Readonly<Record<string, string>>
  readonly tokenKey: string
  /** Builds `always` and `signedIn` as one chunk each (read off a survey build); false: the bundler's own split. */
  readonly mergeChunks?: boolean
}): Plugin => {
  let base = "/"
  let surveyConfig: { readonly configFile: string | undefined; readonly mode: string } | undefined
  // What `always` and `signedIn` load, each built as one chunk (and one stylesheet): left to
  // itself the bundler split them into a dozen files shared with other screens, and on a cold
  // load each file is a request, a response and a module record more before the first screen
  // (what it buys, measured: docs/architecture.md, "What each speed piece buys"). Which modules those are is read off the bundler's
  // own split, from a first build that writes nothing (the survey): the module graph alone says
  // the sign-in form needs every Radix component, as it imports them through the package's index.
  let earlyModules: ReadonlySet<string> = new Set()
  let startModules: ReadonlySet<string> = new Set()
  let signedInModules: ReadonlySet<string> = new Set()
  const surveying = () => process.env[SURVEY] === "1"
  return {
    name: "early-start",
    apply: "build",
    config: () =>
      surveying() || options.mergeChunks === false
        ? undefined
        : {
            build: {
              rolldownOptions: {
                output: {
                  codeSplitting: {
                    // Only the modules the survey found: a module the start-up chunk imports stays there.
                    includeDependenciesRecursively: false,
                    groups: [
                      { name: "early", test: (id: string) => earlyModules.has(id), priority: 3 },
                      { name: "start", test: (id: string) => startModules.has(id), priority: 2 },
                      { name: "signed-in", test: (id: string) => signedInModules.has(id), priority: 1 }
                    ]
                  }
                }
              }
            }
          },
    async buildStart() {
      // Without a config file to build again (an inline config), the bundler's own split stays.
      if (surveying() || options.mergeChunks === false || surveyConfig?.configFile === undefined) return
      process.env[SURVEY] = "1"
      let output: ReadonlyArray<BuiltChunk | { readonly type: "asset"; readonly fileName: string }>
      try {
        const built = await build({ configFile: surveyConfig.configFile, mode: surveyConfig.mode, logLevel: "silent", build: { write: false } })
        output = (Array.isArray(built) ? built : [built]).flatMap((result) => ("output" in result ? (result.output as unknown as typeof output) : []))
      } finally {
        delete process.env[SURVEY]
      }
      const bundle = Object.fromEntries(output.map((item) => [item.fileName, item]))
      const { atEntry, always, signedIn } = firstScreenFiles(bundle, options)
      const moduleIdsOf = (files: ReadonlyArray<string>) => new Set(files.flatMap((file) => (bundle[file] as BuiltChunk | undefined)?.moduleIds ?? []))
      // What the entry shares with later chunks (the session holder, the list paths and the rules
      // they read, the date helpers) is one file beside it, not a small file each.
      const entryFile = Object.values(bundle).find((item): item is BuiltChunk => item.type === "chunk" && item.isEntry)?.fileName
      const sharedWithEntry = [...atEntry].filter((file) => file !== entryFile && file.endsWith(".js") && !file.includes("rolldown-runtime"))
      earlyModules = moduleIdsOf(sharedWithEntry)
      startModules = moduleIdsOf(always)
      signedInModules = moduleIdsOf(signedIn)
    },
    configResolved: (config) => {
      base = config.base
      surveyConfig = { configFile: config.configFile, mode: config.mode }
    },
    transformIndexHtml: {
      order: "post",
      handler: (_html, context) => {
        const bundle = context.bundle
        if (bundle === undefined) return []
        const { atEntry, always, signedIn } = firstScreenFiles(bundle, options)
        const href = (file: string) => `${base}${file}`
        const loaded = new Set([...atEntry, ...always, ...signedIn])
        const byPath = Object.entries(options.byPath).map(
          ([path, module]) =>
            [
              path,
              filesOf(bundle, chunkFor(bundle, module))
                .filter((file) => !loaded.has(file))
                .map(href)
            ] as const
        )
        const script =
          `(()=>{try{if(localStorage.getItem(${JSON.stringify(options.tokenKey)})===null)return}catch{return}` +
          `const p=location.pathname,w=${JSON.stringify(signedIn.map(href))};` +
          `for(const[r,f]of ${JSON.stringify(byPath)})if(p===r||p.startsWith(r+"/"))w.push(...f);` +
          `for(const f of w){const l=document.createElement("link");` +
          `if(f.endsWith(".css")){l.rel="preload";l.as="style"}else l.rel="modulepreload";l.crossOrigin="";l.href=f;document.head.append(l)}})()`
        return [
          ...always.map((file) => ({
            tag: "link",
            attrs: file.endsWith(".css") ? { rel: "stylesheet", href: href(file) } : { rel: "modulepreload", crossorigin: true, href: href(file) },
            injectTo: "head" as const
          })),
          { tag: "script", children: script, injectTo: "head-prepend" as const }
        ]
      }
    }
  }
}
