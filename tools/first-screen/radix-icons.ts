import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import type { Plugin } from "vite"

const PREFIX = "virtual:radix-icon/"
const HELPER = "\0radix-icon-helper"
const IMPORT = /import\s*\{([^}]+)\}\s*from\s*["']@radix-ui\/react-icons["'];?/g

interface IconSource {
  readonly helper: string
  readonly icons: ReadonlyMap<string, string>
}

/** The package's one ES module, cut into its shared helper and one definition per icon. */
const readIcons = (): IconSource => {
  const require = createRequire(import.meta.url)
  const file = join(dirname(require.resolve("@radix-ui/react-icons/package.json")), "dist/react-icons.esm.js")
  const source = readFileSync(file, "utf8")
  const parts = source.split(/\n(?=var _excluded(?:\$\w+)? = \["color"\];\n)/)
  const header = parts[0] ?? ""
  const helperStart = header.indexOf("function _objectWithoutPropertiesLoose")
  if (helperStart < 0 || parts.length < 100) throw new Error("radix-icons: @radix-ui/react-icons changed shape; revisit tools/first-screen/radix-icons.ts")
  const icons = new Map<string, string>()
  for (const part of parts.slice(1)) {
    const name = /\nvar (\w+Icon) = \/\*#__PURE__\*\/forwardRef\(/.exec(part)?.[1]
    if (name === undefined) throw new Error("radix-icons: an icon's definition did not parse")
    icons.set(name, part.split(/\nexport \{/)[0] ?? part)
  }
  return { helper: header.slice(helperStart), icons }
}

/**
 * `@radix-ui/react-icons` is one module, so a bundler puts every icon the console uses anywhere
 * in the one chunk that holds the module: the blog editor's toolbar icons rode on the first
 * screen. At build time each named import becomes a module of its own
 * (`virtual:radix-icon/Name`), so each icon lands in the chunk of the screens that draw it
 * (docs/architecture.md, "First screen").
 */
export const radixIconsApart = (): Plugin => {
  let source: IconSource | undefined
  const icons = () => (source ??= readIcons())
  return {
    name: "radix-icons-apart",
    apply: "build",
    enforce: "pre",
    transform(code, id) {
      if (id.includes("node_modules") || !/\.[jt]sx?$/.test(id) || !code.includes("@radix-ui/react-icons")) return undefined
      const rewritten = code.replace(IMPORT, (_statement, names: string) =>
        names
          .split(",")
          .map((name) => name.trim())
          .filter((name) => name !== "")
          .map((name) => {
            const [imported, local = imported] = name.split(/\s+as\s+/) as [string, string?]
            if (!icons().icons.has(imported)) throw new Error(`radix-icons: @radix-ui/react-icons has no ${imported}`)
            return `import ${local} from "${PREFIX}${imported}";`
          })
          .join("")
      )
      return { code: rewritten, map: null }
    },
    resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : id === HELPER ? HELPER : undefined),
    load(id) {
      if (id === HELPER) return `${icons().helper}\nexport { _objectWithoutPropertiesLoose };`
      if (!id.startsWith(`\0${PREFIX}`)) return undefined
      const name = id.slice(PREFIX.length + 1)
      const definition = icons().icons.get(name)
      if (definition === undefined) throw new Error(`radix-icons: no icon ${name}`)
      return `import { forwardRef, createElement } from "react";\nimport { _objectWithoutPropertiesLoose } from "${HELPER}";\n${definition}\nexport default ${name};`
    }
  }
}
