// The replay viewer: a finished game step by step, forward and back, as any seat saw it or
// as a spectator, with the log to that point. The server replays (GetReplay); the page only
// asks for a step. A game of this server is named by its id; a record file the person loads
// (the page's download, or a line of `dominion simulate --records`) is sent as a record.
import { create, fromJson, type JsonValue, type MessageInitShape } from "@bufbuild/protobuf";
import { client, Code, ConnectError, inWords } from "./api";
import { Board } from "./board";
import { h, replace } from "./dom";
import {
  GetRecordResponseSchema, GetReplayRequestSchema, TakeBackSchema, Verb,
  type GetRecordResponse, type GetReplayResponse, type RecordedAnswer,
} from "./gen/dominion/v1/dominion_pb";
import { endReason, NEVER, scoreTable } from "./game";

let loaded: GetRecordResponse | undefined;   // the record file loaded in the lobby

/** Read a record file's text: one JSON document (the page's download, GetRecordResponse in
 * protobuf's JSON) or JSON lines (`simulate --records`; ``line`` from 1). Throws a person's
 * words when it is not a record. */
export function readRecordFile(text: string, line = 1): GetRecordResponse {
  let raw = text;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const lines = text.split("\n").filter((l) => l.trim());
    if (line < 1 || line > lines.length) {
      throw new Error(`The file has ${lines.length} lines: there is no line ${line}.`);
    }
    raw = lines[line - 1];
    try {
      data = JSON.parse(raw);
    } catch {
      throw new Error(`Line ${line} of the file is not JSON: is it a game record?`);
    }
  }
  const d = data as Record<string, unknown>;
  const answers = d && typeof d === "object" ? d.answers : undefined;
  if (!Array.isArray(answers) || typeof d.config !== "object" || d.config === null) {
    throw new Error("This file is not a game record: it has no config and answers.");
  }
  if (!answers.length || !Array.isArray(answers[0])) {   // the page's own download
    return fromJson(GetRecordResponseSchema, data as JsonValue, { ignoreUnknownFields: true });
  }
  // A records line (`record_to_data`): the seed is read from the text, since a 64-bit seed
  // does not survive JSON.parse's numbers.
  const c = d.config as Record<string, unknown>;
  const seed = /"config"\s*:\s*\{[^{}]*"seed"\s*:\s*(\d+)/.exec(raw)?.[1] ?? String(c.seed);
  return create(GetRecordResponseSchema, {
    engineVersion: String(d.engine_version ?? ""),
    bots: Array.isArray(d.bots) ? d.bots.map(String) : [],
    config: { players: (c.players as string[]).map(String),
      kingdom: (c.kingdom as string[]).map(String), seed: BigInt(seed),
      firstPlayer: Number(c.first_player), alwaysAsk: Boolean(c.always_ask) },
    answers: answers.map((entry, i) => {
      const [seat, a] = entry as [number, Record<string, unknown>];
      const move = a.move as [string, string | null] | undefined;
      return { seat: Number(seat), answer: { sequence: BigInt(i), value: a.take_back
        ? { case: "takeBack" as const, value: create(TakeBackSchema) }
        : move ? { case: "move" as const, value: { verb: Verb[String(move[0]).toUpperCase() as
          keyof typeof Verb] ?? Verb.UNSPECIFIED, card: move[1] ?? "" } }
          : { case: "cards" as const, value: { cards: (a.items as string[]).map(String) } } } };
    }),
  });
}

export function loadRecord(record: GetRecordResponse): void {
  loaded = record;
}

export class ReplayViewer {
  private board?: Board;
  private step = 0;
  private steps = 0;
  private names: string[] = [];
  private last?: GetReplayResponse;
  private busy = false;
  private wanted?: number;              // the step to show next
  private inFlight?: number;            // the step being fetched
  private readonly controls = h("section", { id: "question", class: "panel replay",
    "aria-label": "Replay" });
  private readonly banner = h("div", { id: "connection", role: "status" });
  private readonly onKey = (e: KeyboardEvent) => this.key(e);
  private readonly slider = h("input", { type: "range", id: "replay-step", min: 0, max: 0,
    value: 0 }) as HTMLInputElement;
  private readonly seatChoice = h("select", { id: "replay-seat" }) as HTMLSelectElement;
  private readonly turnChoice = h("select", { id: "replay-turn" }) as HTMLSelectElement;
  private readonly where = h("p", { id: "replay-where", "aria-live": "polite" });
  private readonly next = h("p", { id: "replay-next" });
  private readonly end = h("div", { id: "replay-scores" });

  constructor(private root: HTMLElement, private gameId: string | undefined,
    private seat: number | undefined) {}

