import { PGlite } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGLITE_IMAGE_ENV } from "./database.ts"

/**
 * Before any test file: one image of a new PGlite cluster, made as the server makes one, which
 * every in-memory test database then starts from (tests/support/database.ts). Creating the cluster
 * takes 4-5 s here, loading the image about 1 (docs/testing.md, "Running time").
 */
export default async function setup() {
  const cluster = await PGlite.create("memory://", { extensions: { pg_trgm } })
  const image = await cluster.dumpDataDir("none")
  await cluster.close()
  const folder = mkdtempSync(join(tmpdir(), "pglite-image-"))
  const file = join(folder, "cluster.tar")
  writeFileSync(file, Buffer.from(await image.arrayBuffer()))
  // Test files run in processes started after this one's set-up, with its environment.
  process.env[PGLITE_IMAGE_ENV] = file
  return () => rmSync(folder, { recursive: true, force: true })
}
