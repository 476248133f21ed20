import "@radix-ui/themes/styles.css"
import "../global.css"
import "../../lib/theme.css"
import { startEarly } from "./boot.ts"

// Start-up is its own small chunk: the requests the first screen needs leave before React and
// the console have even downloaded (docs/architecture.md, "First screen").
startEarly()
void import("./render.tsx")
