"""The Kingdom planner: a strong strategy for a Kingdom, found by simulation.

A *plan* (`Plan`) is a small genome that writes itself as a strategy file (`Plan.toml`, the
format of `dominion.bots.strategy`, docs/bots.md): Big Money with one or two Kingdom cards and
their timing, a complete engine (village, draw, payload, +Buy, trasher) with the order to reach
it, a rush (Gardens with a gainer), each with an opening and greening rules (Province only after
N Golds, Duchy and Estate by the Provinces left, the penultimate Province only when it does not
lose).

`plan_kingdom` searches them:

1. **Seeds** come from the Kingdom's roles (`roles`), never left to mutation to assemble an
   engine (half-built engines lose to money, so mutation alone never finds one): Big Money
   Ultimate + X for every Kingdom card (one copy over Gold, two over Gold, two over Silver),
   every engine the Kingdom's villages, draw, payload, +Buy and trashers make, the rushes it
   allows, and the built-in strategies that fit.
2. **Fitness** is the win share against a league (the built-ins that fit and Big Money
   Ultimate at first; then the best BMU + X and the leaders so far), both seats of every seed
   (common random numbers: every candidate meets the same shuffles), by successive halving:
   every candidate plays a few games against each league member, the better half plays twice
   as many, and so on (adaptive match length). The score is the mixture (the mean over the
   league); the worst matchup is reported beside it.
3. **Generations** mutate the leaders (copies, timing, greening, a second card, the opening)
   and play them again on fresh seeds, until the budget is spent.
4. **Finalists** (the leaders, the leaders of up to `HALL` earlier generations, and the best
   BMU + X) are scored again on fresh seeds against the final league; the best mixture wins.

The budget is a number of games, not seconds, so that the same Kingdom, players, budget and
seed give the same plan on any machine and any number of workers (game ``i`` of a match is a
pure function of its seed). The games run on ``executor`` (anything with ``submit(fn, *args)``
whose futures have ``result()``: a process pool, or a Dask client for a cluster).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable, Optional

from ..card import CARDS
from ..game import new_game, step, winners
from ..rng import next_u64
from .strategy import Strategy, StrategyBot, parse_strategy

# Plans cached under another version are planned again: bump it when the plans, their search
# or the default play policy (which plays them) change.
PLANNER_VERSION = 6
DEFAULT_BUDGET = 40_000      # games: under 30 s on 2 cores (README, "Plan a Kingdom")
MIN_BUDGET = 1000            # games: the first round of every seed against the league
MAX_PLAN_DECISIONS = 3000    # a game still running after this many answers is a draw
LEADERS = 4                  # plans kept from one generation to the next
HALL = 6                     # earlier generations' leaders among the finalists (the latest)
CHILDREN = 32                # mutations of the leaders per generation (8 each: 12 explored too little)
LEAGUE_SIZE = 7              # the most opponents a plan is scored against
FIRST_GAMES = 4              # games per league member in the first round of a halving
FINAL_SHARE = 0.25           # of the budget, kept for the finalists on fresh seeds
_MASK = (1 << 64) - 1


def _mix(x: int) -> int:
    return next_u64(x & _MASK)[1]


# ---------------------------------------------------------------------------------------------
# Roles: what each Kingdom card can do in a plan
# ---------------------------------------------------------------------------------------------

# Cards whose text draws although their printed bonuses say +0 Cards (Library draws to 7,
# Nobles and Steward choose +Cards): counted as terminal draw.
_DRAW_BY_TEXT = frozenset(("Library", "Nobles", "Steward"))
# Trashers that thin a deck of Coppers and Estates (a plan opens with one).
_THINNERS = frozenset(("Chapel", "Steward", "Trading Post", "Masquerade", "Moneylender",
                       "Lurker", "Sentry", "Remodel", "Upgrade", "Replace"))
# Gainers of cards costing up to $4 (a Gardens rush).
_GAINERS = frozenset(("Workshop", "Ironworks"))
# Victory cards that count other cards (rushes and Duke dances).
_RUSH_VP = frozenset(("Gardens", "Duke"))


@dataclass(frozen=True)
class Roles:
    """The Kingdom's cards by what a plan uses them for."""
    villages: tuple      # +2 Actions
    draw: tuple          # terminal +Cards (+2 or more), best first
    lab_draw: tuple      # non-terminal +Cards (+2: Laboratory, Secret Passage)
    payload: tuple       # terminal +$ and Attacks
    buys: tuple          # +Buy
    thinners: tuple      # trashers
    gainers: tuple       # gainers for a rush
    rush_vp: tuple       # Gardens, Duke
    money: tuple         # every Action or Treasure worth trying in Big Money


