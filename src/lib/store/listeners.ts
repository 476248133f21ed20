/** Listeners of one kind of news in the console's store: `each` tells them all, `add` returns the way to stop. */
export const listenersOf = <T extends (...args: never[]) => void>() => {
  const listeners = new Set<T>()
  return {
    each: (...args: Parameters<T>) => {
      for (const listener of listeners) listener(...args)
    },
    add: (listener: T) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    }
  }
}
