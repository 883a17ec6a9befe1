// The game screen: one seat's table (or a spectator's), kept current by the event stream.
// Everything shown comes from the server's View and the engine's log lines; the only thing the
// page decides is how an answer is put together before it is sent.
import { create, toJsonString } from "@bufbuild/protobuf";
import { client, refusal, seatHeaders } from "./api";
import { counted, h, replace } from "./dom";
import {
  CardListSchema, GetRecordResponseSchema, MoveSchema, OptionListSchema, Phase, Verb,
  type Answer, type Card, type Decision, type Event, type Move, type PublicDecision,
  type StreamEventsResponse, type View,
} from "./gen/dominion/v1/dominion_pb";

const RETRY_MS = 1000;
// The purposes whose select answers keep their order (the engine's ORDERED_PURPOSES), and what
// the order means.
const ORDER_HINTS: Record<string, string> = {
  discard: "The last card you pick ends on top of your discard pile.",
  topdeck: "The first card you pick ends on top of your deck.",
};

type AnswerValue = Answer["value"];

export class Table {
  private view?: View;
  private decision?: Decision;            // the pending decision, when it is this seat's
  private waiting?: PublicDecision;       // what the table is waiting for
  private logCount = 0;                   // events received so far
  private lastTurn?: Event;               // the latest "turn" event: whose turn, which number
  private cards = new Map<string, Card>();
  private error = "";                     // the server's refusal of the last answer
  private connection = "";                // the stream's trouble, while it reconnects
  private busy = false;                   // an answer is on its way
  private picked: number[] = [];          // select: chosen pool positions, in order
  private chosen: string[] = [];          // choose: chosen options
  private ordering: string[] = [];        // order: the cards, top first
  private shapedFor = -1n;                // the decision the three above belong to
  private questionKey = "";               // what the question panel shows now
  private floor = 0n;                     // the newest decision number seen: older views are
                                          // stale
  private stopped = false;
  private ended = false;                  // the stream said the game is over
  private refreshing = false;             // a GetView is on its way
  private stale = false;                  // the game changed since that GetView was sent
  private abort = new AbortController();

  private readonly status = h("header", { id: "status" });
  private readonly supply = h("section", { id: "supply", class: "panel" });
  private readonly players = h("section", { id: "players", class: "panel" });
  private readonly question = h("section", { id: "question", class: "panel" });
  private readonly mine = h("section", { id: "mine", class: "panel" });
  private readonly trash = h("section", { id: "trash", class: "panel" });
  private readonly log = h("ol", { id: "log", class: "panel" });
  private readonly cardText = h("aside", { id: "card-text", class: "panel" },
    "Point at a card, or tap it, to read its text.");

  constructor(private root: HTMLElement, private gameId: string, private token?: string) {}

  async start(): Promise<void> {
    replace(this.root, this.status,
      h("div", { class: "table" },
        h("div", { class: "left" }, this.supply, this.trash, this.cardText),
        h("div", { class: "middle" }, this.question, this.mine, this.players),
        h("div", { class: "right" }, h("h2", {}, "Log"), this.log)));
    try {
      const cards = (await client.listCards({})).cards;
      for (const c of cards) this.cards.set(c.name, c);
      const view = (await client.getView({ gameId: this.gameId, logFrom: 0n },
        { headers: seatHeaders(this.token) })).view;
      this.addEvents(view?.log ?? []);
      this.setView(view);
    } catch (e) {
      replace(this.root, h("p", { class: "error", role: "alert" }, refusal(e)),
        h("a", { href: "#/" }, "Back to the lobby"));
      return;
    }
    this.render();
    void this.follow();
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
  }

  // --- following the game ---------------------------------------------------------------------

