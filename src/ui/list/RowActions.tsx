export interface RowAction {
  readonly label: string
  readonly onClick: () => void
  /** A destructive action is red. */
  readonly danger?: boolean
}

/**
 * A row's buttons (the last column of a list). They are out of the tab order: the row's keys do
 * the same (src/lib/list/use-row-focus.ts). Radix Themes' soft size-1 button markup, without
 * its component, whose prop handling at 20 rows × 3 buttons was a measurable part of the first
 * screen (docs/architecture.md, "Interactions"). The class names are held to the installed
 * stylesheet by tests/unit/radix-classes.test.ts.
 */
export const RowActions = ({ actions }: { readonly actions: ReadonlyArray<RowAction> }) => (
  <div className="rt-Flex rt-r-gap-2">
    {actions.map((action) => (
      <button
        key={action.label}
        type="button"
        tabIndex={-1}
        className="rt-reset rt-BaseButton rt-r-size-1 rt-variant-soft rt-Button"
        data-accent-color={action.danger === true ? "red" : ""}
        onClick={action.onClick}
      >
        {action.label}
      </button>
    ))}
  </div>
)
