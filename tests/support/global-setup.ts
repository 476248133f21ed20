import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createPglite } from "../../server/platform/database.ts"
import { PGLITE_IMAGE_ENV } from "./database.ts"

/**
 * Before any test file: one image of a new PGlite cluster, made by the server's own
 * `createPglite`, which every in-memory test database then starts from (tests/support/database.ts).
 * Creating the cluster takes 4-5 s here, loading the image about 1 (docs/testing.md, "How the suite runs").
 */
export default async function setup() {
  // `npm run test:repeat` makes the image once for all its runs (tests/repeat.ts).
  if (process.env[PGLITE_IMAGE_ENV] !== undefined && existsSync(process.env[PGLITE_IMAGE_ENV])) return () => undefined
  const cluster = await createPglite("memory://")
  const image = await cluster.dumpDataDir("none")
  await cluster.close()
  const folder = mkdtempSync(join(tmpdir(), "pglite-image-"))
  const file = join(folder, "cluster.tar")
  writeFileSync(file, Buffer.from(await image.arrayBuffer()))
  // Test files run in processes started after this one's set-up, with its environment.
  process.env[PGLITE_IMAGE_ENV] = file
  return () => rmSync(folder, { recursive: true, force: true })
}