  async start(): Promise<void> {
    if (!this.gameId && !loaded) {
      replace(this.root, h("p", { class: "error", role: "alert" },
        "No record is loaded: load the record file again in the lobby."),
      h("a", { href: "#/" }, "Back to the lobby"));
      return;
    }
    try {
      this.board = new Board((await client.listCards({})).cards);
      this.board.layout(this.root, this.controls, this.banner);
      this.board.status.append(h("a", { href: "#/", class: "home" }, "Lobby"),
        h("span", { id: "status-line" }, h("span", { id: "turn" }, "Replay"),
          h("span", { id: "who" }, "")));
      await this.show(0, true);
    } catch (e) {
      replace(this.root, h("p", { class: "error", role: "alert" }, replayTrouble(e)),
        h("a", { href: "#/" }, "Back to the lobby"));
      return;
    }
    this.names = this.last?.view?.players.map((p) => p.name) ?? [];
    replace(this.seatChoice, h("option", { value: "" }, "a spectator"),
      this.names.map((n, i) => h("option", { value: i }, n)));
    this.seatChoice.value = this.seat === undefined ? "" : String(this.seat);
    this.seatChoice.addEventListener("change", () => {
      this.seat = this.seatChoice.value === "" ? undefined : Number(this.seatChoice.value);
      void this.show(this.step, true);
    });
    this.slider.addEventListener("input", () => void this.show(Number(this.slider.value)));
    await this.listTurns();
    this.turnChoice.addEventListener("change", () => {
      if (this.turnChoice.value) void this.goToTurn(Number(this.turnChoice.value));
    });
    const button = (id: string, label: string, to: () => number) =>
      h("button", { type: "button", id, onclick: () => void this.show(to()) }, label);
    replace(this.controls, h("h2", {}, "Replay"), this.where,
      h("div", { class: "moves" },
        button("replay-start", "« Start", () => 0),
        button("replay-back", "◀ Back", () => this.goal - 1),
        button("replay-forward", "Forward ▶", () => this.goal + 1),
        button("replay-end", "End »", () => this.steps)),
      h("div", { class: "replay-options" },
        h("label", { for: "replay-step" }, "Step"), this.slider,
        h("label", { for: "replay-seat" }, "See as"), this.seatChoice,
        h("label", { for: "replay-turn" }, "Go to"), this.turnChoice),
      h("p", { class: "small" }, "Keys: ← and → step back and forward; Home and End."),
      this.next, this.end);
    this.draw();
    document.addEventListener("keydown", this.onKey);
    (this.controls.querySelector("#replay-forward") as HTMLElement).focus();
  }

  stop(): void {
    document.removeEventListener("keydown", this.onKey);
  }

  /** A step's table without its log (the turn counter is what a jump needs). */
  private async peek(step: number): Promise<GetReplayResponse> {
    return client.getReplay({ source: this.gameId ? { case: "gameId", value: this.gameId }
      : { case: "record", value: loaded! }, step, logFrom: NEVER, seat: this.seat });
  }

  /** The turns of the game, as its log names them ("Turn 3 - Ann"): players take turns in
   * seat order from the first player (these sets have no extra turns). */
  private async listTurns(): Promise<void> {
    let first: GetReplayResponse;
    let last: GetReplayResponse;
    try {
      [first, last] = await Promise.all([this.peek(0), this.peek(0xffffffff)]);
    } catch {
      return;   // no list: the steps still go one by one (the banner says why, if it lasts)
    }
    const seats = first.view?.players.length ?? 1;
    const start = first.view?.current ?? 0;
    const turns = last.view?.turn ?? 0;
    replace(this.turnChoice, h("option", { value: "" }, "a turn…"),
      Array.from({ length: turns }, (_, i) => h("option", { value: i + 1 },
        `Turn ${Math.floor(i / seats) + 1} - ${this.names[(start + i) % seats] ?? ""}`)));
  }

  /** Show the start of the game's ``turn``-th turn: the first step whose table has started it
   * (the turn counter only grows, so a binary search over the steps finds it). */
  private async goToTurn(turn: number): Promise<void> {
    let [low, high] = [0, this.steps];
    try {
      while (low < high) {
        const middle = Math.floor((low + high) / 2);
        if (((await this.peek(middle)).view?.turn ?? 0) >= turn) high = middle;
        else low = middle + 1;
      }
    } catch (e) {
      replace(this.banner, h("p", { class: "banner", role: "alert" }, replayTrouble(e)));
      return;
    }
    await this.show(low);
  }

