// The service, as the browser reaches it: the generated client over the Connect protocol
// (binary), on the origin that served the page. Seat tokens travel as the `x-seat-token`
// header, as over native gRPC.
import { createClient, ConnectError, Code } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { DominionService } from "./gen/dominion/v1/dominion_pb";

export const client = createClient(
  DominionService,
  createConnectTransport({ baseUrl: window.location.origin, useBinaryFormat: true }),
);

export function seatHeaders(token: string | undefined): Record<string, string> {
  return token ? { "x-seat-token": token } : {};
}

/** The server's refusal as one line for a person: its message, and the status code's name. */
export function refusal(error: unknown): string {
  if (error instanceof ConnectError) {
    return `${error.rawMessage} (${Code[error.code]})`;
  }
  return String(error);
}

/** A refusal or a failure in a person's words; ``connection`` when the server could not be
 * reached (nothing was sent or taken: the page says so until the server is back). */
export function inWords(error: unknown): { text: string; connection: boolean } {
  if (!(error instanceof ConnectError)) {
    return { text: "The server cannot be reached: nothing was sent. The page tries again " +
      "and shows the game as soon as the server is back.", connection: true };
  }
  const detail = error.rawMessage;
  switch (error.code) {
    case Code.Aborted:
    case Code.FailedPrecondition:
      return { text: "That question had already been answered (in another tab or window?). " +
        "The table now shows the game as it stands.", connection: false };
    case Code.Unavailable:
    case Code.Canceled:
    case Code.DeadlineExceeded:
    case Code.Unknown:
      return { text: "The server cannot be reached: your answer was not sent. The page " +
        "tries again and shows the game as soon as the server is back.", connection: true };
    case Code.PermissionDenied:
    case Code.Unauthenticated:
      return { text: "This link does not hold a seat of this game: open the link you were " +
        "given again.", connection: false };
    case Code.NotFound:
      return { text: "This game is not on the server.", connection: false };
    case Code.ResourceExhausted:
      return { text: "The server is busy: try again in a moment.", connection: false };
    case Code.InvalidArgument:
      return { text: `That answer is not allowed here. (The server says: ${detail})`,
        connection: false };
    default:
      return { text: `Something went wrong. (The server says: ${detail})`, connection: false };
  }
}

export { ConnectError, Code };

/** The page's settings, kept in this browser for each player (by the seat's name, so two
 * people sharing a browser keep theirs), with the browser's last choices as the default. */
export interface Settings {
  autoTreasures: boolean;     // play all Treasures when the Buy phase starts
  confirmEndTurn: boolean;    // ask before ending a turn with a Buy and $2 or more left
  autoMoat: boolean;          // reveal Moat against an Attack without asking
  autoForced: boolean;        // answer a question that has only one answer without asking
}

const SETTINGS = "dominion.settings";

function read(key: string): Partial<Settings> {
  try {
    const value = JSON.parse(window.localStorage.getItem(key) || "{}");
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

export function settings(player?: string): Settings {
  const fallback: Settings = { autoTreasures: true, confirmEndTurn: true, autoMoat: false,
    autoForced: false };
  return { ...fallback, ...read(SETTINGS),
    ...(player === undefined ? {} : read(`${SETTINGS}.${player}`)) };
}

export function saveSettings(value: Settings, player?: string): void {
  window.localStorage.setItem(SETTINGS, JSON.stringify(value));
  if (player !== undefined) {
    window.localStorage.setItem(`${SETTINGS}.${player}`, JSON.stringify(value));
  }
}

/** A seat this browser holds: its token is the key to it (kept in localStorage, and in the
 * page's address so that a reload or a shared link opens the same seat). */
export interface HeldSeat {
  gameId: string;
  seat: number;
  name: string;
  token: string;
}

const HELD = "dominion.seats";

export function heldSeats(): HeldSeat[] {
  try {
    const seats = JSON.parse(window.localStorage.getItem(HELD) || "[]");
    return Array.isArray(seats) ? seats : [];
  } catch {
    return [];
  }
}

export function holdSeat(seat: HeldSeat): void {
  const others = heldSeats().filter((s) => s.token !== seat.token);
  window.localStorage.setItem(HELD, JSON.stringify([seat, ...others].slice(0, 50)));
}

/** The page address of a game: with a token, the seat's own page; without, a spectator's. */
export function gameLink(gameId: string, token?: string): string {
  const hash = `#/game/${encodeURIComponent(gameId)}` +
    (token ? `?token=${encodeURIComponent(token)}` : "");
  return `${window.location.origin}${window.location.pathname}${hash}`;
}
