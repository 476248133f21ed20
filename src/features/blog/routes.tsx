import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"

const screens = () => import("./screens.ts")
const BlogScreen = loadScreen(() => screens().then((module) => module.BlogScreen))
const BlogEditorScreen = loadScreen(() => screens().then((module) => module.BlogEditorScreen))

// One key for both editor routes: a new post's first save moves it to its own address without reopening it.
export const blogRoutes: ReadonlyArray<FeatureRoute> = [
  { path: "/blog", render: () => <BlogScreen /> },
  { path: "/blog/new", key: "blog-editor", render: () => <BlogEditorScreen slug={null} /> },
  { path: "/blog/:slug/edit", key: "blog-editor", render: (params) => <BlogEditorScreen slug={decodeURIComponent(params.slug ?? "")} /> }
]
