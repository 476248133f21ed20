import "./count-cards.css"
import type { CountCard } from "../lib/list/declarations.ts"

/** A queue's count cards (the spec's summary cards): each a button that filters the list by it. */
export const CountCards = ({ label, cards }: { readonly label: string; readonly cards: ReadonlyArray<CountCard> }) => (
  <div className="count-cards" role="group" aria-label={label} style={{ "--count-columns": cards.length } as React.CSSProperties}>
    {cards.map((card) => (
      <button key={card.key} type="button" className="count-card" aria-pressed={card.active} onClick={card.onClick}>
        <span className="count-card-label">{card.label}</span>
        <span className="count-card-value">{card.value === undefined ? "–" : card.value}</span>
      </button>
    ))}
  </div>
)
