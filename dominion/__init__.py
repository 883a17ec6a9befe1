"""A Dominion rules engine: immutable game states and pure functions.

    >>> import dominion
    >>> state = dominion.new_game(players=2, kingdom="First Game", seed=1)
    >>> decision = dominion.pending(state)        # who must answer what, and the legal answers
    >>> state = dominion.step(state, decision.moves[0])

See the README for the decision kinds and answer shapes.
"""
from . import _native

COMPILED = _native.choose()   # True: the mypyc-compiled engine runs (setup.py); else the sources

from . import cards as _cards  # noqa: E402,F401  (fills the card registry)
from .card import CARDS, SETS, Card, card, card_names
from .determinize import determinize
from .engine import cost, score_by_card
from .errors import (DominionError, GameOverError, IllegalAnswerError, InvalidConfigError,
                     InvalidKingdomError, InvalidPositionError, NotYourDecisionError,
                     StaleAnswerError, TakeBackRefusedError, UnknownCardError)
from .game import (ENDINGS, ENGINE_VERSION, SEED_LIMIT, Record, answer_from_data, answer_to_data,
                   check_seed, decision_number, ending, is_over, make_config, new_game, pending,
                   player_score, record, record_from_data, record_to_data, rename, replay,
                   resign, resigned, score, step, winners)
from .positions import Inspection, SeatZones, inspect, position
from .views import PlayerView, View, public_decision, view, visible_event
from .kingdoms import RECOMMENDED, kingdom_pool, resolve_kingdom
from .text import (STYLES, a_card, card_list, describe_waiting, log_header, log_line, log_lines,
                   name_prefixes, plural, render)
from .state import (ACTION, BUY, CHOOSE, CLEANUP, END_PHASE, ORDER, OVER, PLAY, PLAY_TREASURES,
                    RESIGN, SELECT, TAKE_BACK, TURN, Config, Decision, Event, Move, PlayerState,
                    PublicDecision, Resign, State, TakeBack, TurnEffects)
from .undo import can_take_back, kept_answers, reveals, take_back, take_back_refusal

__all__ = [
    "COMPILED", "SEED_LIMIT", "check_seed", "ENGINE_VERSION", "ENDINGS", "ending", "record_to_data", "record_from_data",
    "answer_to_data", "answer_from_data", "new_game", "position", "pending", "step", "view",
    "determinize", "inspect", "Inspection", "SeatZones", "score", "winners", "replay", "record",
    "resign", "resigned", "Resign", "RESIGN", "rename",
    "is_over", "decision_number", "make_config", "player_score", "score_by_card", "visible_event", "cost", "card",
    "card_names", "kingdom_pool", "resolve_kingdom", "log_line", "render", "describe_waiting",
    "STYLES", "log_header", "log_lines", "name_prefixes",
    "card_list", "a_card", "plural", "public_decision", "PublicDecision", "CARDS", "SETS",
    "RECOMMENDED", "Card", "Config", "Decision", "Event", "Move", "PlayerState", "PlayerView",
    "Record", "State", "TurnEffects", "View", "TURN", "SELECT", "CHOOSE", "ORDER", "PLAY", "PLAY_TREASURES",
    "BUY", "END_PHASE", "ACTION", "CLEANUP", "OVER", "DominionError", "UnknownCardError",
    "InvalidKingdomError", "InvalidConfigError", "InvalidPositionError", "IllegalAnswerError",
    "NotYourDecisionError", "StaleAnswerError", "GameOverError", "TAKE_BACK", "TakeBack",
    "TakeBackRefusedError", "can_take_back", "take_back_refusal", "take_back", "kept_answers",
    "reveals",
]