  private async follow(): Promise<void> {
    while (!this.stopped && !this.ended && !this.view?.gameOver) {
      try {
        const stream = client.streamEvents(
          { gameId: this.gameId, fromEvent: BigInt(this.logCount) },
          { headers: seatHeaders(this.token), signal: this.abort.signal });
        for await (const update of stream) {
          this.apply(update);
        }
        this.connection = "";
      } catch (e) {
        if (this.stopped) return;
        this.connection = `Connection lost (${refusal(e)}); reconnecting...`;
        this.render();
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }

  private apply(update: StreamEventsResponse): void {
    this.connection = "";
    this.addEvents(update.events);
    if (update.waiting) this.waiting = update.waiting;
    if (update.gameOver) this.ended = true;   // the stream's last message
    if (update.decision?.view) {
      this.setView(update.decision.view);
    } else {
      void this.refresh();
    }
    this.render();
  }

  /** Fetch the view again, at most one call at a time: updates that arrive meanwhile are
   * covered by one more call, so the table never lags behind a burst of bot moves. */
  private async refresh(): Promise<void> {
    this.stale = true;
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      while (this.stale && !this.stopped) {
        this.stale = false;
        const view = (await client.getView({ gameId: this.gameId },
          { headers: seatHeaders(this.token), signal: this.abort.signal })).view;
        this.setView(view);
        this.render();
      }
    } catch {
      this.stale = false;   // the stream reports a lost connection, and its next update
    } finally {             // asks again
      this.refreshing = false;
    }
  }

  private setView(view?: View): void {
    // A view older than one already shown (a GetView overtaken by an answer) is dropped.
    if (!view || view.sequence < this.floor) return;
    this.floor = view.sequence;
    this.view = view;
    this.decision = view.decision;
    this.waiting = view.waiting ?? this.waiting;
    if (this.decision && this.decision.sequence !== this.shapedFor) {
      this.shapedFor = this.decision.sequence;
      this.picked = [];
      this.chosen = [];
      this.ordering = this.decision.kind.case === "order" ? [...this.decision.kind.value.cards]
        : [];
    }
  }

  private addEvents(events: readonly Event[]): void {
    const stick = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 8;
    for (const event of events) {
      if (Number(event.index) < this.logCount) continue;   // already shown
      this.logCount = Number(event.index) + 1;
      if (event.kind === "turn") this.lastTurn = event;
      this.log.append(h("li", { class: `event ${event.kind}`, "data-index": event.index },
        event.text));
    }
    if (stick) this.log.scrollTop = this.log.scrollHeight;
  }

  // --- answering ------------------------------------------------------------------------------

  private async answer(value: AnswerValue): Promise<void> {
    const decision = this.decision;
    if (!decision || this.busy) return;
    this.busy = true;
    this.error = "";
    this.render();
    try {
      await client.submitAnswer({ gameId: this.gameId,
        answer: { sequence: decision.sequence, value } }, { headers: seatHeaders(this.token) });
      if (this.floor <= decision.sequence) this.floor = decision.sequence + 1n;
      if (this.decision?.sequence === decision.sequence) this.decision = undefined;
    } catch (e) {
      this.error = refusal(e);
    }
    this.busy = false;
    this.render();
  }

  private move(verb: Verb, card = ""): void {
    void this.answer({ case: "move", value: create(MoveSchema, { verb, card }) });
  }

  // --- drawing --------------------------------------------------------------------------------

  private name(seat: number): string {
    return this.view?.players[seat]?.name ?? `seat ${seat + 1}`;
  }

  private cardButton(name: string, props: Record<string, unknown> = {}): HTMLElement {
    const card = this.cards.get(name);
    const types = card ? card.types.map((t) => t.toLowerCase()).join(" ") : "";
    const show = () => this.showCard(name);
    return h("button", { class: `card ${types}`, "data-card": name, title: card?.text ?? "",
      onmouseenter: show, onfocus: show, ...props }, name);
  }

  private showCard(name: string): void {
    const card = this.cards.get(name);
    if (!card) return;
    replace(this.cardText, h("h3", {}, card.name),
      h("div", { class: "small" }, `${card.types.join(" – ")} · $${card.cost} · ${card.set}`),
      h("p", { class: "text" }, card.text || "(no text)"));
  }

  private render(): void {
    const v = this.view;
    if (!v) return;
    this.renderStatus(v);
    this.renderSupply(v);
    this.renderPlayers(v);
    this.renderQuestion(v);
    this.renderMine(v);
    replace(this.trash, h("h2", {}, `Trash (${v.trash.length})`),
      h("div", { class: "cards" }, v.trash.length ? counted(v.trash) : "empty"));
  }

  private renderStatus(v: View): void {
    const who = v.viewer === undefined ? "Spectating" : `You are ${this.name(v.viewer)}`;
    const phase = { [Phase.ACTION]: "Action phase", [Phase.BUY]: "Buy phase",
      [Phase.CLEANUP]: "Clean-up", [Phase.OVER]: "Game over",
      [Phase.UNSPECIFIED]: "" }[v.phase];
    const turn = this.lastTurn ? `${this.name(this.lastTurn.player)}'s turn ` +
      `${this.lastTurn.detail}` : `Turn ${v.turn}`;
    replace(this.status,
      h("a", { href: "#/", class: "home" }, "Lobby"),
      h("span", { id: "turn" }, v.gameOver ? "Game over" : turn),
      v.gameOver ? null : h("span", { id: "phase" }, phase),
      v.gameOver ? null : h("span", { id: "counters" },
        `Actions ${v.actions} · Buys ${v.buys} · $${v.coins}`),
      h("span", { id: "who" }, who),
      this.connection ? h("span", { class: "error" }, this.connection) : null);
  }

  private movesFor(verb: Verb): Map<string, Move> {
    const out = new Map<string, Move>();
    if (this.decision?.kind.case === "turn" && !this.busy) {
      for (const m of this.decision.kind.value.moves) if (m.verb === verb) out.set(m.card, m);
    }
    return out;
  }

  private renderSupply(v: View): void {
    const buys = this.movesFor(Verb.BUY);
    replace(this.supply, h("h2", {}, "Supply"), h("div", { class: "piles" },
      v.supply.map((pile) => this.cardButton(pile.name, {
        class: `pile card ${buys.has(pile.name) ? "buyable" : ""} ${pile.count ? "" : "empty"}`,
        "aria-label": `${pile.name}, costs ${pile.cost}, ${pile.count} left`,
        onclick: () => (buys.has(pile.name) ? this.move(Verb.BUY, pile.name)
          : this.showCard(pile.name)),
      }))));
    for (const [i, pile] of v.supply.entries()) {
      const el = this.supply.querySelectorAll(".pile")[i] as HTMLElement;
      replace(el, h("span", { class: "cost" }, `$${pile.cost}`),
        h("span", { class: "pile-name" }, pile.name), h("span", { class: "count" }, pile.count));
    }
  }

  private renderPlayers(v: View): void {
    replace(this.players, h("h2", {}, "Players"), h("table", {},
      h("tr", {}, ["", "Player", "VP", "Hand", "Deck", "Discard", "In play", "Set aside"]
        .map((t) => h("th", {}, t))),
      v.players.map((p) => h("tr", { class: p.seat === v.current ? "current" : "",
        "data-seat": p.seat },
      h("td", {}, p.seat === v.current && !v.gameOver ? "▶" : ""),
      h("td", {}, p.name, p.bot ? h("span", { class: "small" }, ` (${p.bot})`) : null,
        p.seat === v.viewer ? " (you)" : null),
      h("td", { class: "vp" }, p.vp),
      h("td", {}, p.handSize),
      h("td", {}, p.deckSize),
      h("td", {}, p.discardSize, p.discardTop ? ` (${p.discardTop} on top)` : ""),
      h("td", { class: "cards" }, counted(p.inPlay)),
      h("td", { class: "cards" }, counted(p.aside))))));
  }

  private renderMine(v: View): void {
    const me = v.viewer === undefined ? undefined : v.players[v.viewer];
    const current = v.players[v.current];
    const plays = this.movesFor(Verb.PLAY);
    replace(this.mine,
      current && current.inPlay.length && !v.gameOver
        ? h("div", { id: "in-play" }, h("h2", {}, `In play (${current.name})`),
          h("div", { class: "cards" }, current.inPlay.map((c) => this.cardButton(c))))
        : null,
      me ? h("div", { id: "hand" }, h("h2", {}, `Your hand (${me.hand.length})`),
        h("div", { class: "cards" }, me.hand.map((c) => this.cardButton(c, {
          class: `card ${plays.has(c) ? "playable" : ""}`,
          onclick: () => (plays.has(c) ? this.move(Verb.PLAY, c) : this.showCard(c)),
        })))) : null,
      me && me.looking.length ? h("div", { id: "looking" }, h("h2", {}, "You are looking at"),
        h("div", { class: "cards" }, me.looking.map((c) => this.cardButton(c)))) : null);
  }

  private renderQuestion(v: View): void {
    // Drawn again only when what it shows changed: a control under the pointer stays put
    // while the rest of the table follows the game.
    const key = JSON.stringify([v.gameOver, String(this.decision?.sequence), this.busy,
      this.picked, this.chosen, this.ordering, this.error, this.waiting?.text ?? "",
      v.scores, v.winners], (_, x) => (typeof x === "bigint" ? String(x) : x));
    if (key === this.questionKey) return;
    this.questionKey = key;
    const parts: (HTMLElement | null)[] = [];
    if (v.gameOver) {
      parts.push(this.gameOver(v));
    } else if (this.decision) {
      parts.push(...this.decisionControls(this.decision));
    } else {
      parts.push(h("p", { id: "waiting" }, this.waiting?.text ?? "Waiting..."));
    }
    if (this.error) parts.push(h("p", { class: "error", id: "answer-error", role: "alert" },
      this.error));
    replace(this.question, ...parts);
    // For tests and tools: what the question is ("turn", "select", "choose", "order"; "wait";
    // "over") and its sequence number.
    this.question.dataset.kind = v.gameOver ? "over" : this.decision?.kind.case ?? "wait";
    this.question.dataset.sequence = String(this.decision?.sequence ?? "");
    this.question.dataset.busy = String(this.busy);
    const k = this.decision?.kind;
    const bounds = k?.case === "select" || k?.case === "choose" ? [k.value.min, k.value.max] : [];
    this.question.dataset.min = String(bounds[0] ?? "");
    this.question.dataset.max = String(bounds[1] ?? "");
  }

  private gameOver(v: View): HTMLElement {
    const order = [...v.players].sort((a, b) => (v.scores[b.seat] ?? 0) - (v.scores[a.seat] ?? 0));
    const names = v.winners.map((s) => this.name(s));
    const winners = names.length > 1
      ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names.join("");
    return h("div", { id: "game-over" }, h("h2", {}, "Game over"),
      h("p", { id: "winners" }, `${winners} ${v.winners.length > 1 ? "share the win" : "wins"}.`),
      h("table", {}, order.map((p) => h("tr", {}, h("td", {}, p.name),
        h("td", { class: "vp" }, `${v.scores[p.seat]} VP`),
        h("td", {}, `${p.turnsTaken} turns`)))),
      h("button", { id: "download-record", onclick: () => void this.downloadRecord() },
        "Download the record"),
      h("a", { href: "#/", class: "primary" }, "Back to the lobby"));
  }

  private async downloadRecord(): Promise<void> {
    try {
      const record = await client.getRecord({ gameId: this.gameId });
      const blob = new Blob([toJsonString(GetRecordResponseSchema, record, { prettySpaces: 2 })],
        { type: "application/json" });
      const link = h("a", { href: URL.createObjectURL(blob),
        download: `dominion-${this.gameId}.json` });
      link.click();
    } catch (e) {
      this.error = refusal(e);
      this.render();
    }
  }

  private decisionControls(d: Decision): HTMLElement[] {
    const about = [
      d.aboutPlayer !== undefined ? `about ${this.name(d.aboutPlayer)}` : "",
      d.aboutCards.length ? `(${counted(d.aboutCards)})` : "",
    ].filter(Boolean).join(" ");
    const head = h("p", { id: "prompt" }, h("strong", {}, d.card ? `${d.card}: ` : ""), d.prompt,
      about ? ` ${about}` : "");
    const disabled = this.busy;
    switch (d.kind.case) {
      case "turn":
        return [head, h("div", { class: "moves" }, d.kind.value.moves.map((m) =>
          h("button", { class: "move", "data-verb": Verb[m.verb], "data-card": m.card,
            disabled, onclick: () => this.move(m.verb, m.card) }, this.moveLabel(m))))];
      case "select": {
        const { cards, min, max } = d.kind.value;
        const n = this.picked.length;
        return [head, h("p", { class: "small" }, `Choose ${min === max ? min : `${min} to ${max}`}` +
          ` card${max === 1 ? "" : "s"}. ${ORDER_HINTS[d.purpose] ?? ""}`),
        h("div", { class: "cards pool" }, cards.map((c, i) => {
          const at = this.picked.indexOf(i);
          return this.cardButton(c, { class: `card chip ${at >= 0 ? "picked" : ""}`,
            "aria-pressed": at >= 0 ? "true" : "false", "data-pick": at >= 0 ? at + 1 : null,
            disabled: disabled || (at < 0 && n >= max),
            onclick: () => {
              this.picked = at >= 0 ? this.picked.filter((p) => p !== i) : [...this.picked, i];
              this.render();
            } });
        })),
        h("button", { id: "confirm", class: "primary", disabled: disabled || n < min || n > max,
          onclick: () => void this.answer({ case: "cards",
            value: create(CardListSchema, { cards: this.picked.map((i) => cards[i]) }) }) },
        n ? `Confirm: ${this.picked.map((i) => cards[i]).join(", ")}` : "Confirm: none")];
      }
      case "choose": {
        const { options, min, max } = d.kind.value;
        if (min === 1 && max === 1) {
          return [head, h("div", { class: "moves" }, options.map((o) => h("button", {
            class: "option", "data-option": o, disabled,
            onclick: () => void this.answer({ case: "options", value: create(OptionListSchema, { options: [o] }) }),
          }, o)))];
        }
        const n = this.chosen.length;
        return [head, h("p", { class: "small" }, `Choose ${min === max ? min : `${min} to ${max}`}.`),
          h("div", { class: "moves" }, options.map((o) => h("button", {
            class: `option toggle ${this.chosen.includes(o) ? "picked" : ""}`, "data-option": o,
            "aria-pressed": this.chosen.includes(o) ? "true" : "false",
            disabled: disabled || (!this.chosen.includes(o) && n >= max),
            onclick: () => {
              this.chosen = this.chosen.includes(o) ? this.chosen.filter((x) => x !== o)
                : [...this.chosen, o];
              this.render();
            } }, o))),
          h("button", { id: "confirm", class: "primary", disabled: disabled || n < min || n > max,
            onclick: () => void this.answer({ case: "options", value: create(OptionListSchema, { options: this.chosen }) }),
          }, "Confirm")];
      }
      case "order": {
        const swap = (i: number, j: number) => {
          const next = [...this.ordering];
          [next[i], next[j]] = [next[j], next[i]];
          this.ordering = next;
          this.render();
        };
        return [head, h("p", { class: "small" }, "The first card ends on top of the deck."),
          h("ol", { class: "ordering" }, this.ordering.map((c, i) => h("li", {},
            this.cardButton(c),
            h("button", { class: "up", disabled: disabled || i === 0, "aria-label": "up",
              onclick: () => swap(i, i - 1) }, "↑"),
            h("button", { class: "down", disabled: disabled || i === this.ordering.length - 1,
              "aria-label": "down", onclick: () => swap(i, i + 1) }, "↓")))),
          h("button", { id: "confirm", class: "primary", disabled,
            onclick: () => void this.answer({ case: "order", value: create(CardListSchema, { cards: this.ordering }) }),
          }, "Confirm this order")];
      }
      default:
        return [head, h("p", { class: "error" }, "This page does not know this kind of question.")];
    }
  }

  private moveLabel(m: Move): string {
    switch (m.verb) {
      case Verb.PLAY: return `Play ${m.card}`;
      case Verb.PLAY_TREASURES: return "Play all Treasures";
      case Verb.BUY: {
        const cost = this.view?.supply.find((p) => p.name === m.card)?.cost;
        return `Buy ${m.card}${cost === undefined ? "" : ` ($${cost})`}`;
      }
      case Verb.END_PHASE:
        return this.view?.phase === Phase.ACTION ? "End Action phase" : "End turn";
      default: return Verb[m.verb];
    }
  }
}
