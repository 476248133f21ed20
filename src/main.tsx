import { createRoot } from "react-dom/client"

const root = document.getElementById("root")
if (root !== null) createRoot(root).render(<p>Admin console</p>)
