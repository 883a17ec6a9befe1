// The lobby: start a game against the server's bots, see the games on the server, open a seat
// by its link, spectate any game.
import { client, gameLink, heldSeats, holdSeat, refusal } from "./api";
import { botTitle } from "./cards";
import { h, replace } from "./dom";
import { loadRecord, readRecordFile } from "./replay";
import { create } from "@bufbuild/protobuf";
import {
  KingdomCardsSchema, RandomKingdomSchema, UndoSetting,
  type Card, type CreateGameRequest, type GameSummary,
} from "./gen/dominion/v1/dominion_pb";

const HUMAN = "";        // a seat's choice: played by a person (you, or someone with the link)
const OPEN = " open";    // ... by a person who takes it from the lobby (no bot has this name)
const MAX_SEATS = 6;
// Bots sit at the table as people do, by a name (with a bot mark beside it in the game).
// An unfinished game older than this (a day) is taken as abandoned and not listed.
const ABANDONED_AFTER_S = 24 * 3600;
const BOT_NAMES = ["Ada", "Ben", "Cleo", "Dev", "Edith", "Finn", "Gus"];

export async function showLobby(root: HTMLElement): Promise<void> {
  const status = h("p", { class: "error", id: "lobby-error", role: "alert" });
  replace(root, h("h1", {}, "Dominion"), status);
  let bots: string[] = [];
  let kingdoms: { name: string; cards: string[] }[] = [];
  let cards: Card[] = [];
  try {
    [bots, kingdoms, cards] = await Promise.all([
      client.listBots({}).then((r) => r.bots),
      client.listKingdoms({}).then((r) => r.kingdoms),
      client.listCards({}).then((r) => r.cards),
    ]);
  } catch (e) {
    status.textContent = `The server does not answer: ${refusal(e)}`;
    return;
  }
  const kingdomCards = cards.filter((c) => c.set !== "basic");
  const sets = [...new Set(kingdomCards.map((c) => c.set))].sort();

  // --- seats ---
  const seatCount = h("select", { id: "seat-count" },
    [2, 3, 4, 5, 6].map((n) => h("option", { value: n }, `${n} players`))) as HTMLSelectElement;
  const yourName = h("input", { id: "your-name", value: "Player 1", maxlength: 64,
    autocomplete: "nickname" }) as HTMLInputElement;
  const seatRows = h("div", { id: "seats" });
  const seatChoices: HTMLSelectElement[] = [];
  const seatNames: HTMLInputElement[] = [];   // a person's seat: their name
  for (let seat = 1; seat < MAX_SEATS; seat++) {
    const choice = h("select", { id: `seat-${seat}`, "data-seat": seat },
      bots.map((b) => h("option", { value: b }, `a bot: ${botTitle(b)}`)),
      h("option", { value: HUMAN }, "a person (share the seat's link)"),
      h("option", { value: OPEN }, "a person who joins from the lobby")) as HTMLSelectElement;
    choice.value = bots.includes("big-money") ? "big-money" : bots[0];
    choice.addEventListener("change", () => drawSeats());
    seatChoices.push(choice);
    seatNames.push(h("input", { id: `seat-name-${seat}`, value: `Player ${seat + 1}`,
      maxlength: 64 }) as HTMLInputElement);
  }
  const drawSeats = () => {
    const n = Number(seatCount.value);
    replace(seatRows, h("div", {}, h("label", { for: "your-name" }, "Seat 1 (you), your name: "),
      yourName),
    seatChoices.slice(0, n - 1).map((c, i) => h("div", {},
      h("label", { for: `seat-${i + 1}` }, `Seat ${i + 2}: `), c,
      c.value === HUMAN ? [" ", h("label", { for: `seat-name-${i + 1}` }, "their name: "),
        seatNames[i]] : null)));
  };
  seatCount.addEventListener("change", drawSeats);
  drawSeats();

  // --- Kingdom ---
  const kingdomKind = h("select", { id: "kingdom-kind" },
    h("option", { value: "preset" }, "a recommended Kingdom"),
    h("option", { value: "random" }, "10 random cards from chosen sets"),
    h("option", { value: "cards" }, "10 cards I choose")) as HTMLSelectElement;
  const preset = h("select", { id: "kingdom-preset", "aria-label": "Recommended Kingdom" },
    kingdoms.map((k) => h("option", { value: k.name, title: k.cards.join(", ") }, k.name)),
  ) as HTMLSelectElement;
  const setBoxes = sets.map((s) => h("input", { type: "checkbox", value: s, checked: true }) as
    HTMLInputElement);
  const cardBoxes = kingdomCards.map((c) => h("input", { type: "checkbox", value: c.name }) as
    HTMLInputElement);
  const kingdomDetail = h("div", { id: "kingdom-detail" });
  const drawKingdom = () => {
    const kind = kingdomKind.value;
    if (kind === "preset") {
      const cards = kingdoms.find((k) => k.name === preset.value)?.cards ?? [];
      replace(kingdomDetail, preset, h("div", { class: "small", id: "preset-cards" },
        cards.join(", ")));
    }
    else if (kind === "random") {
      replace(kingdomDetail, setBoxes.map((b) => h("label", { class: "check" }, b, b.value)));
    } else {
      replace(kingdomDetail, h("div", { class: "card-picks" },
        cardBoxes.map((b, i) => h("label", { class: "check", title: kingdomCards[i].text }, b,
          `${b.value} (${kingdomCards[i].set})`))));
    }
  };
  kingdomKind.addEventListener("change", drawKingdom);
  preset.addEventListener("change", drawKingdom);
  drawKingdom();

  // The game's setting for Undo (CreateGameRequest.undo): on unless unticked.
  const allowUndo = h("input", { type: "checkbox", id: "allow-undo", checked: true }) as
    HTMLInputElement;
  const startButton = h("button", { id: "create-game", class: "primary" }, "Start the game");
  const created = h("div", { id: "created" });
  startButton.addEventListener("click", async () => {
    status.textContent = "";
    const n = Number(seatCount.value);
    const mine = yourName.value.trim();
    const names = BOT_NAMES.filter((b) => b !== mine);
    const seats = [{ name: mine, bot: "" },
      ...seatChoices.slice(0, n - 1).map((c, i) => ({
        name: c.value === OPEN ? "" : c.value ? names[i] : seatNames[i].value.trim(),
        bot: c.value === OPEN ? "" : c.value, open: c.value === OPEN }))];
    let kingdom: CreateGameRequest["kingdom"];
    if (kingdomKind.value === "preset") kingdom = { case: "preset", value: preset.value };
    else if (kingdomKind.value === "random") {
      kingdom = { case: "random",
        value: create(RandomKingdomSchema,
          { sets: setBoxes.filter((b) => b.checked).map((b) => b.value) }) };
    } else {
      kingdom = { case: "cards",
        value: create(KingdomCardsSchema,
          { cards: cardBoxes.filter((b) => b.checked).map((b) => b.value) }) };
    }
    try {
      const game = await client.createGame({ seats, kingdom,
        undo: allowUndo.checked ? UndoSetting.ALLOWED : UndoSetting.OFF });
      const people = game.seats.filter((s) => s.token);
      for (const s of people) {
        holdSeat({ gameId: game.gameId, seat: s.seat, name: s.name, token: s.token });
      }
      if (people.length > 1) {   // links for the other people before going to the table
        replace(created, h("p", {}, "Send each person their seat's link:"),
          h("ul", {}, people.slice(1).map((s) => h("li", {}, `${s.name}: `,
            h("a", { href: gameLink(game.gameId, s.token) }, gameLink(game.gameId, s.token)),
            " ", copyButton(gameLink(game.gameId, s.token), s.name)))),
          h("a", { class: "primary", href: gameLink(game.gameId, people[0].token) },
            "Go to your seat"));
        return;
      }
      window.location.hash = new URL(gameLink(game.gameId, people[0].token)).hash;
    } catch (e) {
      status.textContent = refusal(e);
    }
  });

  const gamesTable = h("div", { id: "games" }, "Loading the games...");
  root.append(
    h("section", { class: "panel" }, h("h2", {}, "New game"),
      h("div", {}, h("label", { for: "seat-count" }, "Players: "), seatCount), seatRows,
      h("div", {}, h("label", { for: "kingdom-kind" }, "Kingdom: "), kingdomKind),
      kingdomDetail,
      h("div", {}, allowUndo, h("label", { for: "allow-undo" },
        " Players may take back a move (Undo) while it revealed nothing")),
      startButton, created),
    h("section", { class: "panel" }, h("h2", {}, "Games on this server"), gamesTable),
    recordPanel());
  await listGames(gamesTable, status);
}

