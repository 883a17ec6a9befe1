// The game screen: one seat's table (or a spectator's), kept current by the event stream.
// Everything shown comes from the server's View and the engine's log lines; the page decides
// only how an answer is put together before it is sent. A ringed card in your hand is played
// by a click (or its key), a ringed pile bought; the question panel holds the rest ("Play all
// Treasures", "End turn", a card's question). Reading never acts: pointing at a card, pressing
// and holding it, or moving to it with Tab shows its face. No stray moves: a click on a
// control that just appeared under a still pointer is held (steady.ts).
import { create, toJsonString } from "@bufbuild/protobuf";
import { client, Code, ConnectError, inWords, refusal, saveSettings, seatHeaders, settings,
  type Settings } from "./api";
import { Board, countedFaces } from "./board";
import { Steady } from "./steady";
import { counted, h, replace, withKey } from "./dom";
import {
  CardListSchema, GetRecordResponseSchema, MoveSchema, OptionListSchema, Phase, ResignSchema,
  Verb,
  type Answer, type ChatLine, type Decision, type Event, type FinalDeck, type Move,
  type PublicDecision,
  type StreamEventsResponse, type View,
} from "./gen/dominion/v1/dominion_pb";

const RETRY_MS = 1000;
// The select purposes whose cards come from the Supply to be gained: shown with their costs.
const GAIN_PURPOSES = ["gain", "give"];
// The purposes whose select answers keep their order (the engine's ORDERED_PURPOSES), and what
// the order means.
const ORDER_HINTS: Record<string, string> = {
  discard: "The last card you pick ends on top of your discard pile.",
  topdeck: "The first card you pick ends on top of your deck.",
};
// Keys that choose the question's controls in order (t, e, c, u, y and n have their own jobs).
const CHOICE_KEYS = "1234567890abdfghijklmopqrsvwxz";
export const KEYS_HELP: [string, string][] = [
  ["1 … 9, 0, a, b, …", "the card or control marked with that key: play the card, buy " +
    "the pile, pick a card, choose"],
  ["t", "play all Treasures"], ["e", "end the phase (the Action phase, or your turn)"],
  ["c", "confirm the cards or options picked"],
  ["u", "undo: take back your last move, when the page offers it"],
  ["y / n", "end the turn anyway / keep it, when the page asks"],
  ["Tab", "move between controls and cards (a card's text shows when it has focus)"],
  ["Esc", "close the card panel"], ["?", "show or hide this list"],
];
export const NEVER = BigInt(Number.MAX_SAFE_INTEGER);   // a log index no game reaches

type AnswerValue = Answer["value"];

export class Table {
  private view?: View;
  private decision?: Decision;            // the pending decision, when it is this seat's
  private waiting?: PublicDecision;       // what the table is waiting for
  private lastTurn?: Event;               // the latest "turn" event: whose turn, which number
  private error = "";                     // the last answer's refusal, in words
  private errorIsConnection = false;      // ... because the server could not be reached
  private connection = "";                // the stream's trouble, while it reconnects
  private busy = false;                   // an answer is on its way
  private picked: number[] = [];          // select: chosen pool positions, in order
  private chosen: string[] = [];          // choose: chosen options
  private ordering: string[] = [];        // order: the cards, top first
  private shapedFor = -1n;                // the decision the three above belong to
  private confirmingEnd = false;          // "end the turn with $ left?" is being asked
  private autoFor = -1n;                  // the decision last answered by itself
  private questionKey = "";               // what the question panel shows now
  private floor = 0n;                     // the newest decision number seen: older views are
                                          // stale
  private stopped = false;
  private ended = false;                  // the stream said the game is over
  private refreshing = false;             // a GetView is on its way
  private stale = false;                  // the game changed since that GetView was sent
  private decks?: FinalDeck[];            // every seat's cards at the end
  private decksAsked = false;
  private settings = settings();
  private abort = new AbortController();
  private board?: Board;
  private readonly steady = new Steady();

  private readonly statusLine = h("span", { id: "status-line" });
  private readonly banner = h("div", { id: "connection", role: "status" });
  private readonly question = h("section", { id: "question", class: "panel", tabindex: "-1",
    "aria-label": "Your decision" });
  private readonly onKey = (e: KeyboardEvent) => this.key(e);
  private resignBox?: HTMLDetailsElement; // a seat's "Resign" question (none for a spectator)
  private chatNext = 0n;                  // the first chat line not shown yet
  // Focusable: once its lines overflow it scrolls, and a keyboard must reach it to scroll.
  private readonly chatLines = h("ol", { id: "chat-lines", "aria-live": "polite",
    tabindex: "0", "aria-label": "Chat lines" });
  private readonly chatForm = h("form", { id: "chat-form" });

  constructor(private root: HTMLElement, private gameId: string, private token?: string) {}

