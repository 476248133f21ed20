import { Effect } from "effect"
import { runCli } from "./run.ts"

/** `npm run migrate`: the platform layer migrates on start, so this only reports. */
runCli(Effect.sync(() => console.log("Database is migrated.")))