/** "Copy link": the seat's link to the clipboard, said when done (or, where the browser
 * refuses, the link selected for the person to copy). */
function copyButton(link: string, name: string): HTMLElement {
  const said = h("span", { class: "small copied", role: "status" });
  const button = h("button", { type: "button", class: "copy-link",
    "aria-label": `Copy ${name}'s link` }, "Copy link");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
      said.textContent = " Copied.";
    } catch {
      const anchor = button.previousElementSibling;
      if (anchor) window.getSelection()?.selectAllChildren(anchor);
      said.textContent = " Selected: copy it with Ctrl+C.";
    }
  });
  return h("span", {}, button, said);
}

/** Watch a game from a record file: the page's download, or `simulate --records` lines. */
function recordPanel(): HTMLElement {
  const file = h("input", { type: "file", id: "record-file",
    accept: ".json,.jsonl,application/json" }) as HTMLInputElement;
  const line = h("input", { type: "number", id: "record-line", min: 1, value: 1 }) as
    HTMLInputElement;
  const error = h("p", { class: "error", id: "record-error", role: "alert" });
  const open = h("button", { type: "button", id: "open-record" }, "Watch it") as
    HTMLButtonElement;
  open.addEventListener("click", async () => {
    error.textContent = "";
    const chosen = file.files?.[0];
    if (!chosen) {
      error.textContent = "Choose a record file first.";
      return;
    }
    try {
      loadRecord(readRecordFile(await chosen.text(), Number(line.value) || 1));
      window.location.hash = "#/replay/file";
    } catch (e) {
      error.textContent = e instanceof Error ? e.message : String(e);
    }
  });
  return h("section", { class: "panel", id: "records" }, h("h2", {}, "Watch a recorded game"),
    h("p", { class: "small" }, "A record this page downloaded at a game's end, or a file " +
      "written by dominion simulate --records (one game a line)."),
    h("div", {}, h("label", { for: "record-file" }, "Record file: "), file),
    h("div", {}, h("label", { for: "record-line" }, "Line (for a file of several games): "),
      line),
    open, error);
}