def roles(kingdom) -> Roles:
    """What each card of ``kingdom`` can be in a plan (from the cards' printed bonuses and a few
    texts)."""
    names = [n for n in kingdom if n in CARDS]

    def terminal(c) -> bool:
        return c.is_action and c.plus_actions == 0
    villages = [n for n in names if CARDS[n].plus_actions >= 2]
    draw = [n for n in names if terminal(CARDS[n]) and
            (CARDS[n].plus_cards >= 2 or n in _DRAW_BY_TEXT)]
    draw.sort(key=lambda n: (-CARDS[n].plus_cards - (3 if n in _DRAW_BY_TEXT else 0)
                             - (2 if CARDS[n].is_attack else 0), n))
    lab_draw = [n for n in names if CARDS[n].is_action and CARDS[n].plus_actions >= 1 and
                CARDS[n].plus_cards >= 2]
    payload = [n for n in names if terminal(CARDS[n]) and n not in draw and
               (CARDS[n].plus_coins >= 2 or CARDS[n].is_attack)]
    payload.sort(key=lambda n: (not CARDS[n].is_attack, -CARDS[n].plus_coins, n))
    buys = [n for n in names if CARDS[n].plus_buys >= 1]
    money = [n for n in names if CARDS[n].is_action or CARDS[n].is_treasure]
    return Roles(tuple(villages), tuple(draw), tuple(lab_draw), tuple(payload), tuple(buys),
                 tuple(n for n in names if n in _THINNERS),
                 tuple(n for n in names if n in _GAINERS),
                 tuple(n for n in names if n in _RUSH_VP), tuple(money))


# ---------------------------------------------------------------------------------------------
# Plans
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Want:
    """Buy ``card`` while owning fewer than ``copies``, placed before the Gold rule (``over``
    "Gold") or before the Silver rule ("Silver"), with more conditions in ``when``."""
    card: str
    copies: int
    over: str = "Gold"
    when: tuple = ()


MONEY, ENGINE, RUSH, BUILT_IN = "money", "engine", "rush", "built-in"
# The greening a plan's name leaves unsaid (`Plan.label` names the differences).
_DEFAULT_GREENING = {
    MONEY: {"golds": 1, "duchy_at": 4, "duchy_silver_at": 6, "estate_at": 2,
            "penultimate": False},
    ENGINE: {"duchy_at": 4, "estate_at": 2, "penultimate": False},
    RUSH: {"estate_at": 4},
}
_GREENING_NOTES = (("golds", "Province after Golds: "), ("duchy_at", "Duchy at "),
                   ("duchy_silver_at", "Duchy over Silver at "), ("estate_at", "Estate at "),
                   ("penultimate", "penultimate-Province rule "))


@dataclass(frozen=True)
class Plan:
    """One strategy the planner can say (see the module's docstring); `toml` writes it.

    ``kind``: money (Big Money Ultimate with ``wants``), engine (``engine``: village, draw,
    payload, +Buy, trasher, and how many of each), rush (``wants``: the gainer, then the
    Victory card), or built-in (``source``: a strategy file's text, played as it is).
    Greening: Province once ``golds`` Golds are owned (engines: once ``green_draw`` draw cards
    are); Duchy over Gold when ``duchy_at`` or fewer Provinces are left, over Silver at
    ``duchy_silver_at``; Estate at ``estate_at``; ``penultimate``: no Province that leaves one
    Province while it would not then lead."""
    kind: str
    wants: tuple = ()
    golds: int = 1
    duchy_at: int = 4
    duchy_silver_at: int = 6
    estate_at: int = 2
    penultimate: bool = False
    opening: tuple = ()         # Kingdom cards bought on turns 1-2 first (with $5+, $4, $3...)
    engine: tuple = ()          # (village, draw, payload, buy, thinner): names or ""
    counts: tuple = ()          # (most draw, most payload, most +Buy) for an engine
    green_draw: int = 4         # engine: Province once this many draw cards are owned,
    green_turn: int = 10        # ... or from this turn on
    source: str = ""            # built-in: its file's text
    name: str = ""

    @property
    def label(self) -> str:
        """A short readable name, unique to the plan (tables, the plot, the file's name)."""
        if self.kind == BUILT_IN:
            return self.name
        if self.kind == ENGINE:
            village, draw, payload, buy, thinner = self.engine
            most_draw, most_payload, most_buy = self.counts
            base = ("engine: " + "/".join(p for p in (thinner, village, draw, payload, buy) if p)
                    + f" ({most_draw} {draw}, {most_payload} {payload or 'payload'}, "
                    f"{most_buy} {buy or '+Buy'}; green at {self.green_draw} or turn "
                    f"{self.green_turn})")
        elif self.kind == RUSH:
            base = "rush: " + "/".join(f"{w.card} x{w.copies}" if w.copies < 99 else w.card
                                       for w in self.wants)
        else:
            opening = "".join(f"open {card}, " for card in self.opening)
            base = "BMU" + "".join(
                f" + {w.card} x{w.copies}" + ("" if w.over == "Gold" else " over Silver")
                for w in self.wants) + (f" ({opening.rstrip(', ')})" if opening else "")
        default = _DEFAULT_GREENING.get(self.kind, {})
        notes = [f"{text}{'on' if getattr(self, key) is True else getattr(self, key)}"
                 for key, text in _GREENING_NOTES
                 if key in default and getattr(self, key) != default[key]]
        return base + (f" [{', '.join(notes)}]" if notes else "")

    def toml(self, description: str = "") -> str:
        """The plan as a strategy file (docs/bots.md)."""
        if self.kind == BUILT_IN:
            return self.source
        rules = _rules(self)
        plays = _play_order(self)
        out = [f"name = {_quote(self.label)}",
               f"description = {_quote(description or _describe(self))}"]
        if plays:
            out.append("play = [" + ", ".join(_quote(p) for p in plays) + "]")
        for card, when in rules:
            out.append("")
            out.append("[[buy]]")
            out.append(f"card = {_quote(card)}")
            if len(when) == 1:
                out.append(f"when = {_quote(when[0])}")
            elif when:
                out.append("when = [" + ", ".join(_quote(w) for w in when) + "]")
        return "\n".join(out) + "\n"

    def strategy(self) -> Strategy:
        return _parse(self.toml())


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@lru_cache(maxsize=4096)
def _parse(text: str) -> Strategy:
    return parse_strategy(text)


