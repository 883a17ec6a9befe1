"""A network bot: joins a seat of a game on a server and plays it to the end with any bot (a
built-in name, a strategy file, or a class such as examples.smithy_bot:SmithyBot).

    python examples/network_bot.py HOST:PORT GAME_ID SEAT_TOKEN [BOT]

HOST:PORT may name several servers of the same games, separated by commas
(a:50051,b:50051, servers started with `dominion serve --shared`): the bot moves to the next
when one stops answering, and goes on from the next event.

It uses the Python client library (`dominion_client`); a program in another language does the
same with the .proto: stream its seat's decisions, answer each with its sequence number.
"""
import sys

import grpc

import dominion.bots
from dominion_client.botrunner import play_seat
from dominion_client.client import connect, why_none_answered


def main(argv) -> int:
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    target, game_id, token = argv[:3]
    try:
        bot = dominion.bots.make_bot(argv[3] if len(argv) == 4 else "big-money", seed=1)
        client = connect(target)
    except ValueError as e:   # an unknown bot, an address that is not one
        print(f"network_bot: {e}", file=sys.stderr)
        return 2
    with client:
        try:
            client.wait_ready(timeout=5)
        except grpc.FutureTimeoutError:
            print(f"network_bot: {why_none_answered(target)}", file=sys.stderr)
            return 2
        try:
            seat = client.seat(game_id, token)
            result = play_seat(seat, bot)
            me = seat.view().player
        except grpc.RpcError as e:   # a game id or token the server does not know
            print(f"network_bot: {e.code().name}: {e.details()}", file=sys.stderr)
            return 1
    print(f"scores {list(result.scores)}; seat {me} "
          f"{'wins' if me in result.winners else 'does not win'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
