/** The businesses', startups' and projects' enumerations (docs/product-spec.md §3), without effect. */
export const startupStages = ["idea", "mvp", "early-traction", "growth", "scale"] as const
export type StartupStage = (typeof startupStages)[number]

export const projectStatuses = ["planning", "in-development", "beta", "live", "maintenance", "discontinued"] as const
export type ProjectStatus = (typeof projectStatuses)[number]
