import fc from "fast-check"

/**
 * Every property of `npm test` draws from one seed, so a run fails for a defect and never for the
 * draw; `PROPERTY_SEED=random` (`npm run test:nightly`) draws anew, and a failure prints its seed
 * to replay with `PROPERTY_SEED=<seed>` (docs/testing.md, "Seeds, and a defect of the runtime").
 * Loaded before each test file (vite.config.ts, `setupFiles`).
 */
export const PROPERTY_SEED_ENV = "PROPERTY_SEED"
const SUITE_SEED = 20_261_203

const chosen = process.env[PROPERTY_SEED_ENV]
if (chosen !== "random") fc.configureGlobal({ seed: chosen === undefined ? SUITE_SEED : Number(chosen) })
