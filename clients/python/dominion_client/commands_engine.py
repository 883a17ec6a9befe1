"""Engine subcommands: ``dominion cards``, ``dominion kingdoms``, ``dominion simulate``."""
from __future__ import annotations

import json

import dominion


def register(sub) -> None:
    p = sub.add_parser("cards", help="list every card with its cost, types and set",
                       description="List every card: name, cost, types and set.")
    p.add_argument("--json", action="store_true", help="print a JSON array of objects")
    p.set_defaults(run=run_cards)


def card_rows() -> list:
    order = {s: i for i, s in enumerate(("basic",) + dominion.SETS)}
    cards = sorted(dominion.CARDS.values(), key=lambda c: (order[c.set], c.cost, c.name))
    return [{"name": c.name, "cost": c.cost, "types": list(c.types), "set": c.set} for c in cards]


def run_cards(args) -> int:
    rows = card_rows()
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            print(f"{r['name']:<16} ${r['cost']}  {', '.join(r['types']):<22} {r['set']}")
    return 0
