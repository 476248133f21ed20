import { existsSync } from "node:fs"
import { PGLITE_IMAGE_ENV } from "./database.ts"
import { makeDatabaseImages } from "./database-images.ts"

/**
 * Before any test file: the images and the template every test database starts from
 * (tests/support/database-images.ts; docs/testing.md, "How the suite runs"). Test files run in
 * processes started after this one's set-up, with its environment.
 */
export default async function setup() {
  // `npm run test:repeat` makes them once for all its runs (tests/repeat.ts).
  if (process.env[PGLITE_IMAGE_ENV] !== undefined && existsSync(process.env[PGLITE_IMAGE_ENV])) return () => undefined
  const images = await makeDatabaseImages()
  Object.assign(process.env, images.env)
  return images.remove
}
