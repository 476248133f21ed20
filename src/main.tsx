import "@radix-ui/themes/styles.css"
import "./app/global.css"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { preloadApi } from "./api/auth.ts"
import { App } from "./app/App.tsx"

const root = document.getElementById("root")
if (root === null) throw new Error("#root is missing from index.html")
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>
)
preloadApi()
