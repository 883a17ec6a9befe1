// The page's entry: the address decides what is shown. "#/" is the lobby; "#/game/ID" a
// spectator's table; "#/game/ID?token=T" a seat's table (a reload, or the link sent to a
// person, opens the same seat where it stands).
import { showLobby } from "./lobby";
import { Table } from "./game";

let table: Table | undefined;

function route(): void {
  const root = document.getElementById("app") as HTMLElement;
  table?.stop();
  table = undefined;
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