def _describe(plan: Plan) -> str:
    green = (f"Province once it owns {plan.green_draw} draw cards" if plan.kind == ENGINE
             else f"Province once it owns {plan.golds} Gold" + ("s" if plan.golds != 1 else "")
             if plan.golds else "Province at $8")
    return (f"{plan.label}; {green}, Duchy at {plan.duchy_at} Provinces left, Estate at "
            f"{plan.estate_at} (found by dominion plan)")


def _greening(plan: Plan, province_when: tuple) -> list:
    """The Victory rules that lead every plan: Province (after the penultimate-Province
    check), then Duchy and Estate by the Provinces left."""
    rules: list = []
    if plan.penultimate:
        # The penultimate Province only when the last one does not then win the game for the
        # next player (with it, the lead is vp_lead + 6; after theirs, -vp_lead); the last
        # Province only when it wins.
        rules.append(("Province", province_when + ("provinces_left >= 3",)))
        rules.append(("Province", ("provinces_left <= 1", "vp_lead >= -5")))
        rules.append(("Province", ("provinces_left == 2", "vp_lead >= 0")))
        rules.append(("Duchy", ("provinces_left == 2",)))
    else:
        rules.append(("Province", province_when))
    rules.append(("Duchy", (f"provinces_left <= {plan.duchy_at}",)))
    rules.append(("Estate", (f"provinces_left <= {plan.estate_at}",)))
    return rules


def _want_rule(w: Want) -> tuple:
    return (w.card, (f"count({w.card}) < {w.copies}",) + tuple(w.when))


def _rules(plan: Plan) -> list:
    """(card, conditions) buy rules, best first."""
    if plan.kind == RUSH:
        # The classic rush (bench/strategies/workshop-gardens.toml): gainers first (they gain
        # gainers), the Victory card once there are enough of them, then Estates; every buy
        # adds a card, so that the game ends on three piles before Big Money has its Provinces.
        gainer, vp = plan.wants[0], plan.wants[1]
        return [("Province", ()),
                (vp.card, (f"count({gainer.card}) >= {gainer.copies}",)),
                ("Duchy", (f"supply({vp.card}) < 1",)),
                (gainer.card, ()),
                (vp.card, ()),
                ("Estate", (f"supply({vp.card}) <= {plan.estate_at}",)),
                ("Silver", ("count(Silver) < 1",)),
                ("Copper", ())]
    opening = [(card, ("turn <= 2", f"count({card}) < 1", _opening_coins(card)))
               for card in plan.opening]
    if plan.kind == ENGINE:
        village, draw, payload, buy, thinner = plan.engine
        most_draw, most_payload, most_buy = plan.counts
        rules = _greening(plan, (f"count({draw}) >= {plan.green_draw}",))
        # A half-built engine greens too, from turn green_turn on, and late in the game.
        rules.insert(1, ("Province", (f"turn >= {plan.green_turn}",)))
        rules.append(("Province", (f"provinces_left <= {plan.duchy_at}",)))
        rules += opening
        if thinner:
            rules.append((thinner, (f"count({thinner}) < 1", "turn <= 4",
                                    _opening_coins(thinner))))
        if payload and CARDS[payload].is_attack:
            rules.append((payload, (f"count({payload}) < {most_payload}",)))
        rules.append(("Gold", ("coins >= 6", f"count({draw}) >= 2")))
        rules.append((draw, (f"count({draw}) < {most_draw}",) +
                      ((f"count({draw}) <= count({village})",) if village else ())))
        if village:
            rules.append((village, (f"count({village}) < count({draw}) + 1",
                                    f"count({village}) < {most_draw + 1}")))
        if payload and not CARDS[payload].is_attack:
            rules.append((payload, (f"count({payload}) < {most_payload}",)))
        if buy and buy not in (village, draw, payload):
            rules.append((buy, (f"count({buy}) < {most_buy}",)))
        rules.append(("Gold", ()))
        rules.append(("Silver", ()))
        return rules
    province_when = (f"count(Gold) >= {plan.golds}",) if plan.golds else ()
    rules = _greening(plan, province_when)
    rules += opening
    rules += [_want_rule(w) for w in plan.wants if w.over == "Gold"]
    rules.append(("Gold", ()))
    rules.append(("Duchy", (f"provinces_left <= {plan.duchy_silver_at}",)))
    rules += [_want_rule(w) for w in plan.wants if w.over == "Silver"]
    rules.append(("Silver", ()))
    return rules


