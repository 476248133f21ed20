// The blog's screens, one chunk apart from the signed-in app: the list's filters and the editor's
// tabs bring Radix Select, Checkbox and Tabs, which the other first screens don't need
// (docs/architecture.md, "First screen").
export { BlogEditorScreen } from "./BlogEditorScreen.tsx"
export { BlogScreen } from "./BlogScreen.tsx"
