// The table as players know it, drawn from a View: the Supply (the 10 Kingdom cards in two
// rows by cost, the Treasure, Victory and Curse piles apart), each player's area (deck,
// discard top, hand size, VP, in play, set aside), the trash, your hand along the bottom, the
// card panel and the log. Shared by the live table (game.ts) and the replay viewer (replay.ts);
// nothing here acts on the game.
import { Catalog, botTitle } from "./cards";
import { h, replace } from "./dom";
import type { Card, Event, PlayerView, View } from "./gen/dominion/v1/dominion_pb";

const PILE_GROUPS: [string, string][] = [["Treasure", "Treasures"], ["Victory", "Victory cards"],
  ["Curse", "Curses"]];

export interface Marks {
  buyable?: Set<string>;   // Supply piles the pending decision can buy (a click buys)
  playable?: Set<string>;  // hand cards it can play (a click plays)
  act?: (verb: "PLAY" | "BUY", card: string) => void;   // the live table's answer
  keys?: Map<string, string>;   // "BUY:Silver" -> the key that does it
  turn?: string;                // which turn it is (the guard's ids name it)
  watching?: boolean;      // a replay: the viewer's seat is someone else's, not "your"
}

export class Board {
  readonly status = h("header", { id: "status" });
  readonly supply = h("section", { id: "supply", class: "panel", "aria-label": "Supply" });
  readonly players = h("section", { id: "players", class: "panel", "aria-label": "Players" });
  readonly trash = h("section", { id: "trash", class: "panel", "aria-label": "Trash" });
  readonly mine = h("section", { id: "mine", class: "panel", "aria-label": "Your cards" });
  readonly cardText = h("aside", { id: "card-text", class: "panel", "aria-label": "Card",
    "aria-live": "polite" }, h("p", { class: "small" },
    "Point at a card, press and hold it, or move to it with Tab to read it here: reading " +
    "never plays or buys. A click on a ringed card plays it, on a ringed pile buys it."));
  readonly log = h("ol", { id: "log", class: "panel", "aria-label": "Log" });
  readonly catalog: Catalog;
  private logCount = 0;
  private logPinned = true;   // the log shows its newest line (until the reader scrolls up)
  private logTop = 0;         // where the page last scrolled the log to
  private seatClass = (seat: number) => `p${seat}`;

  constructor(cards: readonly Card[]) {
    this.catalog = new Catalog(cards, (name, sheet) => this.showCard(name, sheet));
    // Pinned to its newest line, also when the log's box changes size (the table's layout
    // settling, the window resized); a reader who scrolls up unpins it, back down pins it.
    this.log.addEventListener("scroll", () => {
      if (Math.abs(this.log.scrollTop - this.logTop) <= 1) return;   // our own scrolling
      this.logPinned = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 8;
    }, { passive: true });
    new ResizeObserver(() => this.followLog()).observe(this.log);
  }

  private followLog(): void {
    if (!this.logPinned) return;
    this.log.scrollTop = this.log.scrollHeight;
    this.logTop = this.log.scrollTop;
  }

  /** The page: header; the players' areas, the Supply, then the question and your cards
   * along the bottom; beside them the card panel, the trash and the log. */
  layout(root: HTMLElement, question: HTMLElement, banner: HTMLElement, chat?: HTMLElement):
    void {
    replace(root, h("h1", { class: "sr-only" }, "Dominion"), this.status, banner,
      h("div", { class: "table" },
        h("div", { class: "others" }, this.players),
        h("div", { class: "main" }, this.supply),
        h("div", { class: "dock" }, question, this.mine),
        h("div", { class: "side" }, this.cardText, this.trash,
          h("section", { class: "log-panel", "aria-label": "Game log" },
            h("h2", {}, "Log"), this.log), chat)));
  }

  /** The card's face in the card panel. ``sheet``: also as a sheet over a phone's screen
   * ("open"), not (a card being picked, whose Confirm the sheet would cover: "close"), or as
   * it is ("keep": a card that acts, read by pointing or focus; its long press opens). */
  showCard(name: string, sheet: "open" | "close" | "keep" = "open"): void {
    this.catalog.drawBig(this.cardText, name, () => this.cardText.classList.remove("open"));
    if (sheet !== "keep") this.cardText.classList.toggle("open", sheet === "open");
  }

