"""A bot that searches: determinized sampling with sequential halving over the few best answers.

At each of its buys the bot asks its rollout strategy (a built-in chosen for the Kingdom, or a
strategy file) what it would buy: that answer is the *default*. It then takes a few other
candidates (Province, Duchy, Gold, the dearest other cards it can buy, Estate among the first
once the end is near, and buying nothing), draws samples of the hidden cards from its own
seat's point of view (`dominion.determinize`), and plays each candidate forward on the same
samples (common random numbers: the candidates meet the same shuffles), every seat played by
the rollout strategy. Sequential halving spends the budget on the candidates that stay in
front. The budget is a number of playouts where a rollout is as long as at the bot's first
search; where rollouts are shorter (near the end, where one buy decides most) the same work
buys more of them, up to ``scale`` times as many (with it, Estate near the end and no search
while Treasures are played, the README's agent table at 48 playouts went from 51.0% to 54.8%
against witch-big-money, 200 games each). The default is never dropped, and it is
kept unless the best other candidate beats it on the same samples by a clear margin (two
standard errors of the paired difference, and at least ``margin`` of win share). While the
default plays Treasures, nothing is searched: the buy is the next decision. With ``choices``,
its questions of options with a few legal answers (Minion, Steward, Torturer's victim...) are
searched the same way, where the state is given. Every other decision (Action plays, attacks,
reactions, gains, trashes...) is answered by the rollout strategy itself: the documented
default policy of `dominion.bots.policy`.

Fairness: the bot reads the game only through samples made by `dominion.determinize` for its
own seat and through its seat's `view`, so its answer is a function of what the seat has seen,
its parameters and its seed: two states that the seat cannot tell apart get the same answer.
Reproducibility: with a budget of playouts (no ``time_limit``) and a seed, a game is exactly
reproducible; with a time limit it depends on the machine's speed, and is not.

Where the state is (`dominion.simulate`, the server's bot seats, ``dominion play``) it is asked
``answer_state(state)`` (``reads_state``) and samples with `dominion.determinize`. A client over
the network (``dominion bot``) sees only views: there it is asked ``answer(decision, view)`` like
any bot, and rebuilds its samples from its seat's views (`ViewSampler`): the Supply, the trash,
every zone's size, its own cards, its own discard pile as it remembers it (`DiscardMemory`) and
the cards each seat owns as counted from the log it was shown. Its answer is then a function of
its seat's views, its parameters and its seed, as before; the samples are a little coarser than
`determinize`'s (below).
"""
from __future__ import annotations

import math
import random
import time
from collections import Counter
from typing import Callable, Optional

from pyrsistent import pvector

from ..card import CARDS
from ..determinize import Determinizer, choose_answers
from ..engine import card_cost
from ..game import pile_size, step, winners
from ..positions import position
from ..views import Observation
from .playout import play_out
from ..state import BUY, CHOOSE, END_PHASE, PLAY, PLAY_TREASURES, TURN, Move, TurnEffects
from .knowledge import Holdings
from .planner import MIN_BUDGET, opponent_model, planned
from .strategy import StrategyBot, parse_strategy

# The built-in strategies a search bot rolls out with, best first: the first whose Kingdom cards
# are all in the game is chosen ("auto"). The order is each one's win rate against
# big-money-ultimate on its default Kingdom (2,000 games each, `python bench/agent_table.py
# --rank`): witch 0.96, torturer 0.83, militia 0.77, smithy 0.73, courtyard 0.72, council-room
# 0.70, nobles 0.67, laboratory 0.59; masquerade (0.46) is weaker than big-money-ultimate.
ROLLOUT_PREFERENCE = ("witch-big-money", "torturer-big-money", "militia-big-money",
                      "smithy-big-money", "courtyard-big-money", "council-room-big-money",
                      "nobles-big-money", "laboratory-big-money", "big-money-ultimate")
AUTO = "auto"

