import { useActorRef } from "@xstate/react"
import { useState } from "react"
import type { ActorOptions, AnyStateMachine } from "xstate"

/**
 * A machine running for the calling component's life, given what the console provides it (its
 * actors and actions, `machine.provide(…)` in `provided`, called once: stable callbacks,
 * src/lib/use-stable.ts, for what must read the latest render). Read it with `useSelector`,
 * selecting only what the component shows.
 */
export const useMachine = <M extends AnyStateMachine>(provided: () => M, options?: ActorOptions<M>) => {
  const [logic] = useState(provided)
  return useActorRef(logic, options)
}
