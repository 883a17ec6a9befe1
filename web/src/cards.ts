// Cards drawn as cards (CSS only, no art): name, cost, types in Dominion's type colours (dual
// types split), VP and text. Reading a card never acts: a card is a button that only shows its
// face in the card panel; actions are the question's named controls.
import { h, replace, withKey } from "./dom";
import type { Card } from "./gen/dominion/v1/dominion_pb";

// The types that colour a card, in the order they take the card's face (Reaction is drawn
// over Action: Moat is blue, as printed).
const COLOURED = ["Treasure", "Victory", "Curse", "Reaction", "Action"];

export class Catalog {
  private readonly byName = new Map<string, Card>();
  private readonly pattern: RegExp;
  private readonly singular = new Map<string, string>();   // a name or its plural -> the name

  constructor(cards: readonly Card[],
    readonly showCard: (name: string, sheet?: "open" | "keep") => void) {
    for (const c of cards) {
      this.byName.set(c.name, c);
      this.singular.set(c.name, c.name);
      if (c.plural) this.singular.set(c.plural, c.name);
    }
    const words = [...this.singular.keys()].sort((a, b) => b.length - a.length)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    this.pattern = new RegExp(`\\b(${words.join("|")})\\b`, "g");
  }

  get(name: string): Card | undefined {
    return this.byName.get(name);
  }

  /** The classes that colour a card: "t-action t-attack", and "split" for two colours. */
  typeClass(name: string): string {
    const types = this.byName.get(name)?.types ?? [];
    let colours = COLOURED.filter((t) => types.includes(t));
    if (colours.includes("Reaction")) colours = colours.filter((t) => t !== "Action");
    const classes = types.map((t) => `t-${t.toLowerCase()}`);
    classes.push(`c1-${(colours[0] ?? "action").toLowerCase()}`);
    if (colours.length > 1) classes.push(`c2-${colours[colours.length - 1].toLowerCase()}`,
      "split");
    return classes.join(" ");
  }

  /** A card as a button that shows its face when pointed at, focused or pressed and held.
   * ``size``: "pile" (Supply, with text), "hand", "chip" (a name in a row). A card that can
   * act (``act``: play it, buy it) does so on a click or tap, marked for the no-stray-move
   * guard (steady.ts) by ``act.id``; any other card shows its face on a click too. A
   * Treasure in a hand says what it makes ($2 Silver), a pile what it costs. */
  face(name: string, size: "pile" | "hand" | "chip", opts: {
    count?: number; cost?: number; focus?: string; extra?: string; note?: string;
    act?: { id: string; verb: string; run: () => void; key?: string };
  } = {}): HTMLElement {
    const card = this.byName.get(name);
    const makes = size === "hand" && card?.types.includes("Treasure");
    const cost = makes ? card?.coins : opts.cost ?? card?.cost;
    const show = () => this.showCard(name);
    const peek = () => this.showCard(name, "keep");   // the panel; a sheet only if open
    const longest = Math.max(...name.split(" ").map((w) => w.length));
    const parts = size === "chip" ? [h("span", { class: "c-name" }, name)] : [
      h("span", { class: `c-name${longest >= 9 ? ` n${Math.min(longest, 12)}` : ""}` }, name),
      size === "pile" && card?.text ? h("span", { class: "c-text" }, card.text) : null,
      h("span", { class: "c-foot" },
        cost === undefined ? null : h("span", { class: makes ? "c-coins" : "c-cost",
          title: makes ? `makes $${cost}` : `costs $${cost}` }, `$${cost}`),
        h("span", { class: "c-types" }, card?.types.join(" – ") ?? ""),
        opts.count === undefined ? null
          : h("span", { class: "c-count" }, opts.count ? `${opts.count} left` : "empty")),
    ];
    const act = opts.act;
    const el = h("button", {
      type: "button", class: `card ${size} ${this.typeClass(name)} ${opts.extra ?? ""}` +
        `${act ? " move" : ""}`,
      "data-card": name, "data-focus": opts.focus, "data-act": act?.id, "data-verb": act?.verb,
      onmouseenter: act ? peek : show, onfocus: act ? peek : show, onclick: act ? act.run : show,
    }, parts, opts.note ? h("span", { class: "c-note" }, opts.note) : null);
    if (act) holdToRead(el, show);
    return act?.key ? withKey(el, act.key) : el;
  }

  /** The card panel's content for ``name``: the whole face, large. */
  drawBig(panel: HTMLElement, name: string, close?: () => void): void {
    const card = this.byName.get(name);
    if (!card) return;
    replace(panel,
      h("div", { class: `card big ${this.typeClass(name)}` },
        h("span", { class: "c-name" }, card.name),
        h("span", { class: "c-text" }, card.text || ""),
        h("span", { class: "c-foot" }, h("span", { class: "c-cost" }, `$${card.cost}`),
          h("span", { class: "c-types" }, card.types.join(" – ")),
          card.vp ? h("span", { class: "c-vp" }, `${card.vp} VP`) : null)),
      h("p", { class: "small" }, `${setName(card.set)}`),
      close ? h("button", { type: "button", class: "close", onclick: close }, "Close") : null);
  }

  /** A log line with each card name in its type colour (pointing at it shows the card). */
  words(text: string): (Node | string)[] {
    const out: (Node | string)[] = [];
    let at = 0;
    for (const m of text.matchAll(this.pattern)) {
      const name = this.singular.get(m[0]) as string;
      if (m.index! > at) out.push(text.slice(at, m.index));
      out.push(h("button", { type: "button", class: `card-name ${this.typeClass(name)}`,
        "data-card": name, onmouseenter: () => this.showCard(name),
        onfocus: () => this.showCard(name), onclick: () => this.showCard(name) }, m[0]));
      at = m.index! + m[0].length;
    }
    if (at < text.length) out.push(text.slice(at));
    return out;
  }
}

const HOLD_MS = 450;

/** Reading a card that acts on a tap: press and hold it (or right-click it). The click that
 * ends a long press is swallowed, so reading never plays or buys. */
function holdToRead(el: HTMLElement, show: () => void): void {
  let timer = 0;
  let read = false;
  const cancel = () => window.clearTimeout(timer);
  el.addEventListener("pointerdown", (e) => {
    read = false;
    if (e.pointerType === "mouse") return;
    cancel();
    timer = window.setTimeout(() => { read = true; show(); }, HOLD_MS);
  });
  for (const end of ["pointerup", "pointercancel", "pointerleave"]) {
    el.addEventListener(end, cancel);
  }
  el.addEventListener("contextmenu", (e) => { e.preventDefault(); cancel(); read = true; show(); });
  el.addEventListener("click", (e) => {
    if (!read) return;
    read = false;
    e.stopImmediatePropagation();
    e.preventDefault();
  }, { capture: true });
}

const SET_NAMES: Record<string, string> = {
  basic: "Base cards", "base-1e": "Dominion, first edition", "base-2e": "Dominion, second edition",
  "intrigue-1e": "Intrigue, first edition", "intrigue-2e": "Intrigue, second edition",
};

export function setName(set: string): string {
  return SET_NAMES[set] ?? set;
}

/** "Witch Big Money" for the bot "witch-big-money". */
export function botTitle(bot: string): string {
  return bot.split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}