DEFAULT_PLAYOUTS = 96      # playouts per searched decision
DEFAULT_CANDIDATES = 5     # answers compared at a buy, the default one included
DEFAULT_MARGIN = 0.05      # win share a candidate must gain over the default to replace it
DEFAULT_CONFIDENCE = 2.0   # ... and by this many standard errors of the paired difference
DEFAULT_SCALE = 6.0        # the most the playouts grow where rollouts are short (1: never)
SHOWN, SAME = "shown", "rollout"   # how other seats play in its rollouts (`SearchBot`)
SWITCH_EVERY = 3           # own turns between two looks at other plans (`SearchBot` switch)
MODELS = (SHOWN, SAME)
MAX_CHOICE_ANSWERS = 6      # a CHOOSE question with more legal answers is not searched
MAX_ROLLOUT_DECISIONS = 4000   # a rollout still running after this many answers is scored as is
_MASK = (1 << 64) - 1


def _strategy(name: str):
    from .. import bots   # the package's resolver (it imports this module: looked up late)
    return bots.strategy(name)


def best_strategy_for(kingdom) -> str:
    """The strongest built-in strategy whose Kingdom cards are all in ``kingdom`` (see
    `ROLLOUT_PREFERENCE`); big-money-ultimate when none fits."""
    in_game = set(kingdom)
    for name in ROLLOUT_PREFERENCE:
        if all(c in in_game for c in _strategy(name).kingdom_cards):
            return name
    return ROLLOUT_PREFERENCE[-1]


