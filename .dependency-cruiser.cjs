/**
 * The layer rules of docs/architecture.md ("Layers"), checked by dependency-cruiser in `npm test`
 * and `npm run lint` (tests/unit/layers.test.ts plants a violation of each to show it fails).
 * Imports point down only; a rule's `comment` is what a person reads when they break it.
 */

/**
 * The server's areas (`server/<area>/`: its handlers in http.ts, its SQL in repository.ts, its
 * rules) import neither each other nor anything of another area, but what is declared here, one
 * importer at a time with why; what two areas share goes to server/platform/ or contract/.
 * server/cli/ is no area: like server/app.ts, it composes them.
 */
const anyArea = "^server/(?!platform/|cli/)([^/]+)/"
/** What every area may reach in another. */
const everyArea = [
  // The roles: who may read and change what, one rule for every area (docs/security.md, "Roles").
  "^server/auth/roles\\.ts$"
]
const reaches = [
  {
    from: "^server/(history)/kinds\\.ts$",
    to: ["^server/[^/]+/repository\\.ts$"],
    comment: "The history's registry of kinds names each kind's table, and the area's own change where a restore needs its rules."
  },
  {
    from: "^server/(stream)/kinds\\.ts$",
    to: ["^server/[^/]+/repository\\.ts$", "^server/addresses/kinds\\.ts$", "^server/listings/records\\.ts$"],
    comment: "The stream's registry of kinds reads each area's records as its read endpoint answers them (docs/api.md, \"Live changes\")."
  },
  {
    from: "^server/(triage)/",
    to: ["^server/[^/]+/repository\\.ts$", "^server/stream/kinds\\.ts$", "^server/listings/records\\.ts$"],
    comment:
      "The triage desk reads each waiting area's records as its endpoints answer them and changes them on the area's table (docs/api.md, \"The triage desk\")."
  },
  {
    from: "^server/(events|ventures)/",
    to: ["^server/listings/(repository|writes|records)\\.ts$"],
    comment: "Events, hackathons and ventures are listing types: one table, one set of moderation rules (server/listings/)."
  },
  {
    from: "^server/(auth)/",
    to: ["^server/(admin-users|allowed-ips|sessions)/repository\\.ts$", "^server/sessions/confirmation-repository\\.ts$"],
    comment:
      "Signing in reads the admin's account, checks the allowed addresses and opens a session; every request finds its session there, and a guarded change its confirmation."
  },
  {
    from: "^server/(admin-users)/",
    to: ["^server/sessions/(repository|cache)\\.ts$"],
    comment: "An account shows its open sessions; disabling or demoting it ends or lowers them in the same transaction."
  },
  {
    from: "^server/(stream)/(?!kinds\\.ts$)",
    to: ["^server/sessions/(repository|cache)\\.ts$"],
    comment: "A change stream ends when its session does."
  }
]
const areaRule = (from, fromNot, allowed, comment) => ({
  name: "server-areas-apart",
  severity: "error",
  comment,
  from: { path: from, pathNot: fromNot },
  to: { path: "^server/(?!platform/)[^/]+/", pathNot: ["^server/$1/", ...everyArea, ...allowed] }
})

module.exports = {
  forbidden: [
    areaRule(
      anyArea,
      reaches.map((reach) => reach.from),
      [],
      "An area of the server never imports another (.dependency-cruiser.cjs lists the few exceptions, each with why): what two share goes to server/platform/ or contract/."
    ),
    ...reaches.map((reach) => areaRule(reach.from, [], reach.to, `${reach.comment} Nothing else of another area.`)),
    {
      name: "no-circular",
      severity: "error",
      comment: "Import circles make a module's meaning depend on load order: break the circle by moving what both need down a layer.",
      from: {},
      to: { circular: true }
    },
    {
      name: "contract-only-effect",
      severity: "error",
      comment: "contract/ is the bottom layer: it imports itself and effect only (and package.json, for the API's version).",
      from: { path: "^contract/" },
      to: { pathNot: ["^contract/", "^node_modules/effect/", "^package\\.json$"] }
    },
    {
      name: "machines-only-contract-and-xstate",
      severity: "error",
      comment: "machines/ import the contract and xstate only, never the server or the console.",
      from: { path: "^machines/" },
      to: { pathNot: ["^machines/", "^contract/", "^node_modules/xstate/"] }
    },
    {
      name: "server-not-console",
      severity: "error",
      comment: "The server never imports the console (src/), the build tools or the tests.",
      from: { path: "^server/" },
      to: { path: "^(src|tools|tests)/" }
    },
    {
      name: "platform-not-areas",
      severity: "error",
      comment: "server/platform/ serves every area and imports none (an area imports the platform).",
      from: { path: "^server/platform/" },
      to: { path: "^server/(?!platform/)[^/]+/" }
    },
    {
      name: "console-not-server",
      severity: "error",
      comment: "The console talks to the server through the contract, never by importing it.",
      from: { path: "^src/" },
      to: { path: "^(server|tools|tests)/" }
    },
    {
      name: "tools-not-console",
      severity: "error",
      comment: "The build tools (tools/) never import the console (src/): what both need lives in contract/ or in tools/.",
      from: { path: "^tools/" },
      to: { path: "^src/" }
    },
    {
      name: "features-apart",
      severity: "error",
      comment: "A feature never imports another feature: what two share goes to src/lib/ or src/ui/.",
      from: { path: "^src/features/([^/]+)/" },
      to: { path: "^src/features/", pathNot: "^src/features/$1/" }
    },
    {
      name: "features-not-app",
      severity: "error",
      comment: "Features never import src/app/ (it composes them).",
      from: { path: "^src/features/" },
      to: { path: "^src/app/" }
    },
    {
      name: "shared-not-api-or-features",
      severity: "error",
      comment: "src/ui/ and src/lib/ are shared by every feature: they never import src/api/, src/kinds/, a feature or src/app/.",
      from: { path: "^src/(ui|lib)/" },
      to: { path: "^src/(api|kinds|features|app)/" }
    },
    {
      name: "kinds-not-features",
      severity: "error",
      comment: "src/kinds/ declares each kind's decisions once for every feature that shows the kind: it never imports a feature or src/app/.",
      from: { path: "^src/kinds/" },
      to: { path: "^src/(features|app)/" }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(dist|build|node_modules)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"]
    },
    moduleSystems: ["es6", "cjs"]
  }
}