  /** Everything but the question, keeping the keyboard's place: the element that had focus
   * is found again by its data-focus key after the redraw. */
  render(v: View, marks: Marks = {}): void {
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.focus;
    this.renderSupply(v, marks);
    this.renderPlayers(v, marks);
    this.renderMine(v, marks);
    replace(this.trash, h("h2", {}, `Trash (${v.trash.length})`),
      v.trash.length ? h("div", { class: "cards" }, countedFaces(this.catalog, v.trash, "trash"))
        : h("p", { class: "small" }, "Empty."));
    this.followLog();   // the table's new layout may have moved the log's end
    if (focused && (!document.activeElement || document.activeElement === document.body)) {
      const again = document.querySelector(`[data-focus="${CSS.escape(focused)}"]`);
      (again as HTMLElement | null)?.focus({ preventScroll: true });
    }
  }

  private renderSupply(v: View, marks: Marks): void {
    const kingdom = new Set(v.kingdom);
    const pile = (name: string) => {
      const p = v.supply.find((s) => s.name === name);
      const buyable = marks.buyable?.has(name) ?? false;
      return this.catalog.face(name, "pile", { count: p?.count ?? 0, cost: p?.cost,
        focus: `supply:${name}`, note: buyable ? "can buy" : undefined,
        act: this.act(marks, buyable, "BUY", name),
        extra: `pile${buyable ? " buyable" : ""}${p?.count ? "" : " empty"}` });
    };
    const byCost = (a: string, b: string) => {
      const ca = v.supply.find((s) => s.name === a)?.cost ?? 0;
      const cb = v.supply.find((s) => s.name === b)?.cost ?? 0;
      return ca - cb || a.localeCompare(b);
    };
    const base = v.supply.map((s) => s.name).filter((n) => !kingdom.has(n));
    const grouped = PILE_GROUPS.map(([type, title]) => [title, base.filter((n) =>
      (this.catalog.get(n)?.types ?? [])[0] === type).sort(byCost)] as [string, string[]]);
    const other = base.filter((n) => !grouped.some(([, names]) => names.includes(n)));
    const kingdomNames = v.supply.map((s) => s.name).filter((n) => kingdom.has(n)).sort(byCost);
    replace(this.supply,
      h("h2", {}, "Supply"),
      h("div", { class: "supply-layout" },
        h("div", { class: "base" }, [...grouped, ["Other", other] as [string, string[]]]
          .filter(([, names]) => names.length)
          .map(([title, names]) => h("div", { class: "base-group", "aria-label": title },
            names.map(pile)))),
        h("div", { class: "kingdom", "aria-label": "Kingdom" }, kingdomNames.map(pile))));
  }

  private renderPlayers(v: View, marks: Marks): void {
    replace(this.players, h("h2", {}, "Players"), h("div", { class: "seats" },
      v.players.map((p) => this.seatArea(v, p, marks))));
  }

  private seatArea(v: View, p: PlayerView, marks: Marks): HTMLElement {
    const current = p.seat === v.current && !v.gameOver;
    return h("div", { class: `seat ${this.seatClass(p.seat)}${current ? " current" : ""}`,
      "data-seat": p.seat },
    h("div", { class: "seat-head" },
      h("span", { class: "who" }, current ? "▶ " : "", p.name),
      p.bot ? h("span", { class: "bot-mark", title: `a bot playing ${botTitle(p.bot)}` },
        "bot") : null,
      p.seat === v.viewer ? h("span", { class: "you" }, marks.watching ? "seen as" : "you")
        : null,
      h("span", { class: "vp" }, `${p.vp} VP`)),
    h("div", { class: "zones" },
      h("span", {}, `Hand ${p.handSize}`), h("span", {}, `Deck ${p.deckSize}`),
      h("span", {}, `Discard ${p.discardSize}`),
      p.discardTop ? this.catalog.face(p.discardTop, "chip",
        { focus: `discard:${p.seat}`, note: "on top" }) : null),
    // One line, there whether empty or not: a card played moves nothing on the table.
    h("div", { class: "zone in-play" }, h("span", { class: "small" }, "In play: "),
      p.inPlay.length ? countedFaces(this.catalog, p.inPlay, `play:${p.seat}`)
        : h("span", { class: "small" }, "nothing"),
      p.aside.length ? [h("span", { class: "small aside" }, " Set aside: "),
        countedFaces(this.catalog, p.aside, `aside:${p.seat}`)] : null));
  }