  async start(): Promise<void> {
    try {
      const cards = (await client.listCards({})).cards;
      this.board = new Board(cards);
      const read = await client.getView({ gameId: this.gameId, logFrom: 0n, chatFrom: 0n },
        { headers: seatHeaders(this.token) });
      const view = read.view;
      this.board.layout(this.root, this.question, this.banner, this.chatPanel());
      this.addChat(read.chat);
      this.board.status.append(h("a", { href: "#/", class: "home" }, "Lobby"), this.statusLine,
        this.settingsPanel(), ...(this.token ? [this.resignPanel()] : []), keysPanel());
      this.addEvents(view?.log ?? []);
      this.setView(view);
      this.settings = settings(this.player);
    } catch (e) {
      replace(this.root, h("p", { class: "error", role: "alert" }, inWords(e).text),
        h("a", { href: "#/" }, "Back to the lobby"));
      return;
    }
    document.addEventListener("keydown", this.onKey);
    this.render();
    void this.follow();
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
    this.steady.stop();
    signalTurn("");
    document.removeEventListener("keydown", this.onKey);
  }

  // --- following the game ---------------------------------------------------------------------

  private async follow(): Promise<void> {
    while (!this.stopped && !this.ended && !this.view?.gameOver) {
      try {
        if (this.connection) await this.readView();   // back: the table as it stands
        this.reconnected();
        const stream = client.streamEvents(
          { gameId: this.gameId, fromEvent: BigInt(this.board?.logLength ?? 0),
            fromChat: this.chatNext },
          { headers: seatHeaders(this.token), signal: this.abort.signal });
        for await (const update of stream) {
          this.apply(update);
        }
      } catch {
        if (this.stopped) return;
        this.connection = "The connection to the server is lost; reconnecting…";
        this.render();
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }

  private reconnected(): void {
    if (!this.connection && !this.errorIsConnection) return;
    this.connection = "";
    if (this.errorIsConnection) {
      this.error = "";
      this.errorIsConnection = false;
    }
    this.render();
  }

  /** The server did not answer a call: say so until it does again, then read the table. */
  private async probe(): Promise<void> {
    this.connection = "The server cannot be reached; trying again…";
    while (!this.stopped && this.connection) {
      await new Promise((r) => setTimeout(r, RETRY_MS));
      try {
        await this.readView();
        this.reconnected();
        return;
      } catch {
        // still away
      }
    }
  }

  private apply(update: StreamEventsResponse): void {
    this.reconnected();
    this.addEvents(update.events);
    this.addChat(update.chat);
    this.showWaiting(update.waiting);
    if (update.gameOver) this.ended = true;   // the stream's last message
    if (update.decision?.view) {
      this.setView(update.decision.view);
    } else {
      void this.refresh();
    }
    this.render();
  }

  private async readView(): Promise<void> {
    const read = await client.getView({ gameId: this.gameId,
      logFrom: BigInt(this.board?.logLength ?? 0), chatFrom: this.chatNext },
    { headers: seatHeaders(this.token), signal: this.abort.signal });
    const view = read.view;
    this.addChat(read.chat);
    this.addEvents(view?.log ?? []);
    this.setView(view);
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
        await this.readView();
      }
    } catch {
      this.stale = false;   // the stream reports a lost connection, and its next update
    } finally {             // asks again
      this.refreshing = false;
    }
  }

  /** Whom the game waits for. A bot's planning never goes back: a view read before a later
   * stream update, or an update overtaken by another, does not take its percent back. */
  private showWaiting(w?: PublicDecision): void {
    if (!w) return;
    const now = this.waiting;
    if (w.planningPercent !== undefined && now?.planningPercent !== undefined &&
        w.player === now.player && w.planningPercent < now.planningPercent) return;
    this.waiting = w;
  }

  private setView(view?: View): void {
    // A view older than one already shown (a GetView overtaken by an answer) is dropped.
    if (!view || view.sequence < this.floor) return;
    this.floor = view.sequence;
    this.view = view;
    this.decision = view.decision;
    this.showWaiting(view.waiting);
    if (this.decision && this.decision.sequence !== this.shapedFor) {
      this.shapedFor = this.decision.sequence;
      this.picked = [];
      this.chosen = [];
      this.confirmingEnd = false;
      this.ordering = this.decision.kind.case === "order" ? [...this.decision.kind.value.cards]
        : [];
    }
  }

  private addEvents(events: readonly Event[]): void {
    for (const event of events) if (event.kind === "turn") this.lastTurn = event;
    this.board?.addEvents(events);
  }

  // --- answering ------------------------------------------------------------------------------

  private async answer(value: AnswerValue): Promise<void> {
    await this.send((d) => client.submitAnswer({ gameId: this.gameId,
      answer: { sequence: d.sequence, value } }, { headers: seatHeaders(this.token) }));
  }

