import { SessionCheck } from "../../contract/auth.ts"
import { CexAddress, CoreTeamAddress, GeneratedAddress } from "../../contract/addresses.ts"
import { PostPage } from "../../contract/blog-api.ts"
import { pageOf } from "../../contract/lists.ts"

/**
 * The answers start-up asks for before the console's code has loaded (src/app/boot.ts), by the
 * name the console checks them under. The build compiles each schema into a small validator
 * (tools/vite-answer-checks.ts), so the first screen needs no effect to trust its first answers;
 * only schemas whose decoded value is their JSON may be listed (tests/unit/answer-checks.test.ts).
 * The console never imports this module: it imports `virtual:answer-checks`.
 */
export const firstAnswerSchemas = {
  sessionCheck: SessionCheck,
  generatedPage: pageOf("addresses", GeneratedAddress),
  cexPage: pageOf("addresses", CexAddress),
  coreTeamPage: pageOf("addresses", CoreTeamAddress),
  postPage: PostPage
} as const

export type FirstAnswerName = keyof typeof firstAnswerSchemas
