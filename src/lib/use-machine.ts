import { useActorRef } from "@xstate/react"
import { useState } from "react"
import type { ActorOptions, AnyStateMachine, MachineImplementationsFrom } from "xstate"

/**
 * A machine running for the calling component's life, with what the console gives it (its actors
 * and actions: stable callbacks, src/lib/use-stable.ts); read it with `useSelector`, selecting
 * only what the component shows.
 */
export const useMachine = <M extends AnyStateMachine>(machine: M, implementations: NoInfer<MachineImplementationsFrom<M>>, options?: ActorOptions<M>) => {
  const [logic] = useState(() => machine.provide(implementations) as M)
  return useActorRef(logic, options)
}