  /** Take back this seat's last answer (offered only when the view says it can be: nothing
   * was revealed since, and the game allows it). The stream then brings the question again. */
  private async undo(): Promise<void> {
    await this.send(async (d) => {
      await client.undo({ gameId: this.gameId, sequence: d.sequence },
        { headers: seatHeaders(this.token) });
      // The question asked again is not answered by itself: the player took that back.
      this.autoFor = d.sequence + 1n;
    });
  }

  /** Send what ``call`` sends about the pending decision (an answer, an Undo), one at a time:
   * the decision is done with once the server took it; a refusal is said in words. */
  private async send(call: (d: Decision) => Promise<unknown>): Promise<void> {
    const decision = this.decision;
    if (!decision || this.busy) return;
    this.busy = true;
    this.error = "";
    this.confirmingEnd = false;
    this.render();
    try {
      await call(decision);
      if (this.floor <= decision.sequence) this.floor = decision.sequence + 1n;
      if (this.decision?.sequence === decision.sequence) this.decision = undefined;
    } catch (e) {
      const said = inWords(e);
      this.error = said.text;
      this.errorIsConnection = said.connection;
      if (said.connection) void this.probe();
      else void this.refresh();   // the game as it stands, after a refusal
    }
    this.busy = false;
    this.render();
  }

  private move(verb: Verb, card = ""): void {
    void this.answer({ case: "move", value: create(MoveSchema, { verb, card }) });
  }

  /** End the phase; a turn with a Buy and $2 or more left asks once first (a setting). */
  private endPhase(): void {
    const v = this.view;
    const buying = v?.phase === Phase.BUY && v.buys > 0 && v.coins >= 2;
    if (buying && this.settings.confirmEndTurn && !this.confirmingEnd) {
      this.confirmingEnd = true;
      this.render();
      return;
    }
    this.move(Verb.END_PHASE);
  }

  /** The seat's player, whose settings these are (a spectator's: the browser's). */
  private get player(): string | undefined {
    return this.view?.viewer === undefined ? undefined : this.name(this.view.viewer);
  }

  /** Answer by itself what the settings say (Dominion Online's autoplay), once a decision:
   * play all Treasures when that is all the turn can do before buying (on by default: no
   * Treasure of these sets asks a question when played); reveal Moat when it is the one
   * Reaction offered; answer a question that has a single answer. */
  private autoPlay(): void {
    const d = this.decision;
    if (this.busy || !d || d.sequence === this.autoFor) return;
    const answer = this.automatic(d);
    if (!answer) return;
    this.autoFor = d.sequence;
    void this.answer(answer);
  }

  private automatic(d: Decision): AnswerValue | undefined {
    const k = d.kind;
    const s = this.settings;
    if (k.case === "turn") {
      const moves = k.value.moves;
      const actions = moves.some((m) => m.verb === Verb.PLAY &&
        !this.board?.catalog.get(m.card)?.types.includes("Treasure"));
      if (!s.autoTreasures || actions || !moves.some((m) => m.verb === Verb.PLAY_TREASURES)) {
        return undefined;
      }
      return { case: "move", value: create(MoveSchema, { verb: Verb.PLAY_TREASURES }) };
    }
    const cards = (list: string[]) => ({ case: "cards" as const,
      value: create(CardListSchema, { cards: list }) });
    if (k.case === "select" && d.purpose === "react" && s.autoMoat &&
        k.value.cards.length === 1 && k.value.cards[0] === "Moat") return cards(["Moat"]);
    if (!s.autoForced) return undefined;
    const one = forcedAnswer(d);
    if (!one) return undefined;
    return k.case === "choose" ? { case: "options",
      value: create(OptionListSchema, { options: one }) }
      : k.case === "order" ? { case: "order", value: create(CardListSchema, { cards: one }) }
        : cards(one);
  }

  private key(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement | null;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    if (e.key === "?") {
      const help = document.getElementById("keys-help") as HTMLDetailsElement | null;
      if (help) help.open = !help.open;
      e.preventDefault();
      return;
    }
    if (e.key === "Escape") {
      this.board?.cardText.classList.remove("open");
      if (this.confirmingEnd) {
        this.confirmingEnd = false;
        this.render();
      }
      return;
    }
    const control = this.root.querySelector(
      `[data-key="${CSS.escape(e.key.toLowerCase())}"]:not([disabled])`) as HTMLElement | null;
    if (control) {
      e.preventDefault();
      control.click();
    }
  }

  // --- drawing --------------------------------------------------------------------------------

  private name(seat: number): string {
    return this.view?.players[seat]?.name ?? `Player ${seat + 1}`;
  }

  /** What the table waits for; while a server search bot plans its Kingdom (its first
   * decision can take a while), how far. */
  private waitingText(): string {
    const w = this.waiting;
    if (w?.planningPercent === undefined) return w?.text ?? "Waiting…";
    return `${this.name(w.player)} is planning this Kingdom… ${w.planningPercent}%`;
  }

  private movesFor(verb: Verb): Set<string> {
    const out = new Set<string>();
    if (this.decision?.kind.case === "turn" && !this.busy) {
      for (const m of this.decision.kind.value.moves) if (m.verb === verb) out.add(m.card);
    }
    return out;
  }

