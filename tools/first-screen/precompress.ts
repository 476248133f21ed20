import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import type { Plugin } from "vite"

const compressible = /\.(js|css|html|json|svg|txt|map)$/

const filesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : [full]
  })

/**
 * Writes `file.br` (Brotli, best) and `file.gz` (gzip, best) beside every text file of the
 * build, so the server sends compressed bytes without compressing on each request
 * (docs/architecture.md, "First screen").
 */
export const precompress = (): Plugin => {
  let outDir = "dist"
  let writes = true
  return {
    name: "precompress",
    apply: "build",
    configResolved: (config) => {
      outDir = config.build.outDir
      writes = config.build.write
    },
    // Last, after every other plugin's writing: the service worker is built when the bundle closes (vite.config.ts).
    closeBundle: {
      order: "post",
      sequential: true,
      handler: () => {
        if (!writes) return
        for (const file of filesUnder(outDir).filter((path) => compressible.test(path))) {
          const bytes = readFileSync(file)
          if (bytes.length < 512) continue
          writeFileSync(
            `${file}.br`,
            brotliCompressSync(bytes, {
              params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length }
            })
          )
          writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }))
        }
      }
    }
  }
}