def _opening_coins(card: str) -> str:
    """The coins a trasher is opened with: the smaller hand of a $5/$2 split, either of $4/$3
    ($5 goes to a $5 trasher); a $5 hand spent on a $2 Chapel is a turn's buy lost."""
    return f"coins <= {max(4, CARDS[card].cost)}"


def _play_order(plan: Plan) -> list:
    """Actions to play first: villages, then non-terminal draw, then draw, then payload."""
    if plan.kind == ENGINE:
        village, draw, payload, buy, thinner = plan.engine
        order = [village, draw, buy, payload, thinner]
        return [c for c in dict.fromkeys(order) if c and CARDS[c].is_action]
    return []


def big_money_ultimate() -> Plan:
    """Big Money Ultimate as a plan (the base of every money plan; with the penultimate-Province
    rule, which the built-in file does not have)."""
    return Plan(MONEY)


def baseline() -> Plan:
    """The built-in big-money-ultimate, played as its file says: every league's first member."""
    from .. import bots
    return Plan(BUILT_IN, source=bots.strategy_text("big-money-ultimate"),
                name="big-money-ultimate")


def money_plan(*wants: Want) -> Plan:
    return Plan(MONEY, wants=tuple(wants))


def seeds(kingdom, players: int = 2, built_ins: tuple = ()) -> list:
    """The first generation: every plan the Kingdom's roles assemble (see the module's
    docstring), then ``built_ins`` ((name, file text) of the fitting built-in strategies)."""
    r = roles(kingdom)
    out: list = [big_money_ultimate()]
    for card in r.money:
        if card in r.villages and card not in r.buys and CARDS[card].plus_coins == 0:
            continue   # a village alone in Big Money plays nothing
        out.append(money_plan(Want(card, 1)))
        out.append(money_plan(Want(card, 2)))
        out.append(money_plan(Want(card, 2, "Silver")))
    # Trashing plans: a thinner opened with, then the best terminals in Big Money.
    for thinner in r.thinners:
        for card in (r.draw[:2] + r.payload[:1]):
            if card != thinner:
                out.append(replace(money_plan(Want(card, 2)), opening=(thinner,)))
    # Engines: every village with every draw card; payload an Attack if any, +Buy, thinner.
    payload = r.payload[0] if r.payload else ""
    buy = r.buys[0] if r.buys else ""
    for village in r.villages:
        for draw in r.draw[:3]:
            for thinner in ("",) + r.thinners[:1]:
                out.append(Plan(ENGINE, engine=(village, draw, payload, buy, thinner),
                                counts=(5, 2, 2), green_draw=4, golds=0))
    for draw in r.lab_draw:
        out.append(Plan(ENGINE, engine=("", draw, payload, buy, r.thinners[0]
                                        if r.thinners else ""),
                        counts=(8, 2, 2), green_draw=5, golds=0))
    # Rushes: a gainer with Gardens; Duke over Gold late.
    for vp in r.rush_vp:
        if vp == "Gardens":
            for gainer in r.gainers:
                for copies in (5, 7):
                    out.append(Plan(RUSH, wants=(Want(gainer, copies), Want(vp, 99)),
                                    estate_at=4))
        else:
            out.append(money_plan(Want(vp, 8, "Gold", ("provinces_left <= 5",))))
    for name, text in built_ins:
        out.append(Plan(BUILT_IN, source=text, name=name))
    return list(dict.fromkeys(out))