  private render(): void {
    const v = this.view;
    if (!v || !this.board) return;
    this.autoPlay();
    this.renderStatus(v);
    const playable = this.movesFor(Verb.PLAY);
    const buyable = this.movesFor(Verb.BUY);
    this.board.render(v, { buyable, playable, keys: this.cardKeys(v, playable, buyable),
      turn: turnOf(v),
      act: (verb, card) => this.move(verb === "PLAY" ? Verb.PLAY : Verb.BUY, card) });
    this.renderQuestion(v);
    signalTurn(v.gameOver ? "Game over" : this.decision ? "Your move" : "");
    if (this.resignBox) this.resignBox.hidden = v.gameOver;
    this.chatForm.hidden = v.gameOver;
    replace(this.banner, this.connection ? h("p", { class: "banner" }, this.connection) : null);
    this.steady.note(this.root);
    if (v.gameOver && !this.decksAsked) void this.loadDecks();
  }

  /** The keys of the cards that act: the hand's playable cards in hand order, then the piles
   * that can be bought, dearest first (the question's own controls have t, e, c, y, n). */
  private cardKeys(v: View, playable: Set<string>, buyable: Set<string>): Map<string, string> {
    const hand = v.viewer === undefined ? [] : v.players[v.viewer]?.hand ?? [];
    const cost = (name: string) => v.supply.find((p) => p.name === name)?.cost ?? 0;
    const acts = [...new Set(hand.filter((c) => playable.has(c)))].map((c) => `PLAY:${c}`)
      .concat([...buyable].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))
        .map((c) => `BUY:${c}`));
    return new Map(acts.flatMap((act, i) => (i < CHOICE_KEYS.length ? [[act, CHOICE_KEYS[i]]]
      : [])));
  }

  private renderStatus(v: View): void {
    const who = v.viewer === undefined ? "Spectating" : `You are ${this.name(v.viewer)}`;
    const phase = { [Phase.ACTION]: "Action phase", [Phase.BUY]: "Buy phase",
      [Phase.CLEANUP]: "Clean-up", [Phase.OVER]: "Game over",
      [Phase.UNSPECIFIED]: "" }[v.phase];
    const mine = v.current === v.viewer;
    const whose = mine ? "Your" : `${this.name(v.current)}'s`;
    const number = this.lastTurn && this.lastTurn.player === v.current
      ? ` ${this.lastTurn.detail}` : "";
    replace(this.statusLine,
      h("span", { id: "turn", class: `p${v.current}` }, v.gameOver ? "Game over"
        : `${whose} turn${number}`),
      v.gameOver ? null : h("span", { id: "phase" }, phase),
      v.gameOver ? null : h("span", { id: "counters", title: `${whose} counters this turn` },
        `${whose}: Actions ${v.actions} · Buys ${v.buys} · $${v.coins}`),
      h("span", { id: "who" }, who));
  }

  private settingsPanel(): HTMLElement {
    const box = (id: string, label: string, key: keyof Settings) => {
      const input = h("input", { type: "checkbox", id, checked: this.settings[key] }) as
        HTMLInputElement;
      input.addEventListener("change", () => {
        this.settings = { ...this.settings, [key]: input.checked };
        saveSettings(this.settings, this.player);
        this.questionKey = "";
        this.render();
      });
      return h("div", {}, input, h("label", { for: id }, label));
    };
    return h("details", { id: "settings" }, h("summary", {}, "Settings"),
      h("div", { class: "popup" },
        box("setting-auto-treasures", "Play my Treasures by themselves when I can only buy",
          "autoTreasures"),
        box("setting-confirm-end", "Ask before ending a turn with a Buy and $2 or more left",
          "confirmEndTurn"),
        box("setting-auto-moat", "Reveal Moat against an Attack without asking", "autoMoat"),
        box("setting-auto-forced", "Answer a question that has only one answer by itself",
          "autoForced"),
        h("p", { class: "small" }, "Kept in this browser for each player.")));
  }

  /** The chat: the lines said at this table (as text, never markup), and for a seat a line
   * to say (a spectator reads only). */
  private chatPanel(): HTMLElement {
    const text = h("input", { id: "chat-text", maxlength: 300, autocomplete: "off",
      "aria-label": "Say to the table" }) as HTMLInputElement;
    const said = h("p", { class: "error", id: "chat-error", role: "alert" });
    this.chatForm.addEventListener("submit", async (e) => {
      e.preventDefault();
      said.textContent = "";
      const line = text.value;
      try {
        await client.sendChat({ gameId: this.gameId, text: line },
          { headers: seatHeaders(this.token) });
        // Emptied only if it still holds the line sent: what was typed while it went (its
        // line may come back on the stream first) stays.
        if (text.value === line) text.value = "";
      } catch (error) {
        said.textContent = refusal(error);
      }
    });
    replace(this.chatForm, text, h("button", { type: "submit" }, "Say"));
    return h("section", { id: "chat", "aria-label": "Chat" }, h("h2", {}, "Chat"),
      this.chatLines, this.token ? [this.chatForm, said] : null);
  }

  private addChat(lines: readonly ChatLine[]): void {
    for (const line of lines) {
      if (line.index < this.chatNext) continue;
      this.chatNext = line.index + 1n;
      this.chatLines.append(h("li", { class: `p${line.seat}` },
        h("b", { class: "who" }, `${line.name}: `), line.text));
    }
    this.chatLines.scrollTop = this.chatLines.scrollHeight;
  }

  /** Resign, behind a question: the summary only opens it, and the button that resigns
   * stands elsewhere, held like every acting control when it has just appeared under a
   * still pointer (steady.ts), so no stray click resigns. */
  private resignPanel(): HTMLElement {
    const box = this.resignBox = h("details", { id: "resign" }, h("summary", {}, "Resign"),
      h("div", { class: "popup" },
        h("p", {}, "Resign this game? You lose it, and it ends now for everyone at the table."),
        h("button", { type: "button", id: "resign-confirm", class: "danger", "data-act": "resign",
          onclick: () => void this.resign() }, "Yes, resign"),
        h("button", { type: "button", id: "resign-cancel",
          onclick: () => { box.open = false; } }, "Keep playing"))) as HTMLDetailsElement;
    box.addEventListener("toggle", () => this.steady.note(this.root));
    return box;
  }

  /** Send the resignation for the decision pending now (any seat's: a resignation may come
   * out of turn); when an answer slipped in first (ABORTED), read the table and send again. */
  private async resign(): Promise<void> {
    for (let attempt = 0; attempt < 3 && !this.view?.gameOver; attempt++) {
      try {
        await client.submitAnswer({ gameId: this.gameId, answer: {
          sequence: this.view?.sequence ?? 0n,
          value: { case: "resign", value: create(ResignSchema) } } },
        { headers: seatHeaders(this.token) });
        if (this.resignBox) this.resignBox.open = false;
        await this.readView();
        return;
      } catch (e) {
        if (e instanceof ConnectError && e.code === Code.Aborted) {
          await this.readView().catch(() => undefined);
          continue;
        }
        const said = inWords(e);
        this.error = said.text;
        this.render();
        return;
      }
    }
  }

  private renderQuestion(v: View): void {
    // Drawn again only when what it shows changed: a control under the pointer stays put
    // while the rest of the table follows the game.
    const key = JSON.stringify([v.gameOver, String(this.decision?.sequence), this.busy,
      this.picked, this.chosen, this.ordering, this.error, this.waitingText(),
      v.scores, v.winners, this.confirmingEnd, this.decks?.length ?? 0, this.settings,
      v.canUndo],
    (_, x) => (typeof x === "bigint" ? String(x) : x));
    if (key === this.questionKey) return;
    this.questionKey = key;
    const active = document.activeElement as HTMLElement | null;
    const hadFocus = !active || active === document.body || this.question.contains(active);
    const focusKey = this.question.contains(active) ? active?.dataset.focus : undefined;
    const parts: (HTMLElement | null)[] = [];
    if (v.gameOver) {
      parts.push(this.gameOver(v));
    } else if (this.decision) {
      const controls = this.decisionControls(this.decision);
      if (v.canUndo && !this.confirmingEnd) {
        // Beside the last controls, so that the panel keeps its height.
        const undo = this.undoControl(this.decision);
        const last = controls[controls.length - 1];
        if (last.classList.contains("moves")) last.append(undo);
        else controls[controls.length - 1] = h("div", { class: "moves" }, last, undo);
      }
      parts.push(...controls);
    } else {
      parts.push(h("p", { id: "waiting" }, this.waitingText()));
    }
    if (this.error) parts.push(h("p", { class: "error", id: "answer-error", role: "alert" },
      this.error));
    replace(this.question, ...parts);
    // For tests and tools: what the question is ("turn", "select", "choose", "order"; "wait";
    // "over") and its sequence number.
    this.question.dataset.kind = v.gameOver ? "over" : this.decision?.kind.case ?? "wait";
    this.question.classList.toggle("live", !v.gameOver);   // the window-high table (CSS)
    this.question.dataset.sequence = String(this.decision?.sequence ?? "");
    this.question.dataset.busy = String(this.busy);
    const k = this.decision?.kind;
    const bounds = k?.case === "select" || k?.case === "choose" ? [k.value.min, k.value.max] : [];
    this.question.dataset.min = String(bounds[0] ?? "");
    this.question.dataset.max = String(bounds[1] ?? "");
    if (hadFocus) {   // the keyboard stays on the question, across answers and others' moves
      const same = focusKey ? this.question.querySelector(
        `[data-focus="${CSS.escape(focusKey)}"]:not([disabled])`) : null;
      const first = this.question.querySelector("[data-key]:not([disabled])") ??
        this.question.querySelector("a.primary, button:not([disabled]):not(.card)");
      ((same ?? first ?? this.question) as HTMLElement).focus({ preventScroll: true });
    }
  }

  /** "Undo", shown only when the server says this seat can take back its last move. */
  private undoControl(d: Decision): HTMLElement {
    return withKey(h("button", { type: "button", id: "undo", "data-focus": "q:undo",
      "data-act": `undo:${d.sequence}`, disabled: this.busy,
      title: "Take back your last move (it revealed nothing)",
      onclick: () => void this.undo() }, "Undo"), "u");
  }

  private gameOver(v: View): HTMLElement {
    const order = [...v.players].sort((a, b) => (v.scores[b.seat] ?? 0) - (v.scores[a.seat] ?? 0));
    const names = v.winners.map((s) => this.name(s));
    const winners = names.length > 1
      ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names.join("");
    const replay = `#/replay/${encodeURIComponent(this.gameId)}` +
      (v.viewer === undefined ? "" : `?seat=${v.viewer}`);
    return h("div", { id: "game-over" }, h("h2", {}, "Game over"),
      h("p", { id: "winners" }, `${winners} ${v.winners.length > 1 ? "share the win" : "wins"}.`),
      h("p", { id: "end-reason" }, endReason(v, this.board?.resigned(v))),
      scoreTable(this.board!, v, order.map((p) => p.seat), this.decks),
      h("a", { href: replay, class: "primary", id: "watch-replay" }, "Watch the replay"),
      h("button", { type: "button", id: "download-record",
        onclick: () => void this.downloadRecord() }, "Download the record"),
      h("a", { href: "#/", class: "button" }, "Back to the lobby"));
  }

  private async loadDecks(): Promise<void> {
    this.decksAsked = true;
    try {
      const end = await client.getReplay({ source: { case: "gameId", value: this.gameId },
        step: 0xffffffff, logFrom: NEVER, seat: this.view?.viewer });
      this.decks = end.decks;
    } catch (e) {
      this.error = `The final decks cannot be shown: ${inWords(e).text}`;
    }
    this.render();
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
      this.error = inWords(e).text;
      this.render();
    }
  }

  private decisionControls(d: Decision): HTMLElement[] {
    // Whose and which cards, unless the prompt already says: "Discard or keep? (Bob: Gold)".
    const whom = d.aboutPlayer !== undefined && !d.prompt.includes(this.name(d.aboutPlayer))
      ? this.name(d.aboutPlayer) : "";
    const which = d.aboutCards.length ? counted(d.aboutCards) : "";
    const about = whom || which ? `(${[whom, which].filter(Boolean).join(": ")})` : "";
    const said = d.card && !d.prompt.includes(d.card) ? `${d.card}: ${d.prompt}` : d.prompt;
    const head = h("p", { id: "prompt" }, said, about ? ` ${about}` : "");
    const disabled = this.busy;
    const keys = [...CHOICE_KEYS];
    const keyed = (el: HTMLElement, key = keys.shift()) => withKey(el, key);
    switch (d.kind.case) {
      case "turn": {
        if (this.confirmingEnd && this.view) {
          const v = this.view;
          return [h("p", { id: "prompt" }, `You have $${v.coins} and ${v.buys} Buy` +
            `${v.buys > 1 ? "s" : ""} left. End your turn without buying?`),
          h("div", { class: "moves" },
            withKey(h("button", { type: "button", id: "confirm-end", class: "primary",
              "data-focus": "q:confirm-end", "data-act": `confirm-end:${d.sequence}`,
              onclick: () => this.move(Verb.END_PHASE) },
            "End my turn"), "y"),
            withKey(h("button", { type: "button", id: "cancel-end", "data-focus": "q:cancel-end",
              "data-act": `cancel-end:${d.sequence}`,
              onclick: () => { this.confirmingEnd = false; this.render(); } }, "Keep buying"),
            "n"))];
        }
        const moves = [...d.kind.value.moves];
        const group = (verb: Verb) => moves.filter((m) => m.verb === verb);
        const button = (m: Move, key: string) => withKey(h("button", {
          type: "button", class: `move ${Verb[m.verb].toLowerCase()}`, "data-verb": Verb[m.verb],
          "data-card": m.card, "data-focus": `q:${Verb[m.verb]}:${m.card}`, disabled,
          "data-act": `${turnOf(this.view!)}:${Verb[m.verb]}:${this.moveLabel(m)}`,
          onclick: () => (m.verb === Verb.END_PHASE ? this.endPhase() : this.move(m.verb, m.card)),
        }, this.moveLabel(m)), key);
        const plays = group(Verb.PLAY).length;
        const buys = group(Verb.BUY).length;
        const how = [plays ? "click a ringed card in your hand to play it" : "",
          buys ? "click a ringed pile to buy it" : ""].filter(Boolean).join("; ");
        return [head, h("p", { class: "small", id: "how" }, how ? `${how.charAt(0).toUpperCase()}` +
          `${how.slice(1)} (point at a card, or press and hold it, to read it).` : ""),
        h("div", { class: "moves ends" }, group(Verb.PLAY_TREASURES).map((m) => button(m, "t")),
          group(Verb.END_PHASE).map((m) => button(m, "e")))];
      }
      case "select": {
        const { cards, min, max } = d.kind.value;
        const n = this.picked.length;
        // A card to gain (or to give) shows its cost, cheapest first: the pool's own order
        // is by name.
        const priced = GAIN_PURPOSES.includes(d.purpose);
        const cost = (c: string) => this.view?.supply.find((p) => p.name === c)?.cost ??
          this.board!.catalog.get(c)?.cost ?? 0;
        const shown = [...cards.keys()];
        if (priced) shown.sort((a, b) => cost(cards[a]) - cost(cards[b]) ||
          cards[a].localeCompare(cards[b]));
        return [head, h("p", { class: "small" }, `Choose ${min === max ? min : `${min} to ${max}`}` +
          ` card${max === 1 ? "" : "s"}. ${ORDER_HINTS[d.purpose] ?? ""}`),
        h("div", { class: "cards pool" }, shown.map((i) => {
          const c = cards[i];
          const at = this.picked.indexOf(i);
          return keyed(h("button", {
            type: "button", class: `chip pick ${this.board!.catalog.typeClass(c)}` +
              `${at >= 0 ? " picked" : ""}`,
            "data-card": c, "data-focus": `q:pick:${i}`, "data-act": `pick:${d.sequence}:${i}:${c}`,
            "aria-pressed": at >= 0 ? "true" : "false", "data-pick": at >= 0 ? at + 1 : null,
            disabled: disabled || (at < 0 && n >= max),
            onfocus: () => this.board?.showCard(c, "close"),
            onclick: () => {
              this.picked = at >= 0 ? this.picked.filter((p) => p !== i) : [...this.picked, i];
              this.render();
            } }, priced ? h("span", { class: "c-cost" }, `$${cost(c)}`) : null, c,
          at >= 0 ? h("span", { class: "c-note" }, ` #${at + 1}`) : null));
        })),
        withKey(h("button", { type: "button", id: "confirm", class: "primary",
          "data-focus": "q:confirm", "data-act": `confirm:${d.sequence}`,
          disabled: disabled || n < min || n > max,
          onclick: () => void this.answer({ case: "cards",
            value: create(CardListSchema, { cards: this.picked.map((i) => cards[i]) }) }) },
        n ? `Confirm: ${this.picked.map((i) => cards[i]).join(", ")}` : "Confirm: none"), "c")];
      }
      case "choose": {
        const { options, min, max } = d.kind.value;
        if (min === 1 && max === 1) {
          return [head, h("div", { class: "moves" }, options.map((o, i) => keyed(h("button", {
            type: "button", class: "option", "data-option": o, "data-focus": `q:option:${i}`,
            "data-act": `option:${d.sequence}:${i}:${o}`,
            disabled,
            onclick: () => void this.answer({ case: "options", value: create(OptionListSchema, { options: [o] }) }),
          }, o))))];
        }
        const n = this.chosen.length;
        return [head, h("p", { class: "small" }, `Choose ${min === max ? min : `${min} to ${max}`}.`),
          h("div", { class: "moves" }, options.map((o, i) => keyed(h("button", {
            type: "button", class: `option toggle ${this.chosen.includes(o) ? "picked" : ""}`,
            "data-option": o, "data-focus": `q:option:${i}`,
            "data-act": `option:${d.sequence}:${i}:${o}`,
            "aria-pressed": this.chosen.includes(o) ? "true" : "false",
            disabled: disabled || (!this.chosen.includes(o) && n >= max),
            onclick: () => {
              this.chosen = this.chosen.includes(o) ? this.chosen.filter((x) => x !== o)
                : [...this.chosen, o];
              this.render();
            } }, o)))),
          withKey(h("button", { type: "button", id: "confirm", class: "primary",
            "data-focus": "q:confirm", "data-act": `confirm:${d.sequence}`,
            disabled: disabled || n < min || n > max,
            onclick: () => void this.answer({ case: "options", value: create(OptionListSchema, { options: this.chosen }) }),
          }, "Confirm"), "c")];
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
            this.board!.catalog.face(c, "chip", { focus: `q:order-card:${i}` }),
            keyed(h("button", { type: "button", class: "up", disabled: disabled || i === 0,
              "data-act": `up:${d.sequence}:${i}:${c}`,
              "data-focus": `q:up:${i}`, onclick: () => swap(i, i - 1) }, `Move ${c} up`)),
            h("button", { type: "button", class: "down", "data-focus": `q:down:${i}`,
              "data-act": `down:${d.sequence}:${i}:${c}`,
              disabled: disabled || i === this.ordering.length - 1,
              onclick: () => swap(i, i + 1) }, `Move ${c} down`)))),
          withKey(h("button", { type: "button", id: "confirm", class: "primary", disabled,
            "data-focus": "q:confirm", "data-act": `confirm:${d.sequence}`,
            onclick: () => void this.answer({ case: "order", value: create(CardListSchema, { cards: this.ordering }) }),
          }, "Confirm this order"), "c")];
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
        return `Buy ${m.card}${cost === undefined ? "" : ` $${cost}`}`;
      }
      case Verb.END_PHASE:
        return this.view?.phase === Phase.ACTION ? "End Action phase" : "End turn";
      default: return Verb[m.verb];
    }
  }
}

