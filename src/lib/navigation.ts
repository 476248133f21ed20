import type { ComponentType, ReactNode } from "react"

/** A screen in the sidebar, the palette's "Go to …" and the `g` shortcuts. */
export interface Destination {
  readonly path: string
  /** The sidebar entry, docs/product-spec.md §2 "Admin shell". */
  readonly label: string
  /** The screen's heading. */
  readonly title: string
  readonly icon: ComponentType
  /** Pressed after `g` to go there. */
  readonly key: string
}

/** A route a feature serves: its path pattern and what it shows there. */
export interface FeatureRoute {
  readonly path: string
  /** Routes with the same key keep their screen mounted when the address moves between them. */
  readonly key?: string
  readonly render: (params: Readonly<Record<string, string | undefined>>) => ReactNode
}

/** A route is active by prefix, except `/`, which must match exactly. */
export const isActive = (path: string, location: string): boolean => (path === "/" ? location === "/" : location === path || location.startsWith(`${path}/`))
