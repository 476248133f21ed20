// Constants the build sets (vite.config.ts, `runtimePieces`): false when `CONSOLE_WITHOUT` names
// the piece, so `npm run bench -- compare` can measure start-up without it.
declare const __EARLY_REQUESTS__: boolean
