import { register } from "node:module"

// The build's virtual modules, as the bench's Node imports them (./virtual-modules.ts).
register("./virtual-modules.ts", import.meta.url)