/** Take an open seat: the name to play under, then the seat's page (its token kept here). */
async function join(g: GameSummary, seat: number, name: string, status: HTMLElement) {
  try {
    const taken = (await client.joinGame({ gameId: g.gameId, seat, name })).seat!;
    holdSeat({ gameId: g.gameId, seat, name: taken.name, token: taken.token });
    window.location.hash = new URL(gameLink(g.gameId, taken.token)).hash;
  } catch (e) {
    status.textContent = refusal(e);
  }
}

async function listGames(table: HTMLElement, status: HTMLElement): Promise<void> {
  let games: GameSummary[];
  try {
    games = (await client.listGames({ includeFinished: true, pageSize: 100 })).games;
  } catch (e) {
    replace(table, `Cannot list the games: ${refusal(e)}`);
    return;
  }
  const mine = heldSeats();
  // Abandoned: ended by the server for want of answers (the replay viewer refuses it),
  // or unfinished and started more than a day ago, unless this browser holds a seat of it.
  const now = Date.now() / 1000;
  const hidden = games.filter((g) => g.abandoned || (!g.gameOver &&
    now - g.created > ABANDONED_AFTER_S && !mine.some((s) => s.gameId === g.gameId)));
  games = games.filter((g) => !hidden.includes(g));
  if (!games.length) {
    replace(table, hidden.length ? "No games to join or watch (abandoned ones are not listed)."
      : "No games yet.");
    return;
  }
  replace(table, h("table", {},
    h("tr", {}, h("th", {}, "Players"), h("th", {}, "Kingdom"), h("th", {}, "Turn"),
      h("th", {}, "State"), h("th", {}, "")),
    games.map((g) => {
      const held = mine.filter((s) => s.gameId === g.gameId);
      const name = h("input", { maxlength: 64, "aria-label": "Your name, to join",
        placeholder: "your name", class: "join-name" }) as HTMLInputElement;
      return h("tr", { "data-game": g.gameId },
        h("td", {}, g.players.map((p, i) => (g.bots[i] ? `${p} (bot)`
          : g.openSeats.includes(i) ? `${p} (open)` : p)).join(", ")),
        h("td", { class: "small" }, g.kingdom.join(", ")),
        h("td", {}, g.turn),
        h("td", {}, g.gameOver ? "over" : `waiting for ${g.players[g.waitingFor ?? 0]}`),
        h("td", {}, held.map((s) => h("a", { href: gameLink(g.gameId, s.token), class: "seat" },
          `${g.gameOver ? "see" : "play"} as ${s.name}`)),
        g.openSeats.length ? [name, g.openSeats.map((seat) => h("button", { type: "button",
          class: "join", "data-seat": seat,
          onclick: () => void join(g, seat, name.value.trim(), status) },
        `join as seat ${seat + 1}`))] : null, " ",
          h("a", { href: gameLink(g.gameId), class: "spectate" }, "spectate"),
          g.gameOver ? [" ", h("a", { href: `#/replay/${encodeURIComponent(g.gameId)}`,
            class: "replay" }, "replay")] : null));
    })),
  hidden.length ? h("p", { class: "small", id: "abandoned" }, `${hidden.length} abandoned ` +
    `game${hidden.length > 1 ? "s" : ""} (ended unfinished by the server, or unfinished and ` +
    "started more than a day ago) not listed.") : null);
}