def mutations(plan: Plan, kingdom, rng) -> list:
    """Plans one step from ``plan``: copies, timing, greening, a second card, the opening
    (``rng``: a `random.Random`; the list is in a fixed order for a given state of it)."""
    r = roles(kingdom)
    out: list = []
    if plan.kind == BUILT_IN:
        return out
    said = _DEFAULT_GREENING[plan.kind]   # the greening this kind of plan writes
    for key, low, high in (("golds", 0, 3), ("duchy_at", 2, 6), ("duchy_silver_at", 3, 8),
                           ("estate_at", 1, 5)):
        if key in said:
            value = getattr(plan, key)
            out += [replace(plan, **{key: v}) for v in (value - 1, value + 1) if low <= v <= high]
    if "penultimate" in said:
        out.append(replace(plan, penultimate=not plan.penultimate))
    if plan.kind == MONEY:
        for i, w in enumerate(plan.wants):
            for copies in (w.copies - 1, w.copies + 1):
                if 1 <= copies <= 4:
                    out.append(replace(plan, wants=plan.wants[:i] + (replace(w, copies=copies),)
                                       + plan.wants[i + 1:]))
            other = "Silver" if w.over == "Gold" else "Gold"
            out.append(replace(plan, wants=plan.wants[:i] + (replace(w, over=other),)
                               + plan.wants[i + 1:]))
            if len(plan.wants) > 1:
                out.append(replace(plan, wants=plan.wants[:i] + plan.wants[i + 1:]))
        if len(plan.wants) < 2:
            owned = {w.card for w in plan.wants}
            for card in r.money:
                if card not in owned:
                    out.append(replace(plan, wants=plan.wants + (Want(card, 1, "Silver"),)))
        for card in r.thinners:
            if card not in plan.opening:
                out.append(replace(plan, opening=(card,)))
        if plan.opening:
            out.append(replace(plan, opening=()))
    elif plan.kind == ENGINE:
        most_draw, most_payload, most_buy = plan.counts
        for counts in ((most_draw - 1, most_payload, most_buy),
                       (most_draw + 1, most_payload, most_buy),
                       (most_draw, most_payload - 1, most_buy),
                       (most_draw, most_payload + 1, most_buy),
                       (most_draw, most_payload, most_buy + 1)):
            if min(counts) >= 1 and max(counts) <= 10:
                out.append(replace(plan, counts=counts))
        out.append(replace(plan, green_draw=max(1, plan.green_draw - 1)))
        out.append(replace(plan, green_draw=plan.green_draw + 1))
        out.append(replace(plan, green_turn=max(4, plan.green_turn - 2)))
        out.append(replace(plan, green_turn=plan.green_turn + 2))
    elif plan.kind == RUSH:
        gainer, vp = plan.wants
        for copies in (gainer.copies - 1, gainer.copies + 1):
            if copies >= 2:
                out.append(replace(plan, wants=(replace(gainer, copies=copies), vp)))
    rng.shuffle(out)
    return list(dict.fromkeys(p for p in out if p != plan))


# ---------------------------------------------------------------------------------------------
# Playing matches
# ---------------------------------------------------------------------------------------------

