// The page's entry: the address decides what is shown. "#/" is the lobby; "#/game/ID" a
// spectator's table; "#/game/ID?token=T" a seat's table (a reload, or the link sent to a
// person, opens the same seat where it stands). "#/replay/ID?seat=N" replays a finished game
// as seat N (no seat: as a spectator); "#/replay/file" the record file loaded in the lobby.
import { showLobby } from "./lobby";
import { Table } from "./game";
import { ReplayViewer } from "./replay";

let table: Table | ReplayViewer | undefined;

function route(): void {
  const root = document.getElementById("app") as HTMLElement;
  table?.stop();
  table = undefined;
  root.replaceChildren("Loading…");   // nothing of the page before stays while the next loads
  const replay = /^#\/replay\/([^?]+)(?:\?(.*))?$/.exec(window.location.hash);
  if (replay) {
    const id = decodeURIComponent(replay[1]);
    const seat = new URLSearchParams(replay[2] ?? "").get("seat");
    table = new ReplayViewer(root, id === "file" ? undefined : id,
      seat === null || seat === "" ? undefined : Number(seat));
    void table.start();
    return;
  }
  const match = /^#\/game\/([^?]+)(?:\?(.*))?$/.exec(window.location.hash);
  if (!match) {
    void showLobby(root);
    return;
  }
  const gameId = decodeURIComponent(match[1]);
  const token = new URLSearchParams(match[2] ?? "").get("token") ?? undefined;
  table = new Table(root, gameId, token);
  void table.start();
}

window.addEventListener("hashchange", route);
route();