  private renderMine(v: View, marks: Marks): void {
    const me = v.viewer === undefined ? undefined : v.players[v.viewer];
    const current = v.players[v.current];
    // The in-play row is there from the turn's start (empty), so playing a card moves
    // neither the question nor the hand.
    replace(this.mine,
      current && !v.gameOver
        ? h("div", { id: "in-play" }, h("h2", {},
          current.seat === v.viewer ? "In play" : `In play (${current.name})`),
        h("div", { class: "cards" }, current.inPlay.length
          ? countedFaces(this.catalog, current.inPlay, "inplay")
          : h("p", { class: "small" }, "Nothing yet.")))
        : null,
      me ? h("div", { id: "hand" }, h("h2", {},
        `${marks.watching ? `${me.name}'s` : "Your"} hand (${me.hand.length})`),
        h("div", { class: "cards" }, me.hand.map((c, i) => this.catalog.face(c, "hand", {
          focus: `hand:${i}`, extra: marks.playable?.has(c) ? "playable" : "",
          note: marks.playable?.has(c) ? "can play" : undefined,
          act: this.act(marks, marks.playable?.has(c) ?? false, "PLAY", c, i,
            me.hand.indexOf(c) === i) })))) : null,
      me && me.looking.length ? h("div", { id: "looking" }, h("h2", {}, "You are looking at"),
        h("div", { class: "cards" }, me.looking.map((c, i) => this.catalog.face(c, "hand",
          { focus: `looking:${i}` })))) : null);
  }

  /** What a card does when clicked, when it can act: its guard's id names the move and, in
   * a hand, the place ("PLAY:Village@2": another card slid there is another control); the
   * key goes on the first card of a name. */
  private act(marks: Marks, can: boolean, verb: "PLAY" | "BUY", card: string, at?: number,
    first = true): { id: string; verb: string; run: () => void; key?: string } | undefined {
    const act = marks.act;
    if (!can || !act) return undefined;
    return { id: `${marks.turn ?? ""}:${verb}:${card}${at === undefined ? "" : `@${at}`}`, verb,
      run: () => act(verb, card), key: first ? marks.keys?.get(`${verb}:${card}`) : undefined };
  }

  /** Append log events not shown yet (a redelivered event is skipped). */
  addEvents(events: readonly Event[]): void {
    for (const event of events) {
      if (Number(event.index) < this.logCount) continue;
      this.logCount = Number(event.index) + 1;
      this.log.append(h("li", { class: `event ${event.kind} ${this.seatClass(event.player)}`,
        "data-index": event.index, "data-player": event.player },
      this.catalog.words(event.text)));
    }
    this.followLog();
  }

  /** Cut the log back to its first ``length`` events (the replay viewer stepping back). */
  truncateLog(length: number): void {
    while (this.logCount > length && this.log.lastChild) {
      this.log.lastChild.remove();
      this.logCount--;
    }
  }

  /** The latest turn header in the log ("Turn 3 - Ann"), or "". */
  get lastTurnText(): string {
    const turns = this.log.querySelectorAll("li.turn");
    return turns.length ? (turns[turns.length - 1].textContent ?? "") : "";
  }

  /** The name of the player whose resignation ended the game, when the log holds it. */
  resigned(v: View): string | undefined {
    const line = this.log.querySelector<HTMLElement>("li.resign");
    return line ? v.players[Number(line.dataset.player)]?.name : undefined;
  }

    get logLength(): number {
    return this.logCount;
  }
}

/** "3 × Copper" as one chip a kind, in first-seen order. */
export function countedFaces(catalog: Catalog, cards: readonly string[], key: string):
  HTMLElement[] {
  const counts = new Map<string, number>();
  for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
  return [...counts].map(([name, n]) => catalog.face(name, "chip",
    { focus: `${key}:${name}`, note: n > 1 ? `× ${n}` : undefined }));
}