def match_shares(kingdom: tuple, players: int, mine: str, theirs: str, seed: int, start: int,
                 stop: int) -> list:
    """The win shares of the strategy ``mine`` (a strategy file's text) in games ``start`` to
    ``stop`` against ``theirs`` in every other seat. Game ``i`` has the seed of pair ``i //
    players`` and puts ``mine`` in seat ``i % players``: every strategy scored with the same
    ``seed`` meets the same shuffles from every seat (common random numbers)."""
    kingdom = tuple(kingdom)
    me, them = _parse(mine), _parse(theirs)
    shares = []
    for i in range(start, stop):
        game = _mix(_mix(seed) ^ (i // players))
        seat = i % players
        shares.append(game_share(kingdom, players, me, them, game, seat))
    return shares


def game_share(kingdom: tuple, players: int, mine: Strategy, theirs: Strategy, seed: int,
               seat: int) -> float:
    """``mine``'s share of the win in one game from ``seat`` (a shared win: 1/k; a game that
    does not end within `MAX_PLAN_DECISIONS`: an equal share)."""
    from .playout import play_out
    state = new_game(players=players, kingdom=list(kingdom), seed=seed, first_player=0)
    bots = [StrategyBot(mine if s == seat else theirs, _mix(seed ^ (s + 1)))
            for s in range(players)]
    state, pending = play_out(state, bots, [True] * players, step, MAX_PLAN_DECISIONS)
    if pending is not None:
        return 1.0 / players
    won = winners(state)
    return 1.0 / len(won) if seat in won else 0.0


class InlineExecutor:
    """Runs each submitted call at once (one worker): the same interface as a pool."""

    def submit(self, fn, *args):
        return _Done(fn(*args))


class _Done:
    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value


@dataclass
class Scores:
    """Win shares of plans against league members, as games are added."""
    totals: dict = field(default_factory=dict)   # (plan index, member index) -> [sum, games]

    def add(self, i: int, j: int, shares: list) -> None:
        entry = self.totals.setdefault((i, j), [0.0, 0])
        entry[0] += sum(shares)
        entry[1] += len(shares)

    def share(self, i: int, j: int) -> float:
        total, games = self.totals.get((i, j), (0.0, 0))
        return total / games if games else 0.0

    def games(self, i: int, j: int) -> int:
        return self.totals.get((i, j), (0.0, 0))[1]


@dataclass(frozen=True)
class Entry:
    """A plan's result against a league: the mixture (mean win share), each matchup, games."""
    plan: Plan
    mixture: float
    matchups: tuple      # win share against each league member, in league order
    games: int

    @property
    def worst(self) -> float:
        return min(self.matchups) if self.matchups else 0.0


@dataclass(frozen=True)
class PlanResult:
    """What `plan_kingdom` found: the plan, the finalists' table against the final league,
    the leader's mixture by generation, and the games played."""
    kingdom: tuple
    players: int
    plan: Plan
    finalists: tuple          # Entries, best first
    league: tuple             # the final league's labels
    history: tuple            # (generation, leader's label, its mixture against that league)
    games: int
    budget: int
    seed: int
    best_single: Optional[Plan] = None   # the best Big Money Ultimate + one card

    def to_data(self) -> dict:
        """The result as JSON-able data (the plan cache keeps it): the plan's file, the
        finalists' table, the league and the history."""
        return {"planner": PLANNER_VERSION, "kingdom": list(self.kingdom),
                "players": self.players, "budget": self.budget, "seed": self.seed,
                "games": self.games, "plan": self.toml(), "label": self.plan.label,
                "best_single": None if self.best_single is None else self.best_single.toml(),
                "best_single_label": None if self.best_single is None else
                self.best_single.label,
                "league": list(self.league),
                "finalists": [{"label": e.plan.label, "mixture": e.mixture,
                               "worst": e.worst, "matchups": list(e.matchups),
                               "games": e.games} for e in self.finalists],
                "history": [list(h) for h in self.history]}

    def toml(self) -> str:
        """The winning plan as a strategy file, with how it was found as comments."""
        best = self.finalists[0]
        head = [f"# Planned by `dominion plan` (planner {PLANNER_VERSION}) for "
                f"{', '.join(self.kingdom)}; {self.players} players, budget {self.budget} "
                f"games, seed {self.seed}.",
                f"# Win share {best.mixture:.1%} against the league ("
                + ", ".join(f"{name} {share:.0%}" for name, share in
                            zip(self.league, best.matchups)) + f"), worst {best.worst:.1%},",
                f"# over {best.games} games on fresh seeds."]
        return "\n".join(head) + "\n" + self.plan.toml()


class Planner:
    """One planning run (`plan_kingdom`); keeps the count of games for the budget."""

    def __init__(self, kingdom, players: int, budget: int, seed: int, executor,
                 progress: Optional[Callable] = None, built_ins: tuple = (),
                 chunk: int = 16):
        self.kingdom = tuple(kingdom)
        self.players = players
        self.budget = budget
        self.seed = seed
        self.executor = executor if executor is not None else InlineExecutor()
        self.progress = progress
        self.built_ins = built_ins
        self.chunk = chunk
        self.played = 0
        self.history: list = []

    def _report(self, stage: str) -> None:
        if self.progress is not None:
            self.progress(min(self.played, self.budget), self.budget, stage)

    def play(self, plans: list, league: list, games: int, seed: int,
             scores: Scores, plan_ids: list) -> None:
        """Each plan plays ``games`` more games (rounded up to whole seat rotations) against each
        league member, continuing the seeds it has played (common random numbers)."""
        n = self.players
        games = max(n, -(-games // n) * n)
        futures = []
        for i, plan in zip(plan_ids, plans):
            mine = plan.toml()
            for j, member in enumerate(league):
                start = scores.games(i, j)
                for lo in range(start, start + games, self.chunk):
                    hi = min(start + games, lo + self.chunk)
                    futures.append((i, j, self.executor.submit(
                        match_shares, self.kingdom, n, mine, member.toml(), seed, lo, hi)))
        for i, j, future in futures:
            shares = future.result()
            scores.add(i, j, shares)
            self.played += len(shares)
            self._report("searching")

    def halve(self, plans: list, league: list, seed: int, first: int, keep: int,
              spend: int) -> list:
        """Successive halving of ``plans`` against ``league`` on ``seed``: rounds of games,
        the better half going on with twice the games, until ``keep`` are left or the next
        round would pass ``spend`` games; the Entries of the survivors, best first."""
        scores = Scores()
        alive = list(range(len(plans)))
        games = first
        start = self.played
        while True:
            self.play([plans[i] for i in alive], league, games, seed, scores, alive)
            ranked = sorted(alive, key=lambda i: (-self._mixture(scores, i, league), i))
            half = _with_each_kind(ranked, max(keep, (len(ranked) + 1) // 2), plans)
            next_round = len(half) * len(league) * games * 2
            if len(ranked) <= keep or self.played - start + next_round > spend:
                alive = _with_each_kind(ranked, keep, plans)
                break
            alive = half
            games *= 2
        return [self._entry(plans[i], scores, i, league) for i in alive]

    def _mixture(self, scores: Scores, i: int, league: list) -> float:
        return sum(scores.share(i, j) for j in range(len(league))) / len(league)

    def _entry(self, plan: Plan, scores: Scores, i: int, league: list) -> Entry:
        matchups = tuple(scores.share(i, j) for j in range(len(league)))
        return Entry(plan, sum(matchups) / len(matchups), matchups,
                     sum(scores.games(i, j) for j in range(len(league))))

    def run(self) -> PlanResult:
        import random
        rng = random.Random(self.seed)
        first = seeds(self.kingdom, self.players, self.built_ins)
        league = _first_league(first)
        search_budget = self.budget - int(self.budget * FINAL_SHARE)
        gen_seed = _mix(self.seed ^ 0x5EED)
        best_single = self._best_single(first, league, gen_seed, self.budget // 6)
        leaders = self.halve(first, league, gen_seed, FIRST_GAMES, LEADERS,
                             search_budget // 2 - self.played)
        self.history.append((0, leaders[0].plan.label, leaders[0].mixture))
        # Each generation's leader stays a finalist: a generation's first round is a few games
        # against each league member, where a good plan can fall behind by chance and be lost.
        hall = [leaders[0].plan]
        # The league: the best of every kind of plan too (Provincial's diverse leaders), so that
        # a money plan that loses to the Kingdom's rush or engine is not taken for the best.
        best_of_kind = [next(e.plan for e in leaders if e.plan.kind == kind)
                        for kind in (ENGINE, RUSH) if any(e.plan.kind == kind for e in leaders)]
        league = self._league(league, [best_single, leaders[0].plan] + best_of_kind)
        generation = 0
        while True:
            generation += 1
            gen_seed = _mix(gen_seed + generation)
            children: list = []
            for entry in leaders:
                children += mutations(entry.plan, self.kingdom, rng)[:CHILDREN // len(leaders)]
            pool = list(dict.fromkeys([e.plan for e in leaders] + children))
            remaining = search_budget - self.played
            if remaining < 2 * len(pool) * len(league) * FIRST_GAMES:
                break
            leaders = self.halve(pool, league, gen_seed, FIRST_GAMES, LEADERS, remaining)
            self.history.append((generation, leaders[0].plan.label, leaders[0].mixture))
            hall.append(leaders[0].plan)
            league = self._league(league, [leaders[0].plan])
        earlier = list(dict.fromkeys(reversed(hall)))[:HALL]
        finalists = list(dict.fromkeys([e.plan for e in leaders] + earlier + [best_single]))
        fresh = _mix(self.seed ^ 0xF1A1)
        per_member = (self.budget - self.played) // (len(finalists) * len(league))
        per_member = max(self.players, per_member // self.players * self.players)
        scores = Scores()
        self.play(finalists, league, per_member, fresh, scores, list(range(len(finalists))))
        table = sorted((self._entry(p, scores, i, league) for i, p in enumerate(finalists)),
                       key=lambda e: (-e.mixture, -e.worst, e.plan.label))
        self._report("done")
        return PlanResult(self.kingdom, self.players, table[0].plan, tuple(table),
                          tuple(m.label for m in league), tuple(self.history), self.played,
                          self.budget, self.seed, best_single)

    def _best_single(self, first: list, league: list, seed: int, spend: int) -> Plan:
        """The best Big Money Ultimate + one card (one copy or two) among the seeds ``first``,
        found by its own halving against ``league`` in about ``spend`` games (the agent
        table's "BMU + the Kingdom's best card")."""
        singles = [p for p in first if p.kind == MONEY and len(p.wants) == 1
                   and not p.opening] or [big_money_ultimate()]
        return self.halve(singles, league, _mix(seed ^ 0x51), FIRST_GAMES, 1, spend)[0].plan

    def _league(self, league: list, new: list) -> list:
        """The league with ``new`` members added. A new member takes the place of one of the
        same family (the same Kingdom cards bought: a variant of a plan already there), so the
        league stays diverse; when it is full, the oldest plan that is not a built-in goes."""
        out = list(league)
        for plan in new:
            if plan in out:
                continue
            same = [i for i, p in enumerate(out) if p.kind != BUILT_IN and
                    _family(p) == _family(plan)]
            if same:
                out[same[0]] = plan
            else:
                out.append(plan)
        while len(out) > LEAGUE_SIZE:
            drop = next((i for i, p in enumerate(out) if p.kind != BUILT_IN), 0)
            out.pop(drop)
        return out


def _first_league(first: list) -> list:
    """The league a search starts with: the built-ins among the seeds ``first`` and
    big-money-ultimate."""
    league = [p for p in first if p.kind == BUILT_IN] + [baseline()]
    return list(dict.fromkeys(league))[-LEAGUE_SIZE:]


def _with_each_kind(ranked: list, k: int, plans: list) -> list:
    """The first ``k`` of ``ranked`` (plan indices, best first), and the best of each kind of
    plan (money, engine, rush, built-in) that is not among them: a rush or an engine that a
    few noisy games put behind goes on to be played more (every kind is a different bet)."""
    kept = ranked[:k]
    kinds = {plans[i].kind for i in kept}
    for i in ranked[k:]:
        if plans[i].kind not in kinds:
            kinds.add(plans[i].kind)
            kept.append(i)
    return kept


def _family(plan: Plan) -> tuple:
    """What kind of plan it is and which Kingdom cards it buys."""
    cards = {w.card for w in plan.wants} | set(plan.opening) | {c for c in plan.engine if c}
    return (plan.kind, tuple(sorted(cards)))


def best_single(kingdom, players: int = 2, budget: int = 3000, seed: int = 0, executor=None,
                built_ins: tuple = ()) -> Plan:
    """The best Big Money Ultimate + one Kingdom card (one copy over Gold, two over Gold or two
    over Silver) for ``kingdom``, by successive halving against the fitting built-ins
    (``built_ins``) and big-money-ultimate, in about ``budget`` games: "Big Money + the
    Kingdom's best card", the opponent the published agents are measured against."""
    planner = Planner(kingdom, players, budget, seed, executor, None, built_ins)
    first = seeds(planner.kingdom, players, built_ins)
    return planner._best_single(first, _first_league(first), seed, budget)


def plan_kingdom(kingdom, players: int = 2, budget: int = DEFAULT_BUDGET, seed: int = 0,
                 executor=None, progress: Optional[Callable] = None,
                 built_ins: tuple = ()) -> PlanResult:
    """A strong plan for ``kingdom`` (10 Kingdom card names) at ``players`` players, found with
    ``budget`` games (see the module's docstring). ``executor``: where the games run (default:
    here, one at a time); ``progress(done, budget, stage)`` is called as games finish;
    ``built_ins``: (name, strategy file text) of the built-in strategies that fit the Kingdom
    (`dominion.bots.fitting_strategies`)."""
    if not 2 <= players <= 6:
        raise ValueError(f"a plan is for 2 to 6 players, not {players}")
    if budget < MIN_BUDGET:
        raise ValueError(f"the budget must be at least {MIN_BUDGET} games, not {budget}")
    return Planner(kingdom, players, budget, seed, executor, progress, built_ins).run()


# ---------------------------------------------------------------------------------------------
# Plans for the search bot
# ---------------------------------------------------------------------------------------------

_MEMO: dict = {}   # (Kingdom sorted, players, budget, seed) -> the plan's file text


def planned(kingdom, players: int, budget: int = DEFAULT_BUDGET, seed: int = 0,
            progress: Optional[Callable] = None) -> str:
    """The plan's strategy file text for ``kingdom`` (`plan_kingdom` here, one game at a time),
    memoized for the process: a pure function of its arguments, so a plan made elsewhere with
    the same arguments (a cache on disk, several workers) is the same (`remember_plan`).
    ``progress(done, budget, stage)`` is called as the planning games finish (never when the
    plan is known already); it only watches, so the plan does not depend on it."""
    key = (tuple(sorted(kingdom)), players, budget, seed)
    text = _MEMO.get(key)
    if text is None:
        from . import fitting_strategies
        text = _MEMO[key] = plan_kingdom(tuple(kingdom), players, budget, seed,
                                         progress=progress,
                                         built_ins=fitting_strategies(kingdom)).toml()
    return text


def remember_plan(kingdom, players: int, budget: int, seed: int, text: str) -> None:
    """Give `planned` the plan made elsewhere for the same arguments (``dominion play`` plans
    on every core, or reads its cache, before the game's search bots ask)."""
    _MEMO[(tuple(sorted(kingdom)), players, budget, seed)] = text


def opponent_model(kingdom, owned: dict, fallback: str) -> str:
    """A strategy file text for another seat, from what it has shown: Big Money Ultimate with the
    Kingdom cards it owns, one more copy of each (the two it owns most of; a terminal over Gold,
    the rest over Silver). ``owned``: its counts (name -> copies); ``fallback``: the text for a
    seat that has shown no Kingdom card yet."""
    shown = sorted(((k, name) for name, k in owned.items()
                    if k > 0 and name in kingdom and (CARDS[name].is_action or
                                                      CARDS[name].is_treasure)),
                   key=lambda item: (-item[0], item[1]))[:2]
    if not shown:
        return fallback
    wants = []
    for k, name in shown:
        card = CARDS[name]
        terminal = card.is_action and card.plus_actions == 0
        wants.append(Want(name, min(k + 1, 6), "Gold" if terminal else "Silver"))
    return _model_text(tuple(wants))


@lru_cache(maxsize=1024)
def _model_text(wants: tuple) -> str:
    return money_plan(*wants).toml()
