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

import dominion.bots
from dominion_client.botrunner import play_seat
from dominion_client.client import connect


def main(argv) -> int:
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    target, game_id, token = argv[:3]
    bot = dominion.bots.make_bot(argv[3] if len(argv) == 4 else "big-money", seed=1)
    with connect(target) as client:
        client.wait_ready(timeout=5)
        seat = client.seat(game_id, token)
        result = play_seat(seat, bot)
        me = seat.view().player
    print(f"scores {list(result.scores)}; seat {me} "
          f"{'wins' if me in result.winners else 'does not win'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