def _mix(x: int) -> int:
    """splitmix64's finalizer: independent-looking 64-bit seeds from related integers."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


class SearchBot:
    """The search bot (see the module's docstring). ``SearchBot(seed)`` with the defaults;
    ``playouts`` per searched decision, ``candidates`` compared at a buy, ``rollout`` a
    built-in strategy's name, a strategy file's path or ``"auto"`` (the best built-in for the
    Kingdom), ``time_limit`` seconds per decision (optional; games are then not reproducible),
    ``horizon`` turns a rollout plays before it is scored by victory points (None: to the end);
    another buy replaces the default when it wins ``margin`` more win share on the same samples
    and ``confidence`` standard errors of the paired difference; ``scale`` bounds how many times
    ``playouts`` a decision plays where rollouts are shorter than at the bot's first search;
    ``switch``: every `SWITCH_EVERY` own turns, other plans (the Kingdom's best built-in, and
    each other seat's plan as shown) are searched too, and the bot takes the one that beats its
    own by the same clear margin (`_consider_switch`). Off by default: against Big Money
    Ultimate + the Kingdom's best card it won 56.2% with it and 60.2% without (the same 128
    games, 48 playouts, plans of 3,000 games; `bench/agent_table.py --search switch=on`).
    ``choices``: its CHOOSE questions with 2 to `MAX_CHOICE_ANSWERS` legal answers are searched
    too (`answer_state` only: over the network its samples are rebuilt at buys). Off by
    default: +1.1 points, one standard error, in 400 paired games (docs/bots.md).
    """
    name = "search"
    reads_state = True   # callers that have the state give it: `answer_state(state)`
    kingdom_cards: tuple = ()

    def __init__(self, seed: int = 0, playouts: int = DEFAULT_PLAYOUTS,
                 candidates: int = DEFAULT_CANDIDATES, rollout: str = AUTO,
                 time_limit: Optional[float] = None, horizon: Optional[int] = None,
                 margin: float = DEFAULT_MARGIN, confidence: float = DEFAULT_CONFIDENCE,
                 scale: float = DEFAULT_SCALE, plan: int = 0, model: str = SHOWN,
                 switch: bool = False, choices: bool = False):
        if type(playouts) is not int or playouts < 1:
            raise ValueError(f"playouts must be an integer >= 1, not {playouts!r}")
        if type(candidates) is not int or candidates < 1:
            raise ValueError(f"candidates must be an integer >= 1, not {candidates!r}")
        if time_limit is not None and not (isinstance(time_limit, (int, float))
                                           and time_limit > 0):
            raise ValueError(f"time_limit must be a number of seconds > 0, not {time_limit!r}")
        if horizon is not None and (type(horizon) is not int or horizon < 1):
            raise ValueError(f"horizon must be a number of turns >= 1, not {horizon!r}")
        if type(scale) not in (int, float) or not scale >= 1:
            raise ValueError(f"scale must be a number >= 1, not {scale!r}")
        if type(plan) is not int or not (plan == 0 or plan >= MIN_BUDGET):
            raise ValueError(f"plan must be 0 (no plan) or a budget of at least {MIN_BUDGET} "
                             f"games, not {plan!r}")
        if plan and rollout != AUTO:
            raise ValueError("give either plan (the bot plans its Kingdom) or rollout (a "
                             "strategy), not both")
        if model not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, not {model!r}")
        if type(switch) is not bool:
            raise ValueError(f"switch must be true or false, not {switch!r}")
        if type(choices) is not bool:
            raise ValueError(f"choices must be true or false, not {choices!r}")
        if rollout != AUTO:
            _strategy(rollout)   # an unknown strategy fails now, not at the first decision
        self.seed = seed
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.candidates = candidates
        self.rollout = rollout
        self.time_limit = time_limit
        self.horizon = horizon
        self.margin = margin
        self.confidence = confidence
        self.scale = scale
        self.plan = plan
        self.model = model
        self.switch = switch
        self.choices = choices
        # Told how its Kingdom's planning goes (`planned`'s ``progress``), while it plans: a
        # server shows the wait to the people at the table (`SearchSeats.answer`).
        self.plan_progress: Optional[Callable] = None
        self.switches: list = []   # (own turn, the plan it switched to), for reports
        self.changed: Counter = Counter()   # searched buys it changed, by what it bought
        self._looked_at = -1       # the own turn it last looked at other plans
        self._models: dict = {}   # another seat's counts shown -> its rollout strategy
        self.full_length = 0.0   # decisions in a rollout at its first searched decision
        self.policy: Optional[StrategyBot] = None   # the rollout strategy, for this seat
        self.searched = 0     # decisions searched, and playouts spent (for reports)
        self.spent = 0
        self.seen_log: Optional[list] = []   # the log shown through views (None after a gap)
        self.holdings: Optional[Holdings] = None   # the cards each seat owns, from that log
        self.discard: Optional[DiscardMemory] = None   # its own discard pile, from that log

    @property
    def log_from(self) -> Optional[int]:
        """The first log index not shown yet, for the views of ``answer``."""
        return None if self.seen_log is None else len(self.seen_log)

    def _policy_for(self, kingdom, players: int) -> StrategyBot:
        """Its own strategy: the Kingdom's plan (``plan``: `dominion.bots.planner.planned`),
        the rollout strategy named, or the Kingdom's best built-in."""
        policy = self.policy
        if policy is None:
            if self.plan:
                strategy = parse_strategy(planned(kingdom, players, self.plan,
                                                  progress=self.plan_progress), "plan")
            else:
                name = best_strategy_for(kingdom) if self.rollout == AUTO else self.rollout
                strategy = _strategy(name)
            policy = self.policy = StrategyBot(strategy, self.rng.getrandbits(64))
        return policy

    def _opponents(self, kingdom, seat: int, policy: StrategyBot) -> list:
        """The strategy each seat plays in the rollouts: its own plan for ``seat``; for another
        seat, with ``model`` "shown", Big Money Ultimate with the Kingdom cards it has bought
        (`dominion.bots.planner.opponent_model`; the Kingdom's best built-in until it has
        bought one), with "rollout" its own strategy."""
        known = policy.known
        assert known is not None   # (counted by the time it searches: its default was asked)
        if self.model != SHOWN:
            return [policy] * len(known.counts)
        fallback = _strategy(best_strategy_for(kingdom))
        bots = []
        for q, counts in enumerate(known.counts):
            if q == seat:
                bots.append(policy)
                continue
            key = tuple(sorted((name, k) for name, k in counts.items() if name in kingdom))
            bot = self._models.get(key)
            if bot is None:
                text = opponent_model(kingdom, counts, "")
                strategy = fallback if not text else parse_strategy(text, "model")
                bot = self._models[key] = StrategyBot(strategy, 0)
            bots.append(bot)
        return bots

    def answer(self, decision, view):
        """The answer to ``decision`` from ``view`` alone (the protocol of every bot, played
        over the network by ``dominion bot``; the log from ``log_from`` on): the same search,
        on samples rebuilt from the views shown so far (`ViewSampler`). Where the views do not
        add up (a part of the log was never shown), the rollout strategy's answer."""
        self._follow(view)
        policy = self._policy_for(view.kingdom, len(view.players))
        default = policy.answer(decision, view)
        if not _searched(decision, default):
            return default
        candidates = self._candidates(decision, default, _near_the_end(view, len(view.players)))
        if len(candidates) < 2 or self.seen_log is None or self.holdings is None:
            return default
        remembered = None if self.discard is None else self.discard.cards
        sampler = ViewSampler.of(decision, view, self.seen_log, self.holdings, remembered)
        if sampler is None:
            return default
        seat = decision.player
        if self._time_to_switch(view.players[seat].turns_taken):
            policy, default = self._consider_switch(
                sampler, seat, policy, default, view.kingdom, lambda alt: alt.answer(decision, view))
            candidates = self._candidates(decision, default,
                                          _near_the_end(view, len(view.players)))
        return self._chosen(candidates,
                            self._search(sampler, seat, candidates, policy, view.kingdom))

    def _follow(self, view) -> None:
        """Keep the log shown so far, and count from it the cards each seat owns."""
        seen = self.seen_log
        if seen is None:
            return
        log, start = view.log, view.log_start
        if start > len(seen):   # events were never shown: the counts would be wrong
            self.seen_log = None
            return
        new = log[len(seen) - start:]
        if not new:
            return
        seen.extend(new)
        if self.holdings is None:
            self.holdings = Holdings(len(view.players))
            self.discard = DiscardMemory(view.player)
        self.holdings.observe(view)
        if self.discard is not None:
            self.discard.follow(new)
            self.discard.check(view.players[view.player])

    # -- the entry point -----------------------------------------------------------------------

    def answer_state(self, state):
        """The answer to ``state``'s pending decision, for the seat it asks. Reads the state
        only through that seat's view and `determinize` samples for that seat."""
        decision = state.stack[-1][1]
        seat = decision.player
        policy = self._policy_for(state.config.kingdom, len(state.players))
        seen = Observation(state, seat, policy.log_from)
        default = policy.answer(decision, seen)
        if self.choices and decision.kind == CHOOSE:
            candidates = _choice_candidates(decision, default)
        elif _searched(decision, default):
            candidates = self._candidates(decision, default,
                                          _near_the_end(seen, len(state.players)))
        else:
            return default
        if len(candidates) < 2:
            return default
        determinizer = Determinizer(state, seat)
        kingdom = state.config.kingdom
        if decision.kind == TURN and self._time_to_switch(seen.players[seat].turns_taken):
            policy, default = self._consider_switch(
                determinizer, seat, policy, default, kingdom,
                lambda alt: alt.answer(decision, Observation(state, seat, alt.log_from)))
            candidates = self._candidates(decision, default,
                                          _near_the_end(seen, len(state.players)))
        return self._chosen(candidates,
                            self._search(determinizer, seat, candidates, policy, kingdom),
                            decision)

    def _chosen(self, candidates: list, best: int, decision=None):
        """``candidates[best]``, counted in ``changed`` by what it buys (or, for a choice,
        by the card that asks) when it is not the plan's own answer (the agent table's report
        of where search changes the plan)."""
        if best:
            move = candidates[best]
            self.changed[_buy_class(move) if decision is None or decision.kind == TURN
                         else f"choice ({decision.card})"] += 1
        return candidates[best]

    # -- switching plans ---------------------------------------------------------------------------

    def _time_to_switch(self, turns_taken: int) -> bool:
        """Whether this buy is one where other plans are searched: once in `SWITCH_EVERY` own
        turns, from the third on (before it, every plan has only opened)."""
        if not self.switch or turns_taken < 2 or turns_taken % SWITCH_EVERY != 2 or \
                turns_taken == self._looked_at:
            return False
        self._looked_at = turns_taken
        return True

    def _alternatives(self, kingdom, seat: int, policy: StrategyBot) -> list:
        """Other plans the bot could switch to: the Kingdom's best built-in, and the plan each
        other seat has shown (`opponent_model`: what beats the bot may be worth copying),
        each once and none the bot's own."""
        known = policy.known
        assert known is not None
        texts: dict = {}
        name = best_strategy_for(kingdom)
        texts[name] = _strategy(name)
        for q, counts in enumerate(known.counts):
            if q != seat:
                text = opponent_model(kingdom, counts, "")
                if text and text not in texts:
                    texts[text] = parse_strategy(text, f"as seat {q + 1} plays")
        own = policy.strategy
        return [s for s in texts.values() if s != own and s.buy != own.buy]

    def _consider_switch(self, determinizer, seat: int, policy: StrategyBot, default, kingdom,
                         ask) -> tuple:
        """(the plan, its answer now) after searching the bot's own plan against the
        alternatives (`_alternatives`), each played from this buy on by its own rules: another
        plan is taken, for the rest of the game, when it beats the bot's own by a clear margin
        on the same samples (as a buy replaces the default in `_search`). ``ask(bot)``: that
        plan's answer to the decision."""
        alternatives = [policy]
        answers = [default]
        for strategy in self._alternatives(kingdom, seat, policy):
            bot = StrategyBot(strategy).fork(self.rng.getrandbits(64), policy.known)
            alternatives.append(bot)
            answers.append(ask(bot))
        if len(alternatives) < 2:
            return policy, default
        best = self._search(determinizer, seat, answers, policy, kingdom, alternatives)
        if best == 0:
            return policy, default
        chosen = alternatives[best]
        self.policy = chosen
        self.switches.append((self._looked_at + 1, chosen.strategy.name))
        return chosen, answers[best]

    def _candidates(self, decision, default, late: bool = False) -> list:
        """The default answer first, then other buys in `_buy_rank` order (Province, Duchy,
        Gold, the dearest Kingdom cards...; Estate before Gold when the end is ``late``), and
        buying nothing last, ``candidates`` in all."""
        buys = sorted((m for m in decision.moves if m.verb == BUY and m != default
                       and m.card not in ("Copper", "Curse")),
                      key=lambda m: _buy_rank(m.card, late))
        end = Move(END_PHASE)
        with_end = default != end and any(m == end for m in decision.moves)
        room = max(0, self.candidates - 1 - with_end)
        return [default] + buys[:room] + ([end] if with_end and self.candidates > 1 else [])

    # -- the search ------------------------------------------------------------------------------

    def _search(self, determinizer, seat: int, candidates: list, policy: StrategyBot,
                kingdom: tuple, plans: Optional[list] = None) -> int:
        """Sequential halving over ``candidates`` (the default first) on shared samples; the
        index of the default unless another beats it clearly. ``plans``: the seat's rollout
        strategy after each candidate (default: ``policy`` after every one)."""
        decision_seed = self.rng.getrandbits(64)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit

        def out_of_time() -> bool:
            return deadline is not None and time.perf_counter() > deadline
        known = policy.known
        players = self._opponents(kingdom, seat, policy)
        each = [players] * len(candidates) if plans is None else \
            [players[:seat] + [plan] + players[seat + 1:] for plan in plans]
        k = len(candidates)
        values: list = [[] for _ in candidates]
        alive = list(range(k))
        samples = 0
        self.searched += 1

        def one_sample() -> int:
            """Every candidate still alive played on one more sample; the decisions taken."""
            nonlocal samples
            sample_seed = _mix(decision_seed + samples)
            sample = determinizer.sample(sample_seed)
            taken = 0
            for i in alive:
                value, length = self._playout(sample, seat, candidates[i], sample_seed,
                                              each[i], known)
                values[i].append(value)
                taken += length
                # A compiled playout never lets go of the interpreter lock by itself: a
                # server's event loop (its other games) gets a turn between playouts.
                time.sleep(0)
            samples += 1
            return taken

        length = one_sample() / k
        if not self.full_length:
            self.full_length = length
        # Short rollouts (the end of the game, where one buy decides most) get more samples
        # for the same work, up to `scale` times the playouts.
        budget = self.playouts * min(self.scale, max(1.0, self.full_length / max(length, 1.0)))
        rounds = max(1, math.ceil(math.log2(k)))
        per_round = max(k, int(budget) // rounds)
        for round_number in range(rounds):
            for _ in range(max(1, per_round // len(alive)) - (round_number == 0)):
                if out_of_time():
                    break
                one_sample()
            if out_of_time():
                break
            if len(alive) > 2:   # keep the better half; the default always stays
                ranked = sorted(alive, key=lambda i: (-_mean(values[i]), i))
                keep = ranked[:max(2, (len(alive) + 1) // 2)]
                if 0 not in keep:
                    keep[-1] = 0
                alive = sorted(keep)
        self.spent += sum(len(v) for v in values)
        challengers = [i for i in alive if i != 0]
        if not challengers or samples < 2:
            return 0
        best = max(challengers, key=lambda i: (_mean(values[i]), -i))
        diffs = [a - b for a, b in zip(values[best], values[0])]
        gain = _mean(diffs)
        spread = math.sqrt(sum((d - gain) ** 2 for d in diffs) / (len(diffs) - 1))
        if gain > self.margin and gain > self.confidence * spread / math.sqrt(len(diffs)):
            return best
        return 0

    def _playout(self, sample, seat: int, move, sample_seed: int, players: list,
                 known) -> tuple:
        """(``seat``'s share of the win, decisions taken) after answering ``move`` on
        ``sample``, every seat then played by its rollout strategy (``players``, seeded by the
        sample: every candidate meets the same rollout bots); a rollout cut by the horizon is
        scored by its victory points."""
        state = step(sample, move)
        n = len(state.players)
        bots = [players[q].fork(_mix(sample_seed ^ (q + 1)), known) for q in range(n)]
        cheap = [True] * n
        if self.horizon is None:
            state, _ = play_out(state, bots, cheap, step, MAX_ROLLOUT_DECISIONS)
        else:
            last_turn = state.turn + self.horizon
            while state.stack and state.turn < last_turn:
                state, _ = play_out(state, bots, cheap, step, 64)
        length = len(state.answers) - len(sample.answers)
        if not state.stack:
            won = winners(state)
            return (1.0 / len(won) if seat in won else 0.0), length
        return _score_share(state.vp, seat), length


def _searched(decision, default) -> bool:
    """Whether the bot searches this decision: its buys, where its default buys a card or
    ends the turn (while the default plays Treasures, the buy is the next decision)."""
    return decision.kind == TURN and decision.purpose == "buy_phase" and \
        default.verb in (BUY, END_PHASE)


def _choice_candidates(decision, default) -> list:
    """The answers the bot (with ``choices``) compares for a CHOOSE question: the default first,
    then every other legal answer (an answer is a set of options: the default's order of them
    does not make another); none where it has fewer than 2 or more than `MAX_CHOICE_ANSWERS`
    (Courtier's or Lurker's longer lists), which get the default answer."""
    answers = choose_answers(decision)
    if not 2 <= len(answers) <= MAX_CHOICE_ANSWERS:
        return []
    chosen = set(default)
    return [default] + [a for a in answers if set(a) != chosen]


def _near_the_end(seen, players: int) -> bool:
    """Half the Provinces are gone, or two Supply piles are empty (a third ends the game): an
    Estate may then decide the game, and is worth a candidate's place."""
    supply = seen.supply
    provinces = next(left for name, left, _ in supply if name == "Province")
    if 2 * provinces <= pile_size("Province", players):
        return True
    return sum(1 for _, left, _ in supply if left == 0) >= 2


def _buy_class(move) -> str:
    """What a buy is, for reports: a base card's name, "Kingdom card", or "nothing"."""
    if move.verb != BUY:
        return "nothing"
    return move.card if not CARDS[move.card].is_kingdom else "Kingdom card"


def _buy_rank(name: str, late: bool = False) -> tuple:
    """The order in which other buys are tried: the Victory cards that end games and the best
    Treasure first (near the end, Estate too), then by cost (Estate and Silver, the cheap
    fallbacks, last)."""
    first = {"Province": 0, "Duchy": 1, "Gold": 2}.get(name)
    if late and name == "Estate":
        first = 1
    if first is not None:
        return (first, 0, name)
    if name in ("Estate", "Silver"):
        return (4, -CARDS[name].cost, name)
    return (3, -CARDS[name].cost, name)


def _score_share(vp: tuple, seat: int) -> float:
    """A rollout cut short: the seat's chance as its victory-point lead makes it (a logistic in
    the lead over the best other seat, 1/2 when level)."""
    lead = vp[seat] - max(v for i, v in enumerate(vp) if i != seat)
    return 1.0 / (1.0 + math.exp(-lead / 4.0))


def _mean(values: list) -> float:
    return sum(values) / len(values) if values else 0.0


class ViewSampler:
    """Samples of a game at one seat's buy, rebuilt from what that seat was shown (for the
    search bot over the network, where there is no state to give `determinize`): the Supply, the
    trash, the turn's counters, every zone's size, the cards in play, set aside and on top of
    each discard pile, the seat's own hand, and the cards each seat owns as counted from the log
    (`Holdings`). Each sample deals every seat's unseen cards (the owned cards not in a zone the
    seat sees) at random into the zones they fill, by their sizes, and continues as a position
    (`dominion.positions.position`) with the log the seat was shown.

    Its own discard pile is kept as `DiscardMemory` remembers it, like ``determinize`` keeps it;
    where the memory does not know it, it is dealt from the seat's unseen cards with its deck.
    Coarser than `determinize` in one way: another seat's cards are counted from the public
    log, so a card passed face down between two other seats (Masquerade, 3 or more players) is
    counted where it was: a seat whose counts cannot fill its zones gets the cards other seats'
    counts have too many of, at random (then Coppers, should none be left). Use `of`: it returns
    None where the views do not add up for the seat's own cards (they always do, unless a view
    was missed)."""
    __slots__ = ("args", "seats", "log")

    def __init__(self, args: dict, seats: list, log):
        self.args = args     # `position`'s keyword arguments that every sample shares
        self.seats = seats   # per seat: (unseen cards sorted, sizes to deal them into, own
        self.log = log       # hand, own looking, the discard pile's cards kept, top first)

    @classmethod
    def of(cls, decision, view, seen_log: list, holdings: Holdings,
           remembered: Optional[Counter] = None) -> Optional["ViewSampler"]:
        """The sampler for ``decision`` (a buy of the view's seat) from ``view`` and the whole
        log shown so far; None when the seat's own cards do not add up. ``remembered``: the
        seat's own discard pile as `DiscardMemory` remembers it (None: not known), kept in
        every sample."""
        me = view.player
        players = view.players
        if len(holdings.counts) != len(players):
            return None
        seats: list = []
        for seat, pv in enumerate(players):
            top = () if pv.discard_top is None else (pv.discard_top,)
            seen = Counter(pv.in_play) + Counter(pv.aside) + Counter(top)
            under = pv.discard_size - len(top)
            if seat == me:
                hand, looking = tuple(pv.hand), tuple(pv.looking or ())
                seen += Counter(hand) + Counter(looking)
                sizes = (0, pv.deck_size, 0, under)
            else:
                hand = looking = ()
                sizes = (pv.hand_size, pv.deck_size, pv.looking_size, under)
            unseen = Counter(holdings.counts[seat])
            unseen.subtract(seen)
            if seat == me and (min(unseen.values(), default=0) < 0
                               or sum(unseen.values()) != sum(sizes)):
                return None
            if seat == me and remembered is not None and under:
                below = remembered - Counter(top)   # the pile under its top card
                rest = unseen - below
                if sum(below.values()) == under and sum(rest.values()) == pv.deck_size and \
                        not below - unseen:
                    top += tuple(sorted(below.elements()))   # kept where they are
                    unseen, sizes = rest, (0, pv.deck_size, 0, 0)
            seats.append((tuple(sorted(unseen.elements())), sizes, hand, looking, top))
        supply = view.supply
        # This turn's cost reduction (Bridge): the one with which the cost rule gives the costs
        # shown (none above the dearest card's cost can differ from it).
        reduction = next(r for r in range(max(CARDS[name].cost for name, _, _ in supply) + 1)
                         if all(card_cost(name, r) == now for name, _, now in supply))
        bought = not any(m.verb in (PLAY, PLAY_TREASURES) for m in decision.moves) and \
            any(CARDS[c].is_treasure for c in players[me].hand)
        args = dict(
            kingdom=view.kingdom, players=tuple(pv.name for pv in players),
            supply={name: left for name, left, _ in supply},
            in_play=[pv.in_play for pv in players], aside=[pv.aside for pv in players],
            trash=view.trash, current=view.current, phase=BUY, actions=view.actions,
            buys=view.buys, coins=view.coins, turns_taken=[pv.turns_taken for pv in players],
            effects=TurnEffects(cost_reduction=reduction, bought=bought))
        return cls(args, seats, pvector(seen_log))

    def sample(self, seed: int):
        """One sample, dealt with ``seed``; its later shuffles are seeded by it too."""
        deal = random.Random(seed)
        dealt, spare = [], []
        for pool, sizes, _, _, _ in self.seats:
            cards = list(pool)
            deal.shuffle(cards)
            need = sum(sizes)
            dealt.append(cards[:need])
            spare += cards[need:]
        deal.shuffle(spare)   # cards counted for a seat that has fewer: passed out of sight
        hands, decks, looking, discards = [], [], [], []
        for cards, (pool, (hand, deck, look, under), own_hand, own_looking, top) in \
                zip(dealt, self.seats):
            need = hand + deck + look + under
            if len(cards) < need:
                taken = spare[:need - len(cards)]
                del spare[:len(taken)]
                cards += taken + ["Copper"] * (need - len(cards) - len(taken))
            hands.append(own_hand + tuple(cards[:hand]))
            decks.append(cards[hand:hand + deck])
            looking.append(own_looking + tuple(cards[hand + deck:hand + deck + look]))
            discards.append(top + tuple(cards[hand + deck + look:]))
        return position(hands=hands, decks=decks, looking=looking, discards=discards,
                        seed=seed, **self.args)._replace(log=self.log)


class DiscardMemory:
    """The cards of a seat's own discard pile, as the seat remembers them from the log it was
    shown (rulebook: a player may not look through their discard pile, but they put every card
    there themselves). A shuffle empties it; discards, gains to it and the Clean-up (the hand
    and the cards in play, followed from the seat's last view) fill it; Harbinger and Vassal
    take cards back out. ``cards`` is None where it is not known, until the next shuffle: where
    the pile does not match the view's size or top card (after Chancellor's discarded deck,
    whose cards are not named, or a card moved in a way it does not follow)."""
    __slots__ = ("seat", "cards", "hand", "in_play", "playing", "vassal_discarded")

    def __init__(self, seat: int):
        self.seat = seat
        self.cards: Optional[Counter] = None   # known from the first shuffle (the setup's)
        self.hand: Counter = Counter()      # the hand and the cards in play, as last shown
        self.in_play: Counter = Counter()   # and followed since (for the Clean-up)
        self.playing: Optional[str] = None  # the card the seat played last (its effect may
        self.vassal_discarded: tuple = ()   # go on), and what a Vassal of it discarded

    def follow(self, events) -> None:
        """Fold in new events of the seat's log (its own cards are named to it)."""
        me = self.seat
        for event in events:
            kind, player, cards, _, detail = event
            if kind == "pass" and detail == me:   # passed to this seat (Masquerade)
                self.hand.update(cards)
                continue
            if player != me:
                continue
            pile = self.cards
            if kind == "shuffle":
                self.cards = Counter()
            elif kind == "cleanup":
                if pile is not None:
                    pile.update(self.hand)
                    pile.update(self.in_play)
                self.hand, self.in_play, self.playing = Counter(), Counter(), None
            elif kind in ("gain", "buy"):
                if detail == "discard" and pile is not None:
                    pile.update(cards)
                elif detail == "hand":
                    self.hand.update(cards)
            elif kind == "discard":
                if pile is not None:
                    pile.update(cards)
                if self.playing == "Vassal":   # the top card of the deck
                    self.vassal_discarded = cards
                else:
                    self.hand -= Counter(cards)   # where they came from the hand
            elif kind in ("draw", "to_hand"):
                self.hand.update(cards)
            elif kind == "play":
                if detail != "again":   # (Throne Room's second play: the card does not move)
                    for name in cards:
                        if self.playing == "Vassal" and name in self.vassal_discarded:
                            if pile is not None:
                                pile[name] -= 1   # Vassal plays the card it discarded
                        elif self.hand[name] > 0:
                            self.hand[name] -= 1
                        self.in_play[name] += 1
                self.playing = cards[0] if len(cards) == 1 else None
                self.vassal_discarded = ()
            elif kind == "topdeck":
                if self.playing == "Harbinger":   # its choice: from the discard pile
                    if pile is not None:
                        pile.subtract(cards)
                    self.playing = None
                else:
                    self.hand -= Counter(cards)
            elif kind in ("trash", "insert", "pass"):
                for name in cards:
                    if self.hand[name] > 0:
                        self.hand[name] -= 1
                    elif self.in_play[name] > 0:
                        self.in_play[name] -= 1

    def check(self, shown) -> None:
        """At a view (``shown``: the seat's `PlayerView`): forget a pile that does not match
        its size or its top card, and take the hand and the cards in play as shown."""
        pile = self.cards
        if pile is not None:
            size = sum(pile.values())
            if size != shown.discard_size or min(pile.values(), default=0) < 0 or \
                    (size and pile[shown.discard_top] <= 0):
                self.cards = None
        self.hand, self.in_play = Counter(shown.hand), Counter(shown.in_play)