export function keysPanel(): HTMLElement {
  return h("details", { id: "keys-help" }, h("summary", {}, "Keys"),
    h("div", { class: "popup" }, h("table", {}, h("tbody", {}, KEYS_HELP.map(([k, what]) =>
      h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, what)))))));
}

/** The tab says when the game waits for you: its title ("● Your move – Dominion") and its
 * icon (a green dot), so a person in another tab sees it. */
function signalTurn(what: string): void {
  const title = what === "Your move" ? "● Your move – Dominion"
    : what ? `${what} – Dominion` : "Dominion";
  if (document.title === title) return;
  document.title = title;
  const icon = document.querySelector("link[rel=icon]");
  icon?.setAttribute("href", what === "Your move" ? TURN_ICON : "data:,");
}

const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>" +
  "<circle cx='8' cy='8' r='7' fill='#1f7a34'/></svg>");

/** The one answer a question allows, if it allows one: every card of the pool (in any order
 * when the order means nothing) or the same cards whichever are picked (a pool of one name),
 * every option, the one order of identical cards; else undefined. */
export function forcedAnswer(d: Decision): string[] | undefined {
  const k = d.kind;
  const same = (list: readonly string[]) => list.every((c) => c === list[0]);
  if (k.case === "select") {
    const { cards, min, max } = k.value;
    if (min !== max) return undefined;
    // All the cards are one answer, unless the order of picking matters (discard, topdeck).
    if ((min === cards.length && !(d.purpose in ORDER_HINTS)) || same(cards)) {
      return cards.slice(0, min);
    }
    return undefined;
  }
  if (k.case === "choose") {
    const { options, min, max } = k.value;
    return min === max && min === options.length ? [...options] : undefined;
  }
  if (k.case === "order") return same(k.value.cards) ? [...k.value.cards] : undefined;
  return undefined;
}

