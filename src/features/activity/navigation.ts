export { activityDestinations } from "../../lib/destinations.ts"
export { ACTIVITY_PATH } from "../../lib/paths.ts"
