import type { Plugin } from "vite"

/**
 * Builds each group of the first screens' code as one chunk (and one stylesheet): a group is its
 * module and everything that module imports statically, as the bundler resolves it (through a
 * package's index to the modules actually used). Left to itself the bundler split the same code
 * into a dozen files shared with other screens, and on a cold load each file is one more request,
 * response and module record before the first screen (docs/architecture.md, "First screen").
 * A group listed earlier keeps the modules it shares with a later one; `tests/e2e/lists.test.ts`
 * holds the chunks a first screen loads.
 */
export const chunkGroups = (groups: Readonly<Record<string, string>>): Plugin => ({
  name: "first-screen-chunk-groups",
  apply: "build",
  config: () => ({
    build: {
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: Object.entries(groups).map(([name, module], index, all) => ({
              name,
              test: (id: string) => id.endsWith(module),
              priority: all.length - index
            }))
          }
        }
      }
    }
  })
})