  private key(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (e.ctrlKey || e.metaKey || e.altKey ||
        (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName))) return;
    const to = { ArrowLeft: this.goal - 1, ArrowRight: this.goal + 1, Home: 0,
      End: this.steps }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      void this.show(to);
    }
  }

  /** The step last asked for (steps pressed quickly add up before the table catches up). */
  private get goal(): number {
    return this.wanted ?? this.inFlight ?? this.step;
  }

  /** Show the table after ``step`` answers; one request at a time, the latest wish wins. */
  private async show(step: number, fresh = false): Promise<void> {
    this.wanted = Math.max(0, Math.min(step, this.steps || step));
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.wanted !== undefined) {
        const target = this.wanted;
        this.wanted = undefined;
        this.inFlight = target;
        const board = this.board!;
        if (fresh) board.truncateLog(0);
        fresh = false;
        const request: MessageInitShape<typeof GetReplayRequestSchema> = {
          source: this.gameId ? { case: "gameId", value: this.gameId }
            : { case: "record", value: loaded! },
          step: target, logFrom: BigInt(board.logLength), seat: this.seat };
        const reply = await client.getReplay(request);
        board.truncateLog(Number(reply.logLength));
        board.addEvents(reply.view?.log ?? []);
        this.last = reply;
        this.step = reply.step;
        this.steps = reply.steps;
        replace(this.banner);
        this.draw();
      }
    } catch (e) {
      replace(this.banner, h("p", { class: "banner", role: "alert" }, replayTrouble(e)));
    } finally {
      this.inFlight = undefined;
      this.busy = false;
    }
  }

  private draw(): void {
    const reply = this.last;
    const v = reply?.view;
    if (!reply || !v || !this.board) return;
    this.board.render(v, { watching: true });
    this.slider.max = String(this.steps);
    this.slider.value = String(this.step);
    const who = document.querySelector("#status-line #who");
    if (who) who.textContent = this.seat === undefined ? "Watching as a spectator"
      : `Watching as ${this.names[this.seat] ?? ""}`;
    this.where.textContent = `Step ${this.step} of ${this.steps}` +
      (v.gameOver ? ": the game is over." : `: ${this.board.lastTurnText || "setting up"}.`);
    this.next.textContent = reply.next ? `Next: ${describe(reply.next, v.players.map((p) =>
      p.name))}.` : "";
    this.controls.dataset.step = String(this.step);
    this.controls.dataset.kind = "replay";
    for (const [id, off] of [["replay-start", this.step === 0], ["replay-back", this.step === 0],
      ["replay-forward", this.step === this.steps], ["replay-end", this.step === this.steps]] as
      [string, boolean][]) {
      const b = this.controls.querySelector(`#${id}`) as HTMLButtonElement | null;
      if (b) b.disabled = off;
    }
    if (reply.decks.length) {
      const seats = [...v.players.keys()].sort((a, b) => (v.scores[b] ?? 0) - (v.scores[a] ?? 0));
      replace(this.end, h("h3", {}, "Scores"), h("p", { class: "end-reason" },
        endReason(v, this.board.resigned(v))),
        scoreTable(this.board, v, seats, reply.decks));
    } else {
      replace(this.end);
    }
  }
}

/** Why a replay cannot be shown: the server's reason for a record it refuses (another
 * engine's, an illegal answer, too large), else the connection's trouble in words. */
function replayTrouble(error: unknown): string {
  if (error instanceof ConnectError && [Code.InvalidArgument, Code.ResourceExhausted,
    Code.FailedPrecondition, Code.NotFound].includes(error.code)) {
    return `This game cannot be replayed: ${error.rawMessage}`;
  }
  return inWords(error).text;
}

/** What a recorded answer did, in words: "Ann buys a Gold". */
export function describe(a: RecordedAnswer, names: string[]): string {
  const who = names[a.seat] ?? `Player ${a.seat + 1}`;
  const v = a.answer?.value;
  switch (v?.case) {
    case "move":
      switch (v.value.verb) {
        case Verb.PLAY: return `${who} plays ${v.value.card}`;
        case Verb.PLAY_TREASURES: return `${who} plays all their Treasures`;
        case Verb.BUY: return `${who} buys ${v.value.card}`;
        case Verb.END_PHASE: return `${who} ends the phase`;
        default: return `${who} moves`;
      }
    case "cards": return `${who} picks ${v.value.cards.join(", ") || "no card"}`;
    case "options": return `${who} chooses ${v.value.options.join(", ") || "nothing"}`;
    case "order": return `${who} orders the cards ${v.value.cards.join(", ")} (top first)`;
    case "takeBack": return `${who} takes back their last move`;
    default: return `${who} answers`;
  }
}
