import { useActorRef } from "@xstate/react"
import { useLayoutEffect, useState } from "react"
import type { ActorOptions, AnyStateMachine, MachineImplementationsFrom } from "xstate"

/**
 * `useActorRef(machine.provide(implementations), options)` without making a new machine on every
 * render: `provide` builds the machine's whole state tree again, and a list screen renders three
 * times a page turn (docs/architecture.md, "Interactions"). The machine is provided once; each
 * render's implementations then take the place of the last ones before an event can reach them,
 * merged as `provide` merges them, which is what @xstate/react itself does after a render with a
 * new `provide` (it assigns the actor's `logic.implementations`). Name the machine's type,
 * `useProvidedActorRef<typeof machine>(machine, …)`: TypeScript types the implementations'
 * `fromPromise` input and output only from a machine type it was given.
 */
export const useProvidedActorRef = <M extends AnyStateMachine>(machine: M, implementations: MachineImplementationsFrom<M>, options?: ActorOptions<M>) => {
  const [provided] = useState(() => machine.provide(implementations) as M)
  useLayoutEffect(() => {
    const defaults = machine.implementations
    provided.implementations = {
      actions: { ...defaults.actions, ...implementations.actions },
      guards: { ...defaults.guards, ...implementations.guards },
      actors: { ...defaults.actors, ...implementations.actors },
      delays: { ...defaults.delays, ...implementations.delays }
    } as M["implementations"]
  })
  return useActorRef(provided, options)
}