/** Why the game ended: a player resigned (``resigned``: their name), or as the rulebook
 * says it: the Province pile is empty, or three Supply piles are (named, with any more that
 * emptied). */
export function endReason(v: View, resigned?: string): string {
  if (resigned) return `${resigned} resigned.`;
  if (v.supply.some((p) => p.name === "Province" && p.count === 0)) {
    return "The game ended because the Provinces are gone.";
  }
  const empty = v.supply.filter((p) => p.count === 0).map((p) => p.name);
  if (empty.length < 3) return "";
  const names = `${empty.slice(0, -1).join(", ")} and ${empty[empty.length - 1]}`;
  return `The game ended because ${empty.length === 3 ? "three" : empty.length} Supply ` +
    `piles are empty: ${names}.`;
}

/** Which turn this is, for the no-stray-move guard: a turn's standing moves ("End turn",
 * "Buy Silver") are other controls in the next turn, wherever they stand. */
function turnOf(v: View): string {
  return `${v.current}.${v.players[v.current]?.turnsTaken ?? 0}`;
}

/** The end's scores: VP, turns, VP by card and each player's final deck. */
export function scoreTable(board: Board, v: View, seats: number[], decks?: FinalDeck[]):
  HTMLElement {
  return h("table", { id: "scores" },
    h("thead", {}, h("tr", {}, ["Player", "VP", "Turns", "VP by card", "Final deck"].map((t) =>
      h("th", { scope: "col" }, t)))),
    h("tbody", {}, seats.map((seat) => {
      const p = v.players[seat];
      const deck = decks?.find((d) => d.seat === seat);
      const cards = deck ? deck.cards.flatMap((c) => Array(c.count).fill(c.card) as string[])
        : [];
      return h("tr", { "data-seat": seat, class: `p${seat}` },
        h("th", { scope: "row", class: "who" }, p.name),
        h("td", { class: "vp" }, `${v.scores[seat]} VP`),
        h("td", {}, `${p.turnsTaken} turns`),
        h("td", { class: "vp-by-card" }, deck ? deck.cards.filter((c) => c.vp !== 0).map((c) =>
          h("div", {}, `${c.count} × ${c.card}: ${c.vp} VP`)) : "…"),
        h("td", { class: "final-deck" }, deck ? h("div", { class: "cards" },
          countedFaces(board.catalog, cards, `deck:${seat}`)) : "…"));
    })));
}
