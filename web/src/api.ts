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

export { ConnectError, Code };

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
