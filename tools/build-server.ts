import { rmSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { rolldown } from "rolldown"

/**
 * `npm run build`'s second half: the server as `npm start` runs it, one bundle in `build/server/`.
 * Run from its TypeScript sources, the idle server held about 210 MB: Node's type stripping
 * (17 MB), every module of effect whole with its documentation, and the young generation all
 * that parsing grew. Bundled (effect tree-shaken, comments dropped, names kept so stack traces
 * read as the sources do) it holds about 100 MB (docs/architecture.md, "Memory").
 *
 * Left outside the bundle: PGlite, which loads its WebAssembly and data files from beside its
 * own module, and the two CommonJS packages. The bundle sits two folders below the project's
 * root, as the sources it is made of do, so the paths they take from `import.meta.url` (the
 * built console in `dist/`, the project root) point where they did.
 */
const root = fileURLToPath(new URL("..", import.meta.url))
const serverBundleDir = `${root}build/server`

const external = /^(node:|@electric-sql\/pglite|nodemailer|sanitize-html)/

rmSync(serverBundleDir, { recursive: true, force: true })
const bundle = await rolldown({ input: `${root}server/main.ts`, platform: "node", external, logLevel: "warn" })
await bundle.write({
  dir: serverBundleDir,
  format: "esm",
  entryFileNames: "main.mjs",
  chunkFileNames: "[name]-[hash].mjs",
  comments: false
})
await bundle.close()
