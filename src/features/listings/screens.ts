// The listing screens, one chunk apart from the signed-in app (docs/architecture.md, "First
// screen"): nothing the directories' first screen loads should grow with them. The kinds (their
// calls, fields and texts) come with the screens.
export { queueKinds } from "./kinds.ts"
export { ListingsScreen } from "./ListingsScreen.tsx"
