from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Verb(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERB_UNSPECIFIED: _ClassVar[Verb]
    VERB_PLAY: _ClassVar[Verb]
    VERB_PLAY_TREASURES: _ClassVar[Verb]
    VERB_BUY: _ClassVar[Verb]
    VERB_END_PHASE: _ClassVar[Verb]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_ACTION: _ClassVar[Phase]
    PHASE_BUY: _ClassVar[Phase]
    PHASE_CLEANUP: _ClassVar[Phase]
    PHASE_OVER: _ClassVar[Phase]

class UndoSetting(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    UNDO_SETTING_UNSPECIFIED: _ClassVar[UndoSetting]
    UNDO_SETTING_ALLOWED: _ClassVar[UndoSetting]
    UNDO_SETTING_OFF: _ClassVar[UndoSetting]
VERB_UNSPECIFIED: Verb
VERB_PLAY: Verb
VERB_PLAY_TREASURES: Verb
VERB_BUY: Verb
VERB_END_PHASE: Verb
PHASE_UNSPECIFIED: Phase
PHASE_ACTION: Phase
PHASE_BUY: Phase
PHASE_CLEANUP: Phase
PHASE_OVER: Phase
UNDO_SETTING_UNSPECIFIED: UndoSetting
UNDO_SETTING_ALLOWED: UndoSetting
UNDO_SETTING_OFF: UndoSetting

class Card(_message.Message):
    __slots__ = ("name", "cost", "types", "set", "editions", "text", "coins", "vp", "plural")
    NAME_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    TYPES_FIELD_NUMBER: _ClassVar[int]
    SET_FIELD_NUMBER: _ClassVar[int]
    EDITIONS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    PLURAL_FIELD_NUMBER: _ClassVar[int]
    name: str
    cost: int
    types: _containers.RepeatedScalarFieldContainer[str]
    set: str
    editions: _containers.RepeatedScalarFieldContainer[str]
    text: str
    coins: int
    vp: int
    plural: str
    def __init__(self, name: _Optional[str] = ..., cost: _Optional[int] = ..., types: _Optional[_Iterable[str]] = ..., set: _Optional[str] = ..., editions: _Optional[_Iterable[str]] = ..., text: _Optional[str] = ..., coins: _Optional[int] = ..., vp: _Optional[int] = ..., plural: _Optional[str] = ...) -> None: ...

class ListCardsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListCardsResponse(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[Card]
    def __init__(self, cards: _Optional[_Iterable[_Union[Card, _Mapping]]] = ...) -> None: ...

class Kingdom(_message.Message):
    __slots__ = ("name", "sets", "cards")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    name: str
    sets: _containers.RepeatedScalarFieldContainer[str]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., sets: _Optional[_Iterable[str]] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class ListKingdomsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListKingdomsResponse(_message.Message):
    __slots__ = ("kingdoms",)
    KINGDOMS_FIELD_NUMBER: _ClassVar[int]
    kingdoms: _containers.RepeatedCompositeFieldContainer[Kingdom]
    def __init__(self, kingdoms: _Optional[_Iterable[_Union[Kingdom, _Mapping]]] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("bots", "descriptions")
    BOTS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTIONS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedScalarFieldContainer[str]
    descriptions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, bots: _Optional[_Iterable[str]] = ..., descriptions: _Optional[_Iterable[str]] = ...) -> None: ...

class SeatSpec(_message.Message):
    __slots__ = ("name", "bot", "open")
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    bot: str
    open: bool
    def __init__(self, name: _Optional[str] = ..., bot: _Optional[str] = ..., open: _Optional[bool] = ...) -> None: ...

class KingdomCards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class RandomKingdom(_message.Message):
    __slots__ = ("sets",)
    SETS_FIELD_NUMBER: _ClassVar[int]
    sets: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, sets: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateGameRequest(_message.Message):
    __slots__ = ("seats", "preset", "cards", "random", "seed", "first_player", "always_ask", "undo")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    PRESET_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    RANDOM_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    ALWAYS_ASK_FIELD_NUMBER: _ClassVar[int]
    UNDO_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedCompositeFieldContainer[SeatSpec]
    preset: str
    cards: KingdomCards
    random: RandomKingdom
    seed: int
    first_player: int
    always_ask: bool
    undo: UndoSetting
    def __init__(self, seats: _Optional[_Iterable[_Union[SeatSpec, _Mapping]]] = ..., preset: _Optional[str] = ..., cards: _Optional[_Union[KingdomCards, _Mapping]] = ..., random: _Optional[_Union[RandomKingdom, _Mapping]] = ..., seed: _Optional[int] = ..., first_player: _Optional[int] = ..., always_ask: _Optional[bool] = ..., undo: _Optional[_Union[UndoSetting, str]] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("seat", "name", "bot", "token", "open")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    bot: str
    token: str
    open: bool
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., bot: _Optional[str] = ..., token: _Optional[str] = ..., open: _Optional[bool] = ...) -> None: ...

class CreateGameResponse(_message.Message):
    __slots__ = ("game_id", "seats", "kingdom", "first_player", "always_ask", "undo_allowed")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    KINGDOM_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    ALWAYS_ASK_FIELD_NUMBER: _ClassVar[int]
    UNDO_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatToken]
    kingdom: _containers.RepeatedScalarFieldContainer[str]
    first_player: int
    always_ask: bool
    undo_allowed: bool
    def __init__(self, game_id: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatToken, _Mapping]]] = ..., kingdom: _Optional[_Iterable[str]] = ..., first_player: _Optional[int] = ..., always_ask: _Optional[bool] = ..., undo_allowed: _Optional[bool] = ...) -> None: ...

class GameSummary(_message.Message):
    __slots__ = ("game_id", "players", "bots", "kingdom", "game_over", "turn", "sequence", "waiting_for", "created", "abandoned", "open_seats")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    KINGDOM_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    WAITING_FOR_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ABANDONED_FIELD_NUMBER: _ClassVar[int]
    OPEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    players: _containers.RepeatedScalarFieldContainer[str]
    bots: _containers.RepeatedScalarFieldContainer[str]
    kingdom: _containers.RepeatedScalarFieldContainer[str]
    game_over: bool
    turn: int
    sequence: int
    waiting_for: int
    created: float
    abandoned: bool
    open_seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, game_id: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., bots: _Optional[_Iterable[str]] = ..., kingdom: _Optional[_Iterable[str]] = ..., game_over: _Optional[bool] = ..., turn: _Optional[int] = ..., sequence: _Optional[int] = ..., waiting_for: _Optional[int] = ..., created: _Optional[float] = ..., abandoned: _Optional[bool] = ..., open_seats: _Optional[_Iterable[int]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("include_finished", "page_size", "page_token", "player", "bot", "waiting_for_client")
    INCLUDE_FINISHED_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    WAITING_FOR_CLIENT_FIELD_NUMBER: _ClassVar[int]
    include_finished: bool
    page_size: int
    page_token: str
    player: str
    bot: str
    waiting_for_client: bool
    def __init__(self, include_finished: _Optional[bool] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., player: _Optional[str] = ..., bot: _Optional[str] = ..., waiting_for_client: _Optional[bool] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameSummary]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[GameSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("verb", "card")
    VERB_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    verb: Verb
    card: str
    def __init__(self, verb: _Optional[_Union[Verb, str]] = ..., card: _Optional[str] = ...) -> None: ...

class TurnDecision(_message.Message):
    __slots__ = ("moves",)
    MOVES_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    def __init__(self, moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ...) -> None: ...

class SelectDecision(_message.Message):
    __slots__ = ("cards", "min", "max")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    min: int
    max: int
    def __init__(self, cards: _Optional[_Iterable[str]] = ..., min: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class ChooseDecision(_message.Message):
    __slots__ = ("options", "min", "max")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    options: _containers.RepeatedScalarFieldContainer[str]
    min: int
    max: int
    def __init__(self, options: _Optional[_Iterable[str]] = ..., min: _Optional[int] = ..., max: _Optional[int] = ...) -> None: ...

class OrderDecision(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("sequence", "player", "prompt", "card", "purpose", "about_cards", "about_player", "turn", "select", "choose", "order")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    ABOUT_CARDS_FIELD_NUMBER: _ClassVar[int]
    ABOUT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    SELECT_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    player: int
    prompt: str
    card: str
    purpose: str
    about_cards: _containers.RepeatedScalarFieldContainer[str]
    about_player: int
    turn: TurnDecision
    select: SelectDecision
    choose: ChooseDecision
    order: OrderDecision
    def __init__(self, sequence: _Optional[int] = ..., player: _Optional[int] = ..., prompt: _Optional[str] = ..., card: _Optional[str] = ..., purpose: _Optional[str] = ..., about_cards: _Optional[_Iterable[str]] = ..., about_player: _Optional[int] = ..., turn: _Optional[_Union[TurnDecision, _Mapping]] = ..., select: _Optional[_Union[SelectDecision, _Mapping]] = ..., choose: _Optional[_Union[ChooseDecision, _Mapping]] = ..., order: _Optional[_Union[OrderDecision, _Mapping]] = ...) -> None: ...

class CardList(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class OptionList(_message.Message):
    __slots__ = ("options",)
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    options: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, options: _Optional[_Iterable[str]] = ...) -> None: ...

class Answer(_message.Message):
    __slots__ = ("sequence", "move", "cards", "options", "order", "take_back", "resign")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    TAKE_BACK_FIELD_NUMBER: _ClassVar[int]
    RESIGN_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    move: Move
    cards: CardList
    options: OptionList
    order: CardList
    take_back: TakeBack
    resign: Resign
    def __init__(self, sequence: _Optional[int] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., cards: _Optional[_Union[CardList, _Mapping]] = ..., options: _Optional[_Union[OptionList, _Mapping]] = ..., order: _Optional[_Union[CardList, _Mapping]] = ..., take_back: _Optional[_Union[TakeBack, _Mapping]] = ..., resign: _Optional[_Union[Resign, _Mapping]] = ...) -> None: ...

class SubmitAnswerRequest(_message.Message):
    __slots__ = ("game_id", "answer")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    answer: Answer
    def __init__(self, game_id: _Optional[str] = ..., answer: _Optional[_Union[Answer, _Mapping]] = ...) -> None: ...

class SubmitAnswerResponse(_message.Message):
    __slots__ = ("sequence", "game_over")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    game_over: bool
    def __init__(self, sequence: _Optional[int] = ..., game_over: _Optional[bool] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("index", "kind", "player", "cards", "hidden_count", "detail", "text")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    index: int
    kind: str
    player: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    hidden_count: int
    detail: str
    text: str
    def __init__(self, index: _Optional[int] = ..., kind: _Optional[str] = ..., player: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., hidden_count: _Optional[int] = ..., detail: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class PublicDecision(_message.Message):
    __slots__ = ("player", "kind", "card", "purpose", "min", "max", "text", "planning_percent")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    PLANNING_PERCENT_FIELD_NUMBER: _ClassVar[int]
    player: int
    kind: str
    card: str
    purpose: str
    min: int
    max: int
    text: str
    planning_percent: int
    def __init__(self, player: _Optional[int] = ..., kind: _Optional[str] = ..., card: _Optional[str] = ..., purpose: _Optional[str] = ..., min: _Optional[int] = ..., max: _Optional[int] = ..., text: _Optional[str] = ..., planning_percent: _Optional[int] = ...) -> None: ...

class SupplyPile(_message.Message):
    __slots__ = ("name", "count", "cost")
    NAME_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    name: str
    count: int
    cost: int
    def __init__(self, name: _Optional[str] = ..., count: _Optional[int] = ..., cost: _Optional[int] = ...) -> None: ...

class PlayerView(_message.Message):
    __slots__ = ("seat", "name", "bot", "hand_visible", "hand", "hand_size", "deck_size", "discard_size", "discard_top", "in_play", "aside", "looking", "looking_size", "turns_taken", "vp")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    HAND_VISIBLE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_TOP_FIELD_NUMBER: _ClassVar[int]
    IN_PLAY_FIELD_NUMBER: _ClassVar[int]
    ASIDE_FIELD_NUMBER: _ClassVar[int]
    LOOKING_FIELD_NUMBER: _ClassVar[int]
    LOOKING_SIZE_FIELD_NUMBER: _ClassVar[int]
    TURNS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    bot: str
    hand_visible: bool
    hand: _containers.RepeatedScalarFieldContainer[str]
    hand_size: int
    deck_size: int
    discard_size: int
    discard_top: str
    in_play: _containers.RepeatedScalarFieldContainer[str]
    aside: _containers.RepeatedScalarFieldContainer[str]
    looking: _containers.RepeatedScalarFieldContainer[str]
    looking_size: int
    turns_taken: int
    vp: int
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., bot: _Optional[str] = ..., hand_visible: _Optional[bool] = ..., hand: _Optional[_Iterable[str]] = ..., hand_size: _Optional[int] = ..., deck_size: _Optional[int] = ..., discard_size: _Optional[int] = ..., discard_top: _Optional[str] = ..., in_play: _Optional[_Iterable[str]] = ..., aside: _Optional[_Iterable[str]] = ..., looking: _Optional[_Iterable[str]] = ..., looking_size: _Optional[int] = ..., turns_taken: _Optional[int] = ..., vp: _Optional[int] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("game_id", "viewer", "kingdom", "supply", "trash", "players", "current", "phase", "turn", "actions", "buys", "coins", "sequence", "waiting_for", "decision", "log", "game_over", "scores", "winners", "waiting", "can_undo")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    KINGDOM_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    TRASH_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    BUYS_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    WAITING_FOR_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    LOG_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    CAN_UNDO_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    viewer: int
    kingdom: _containers.RepeatedScalarFieldContainer[str]
    supply: _containers.RepeatedCompositeFieldContainer[SupplyPile]
    trash: _containers.RepeatedScalarFieldContainer[str]
    players: _containers.RepeatedCompositeFieldContainer[PlayerView]
    current: int
    phase: Phase
    turn: int
    actions: int
    buys: int
    coins: int
    sequence: int
    waiting_for: int
    decision: Decision
    log: _containers.RepeatedCompositeFieldContainer[Event]
    game_over: bool
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    waiting: PublicDecision
    can_undo: bool
    def __init__(self, game_id: _Optional[str] = ..., viewer: _Optional[int] = ..., kingdom: _Optional[_Iterable[str]] = ..., supply: _Optional[_Iterable[_Union[SupplyPile, _Mapping]]] = ..., trash: _Optional[_Iterable[str]] = ..., players: _Optional[_Iterable[_Union[PlayerView, _Mapping]]] = ..., current: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., turn: _Optional[int] = ..., actions: _Optional[int] = ..., buys: _Optional[int] = ..., coins: _Optional[int] = ..., sequence: _Optional[int] = ..., waiting_for: _Optional[int] = ..., decision: _Optional[_Union[Decision, _Mapping]] = ..., log: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., game_over: _Optional[bool] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., waiting: _Optional[_Union[PublicDecision, _Mapping]] = ..., can_undo: _Optional[bool] = ...) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("game_id", "log_from", "chat_from")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    LOG_FROM_FIELD_NUMBER: _ClassVar[int]
    CHAT_FROM_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    log_from: int
    chat_from: int
    def __init__(self, game_id: _Optional[str] = ..., log_from: _Optional[int] = ..., chat_from: _Optional[int] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ("view", "chat")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    view: View
    chat: _containers.RepeatedCompositeFieldContainer[ChatLine]
    def __init__(self, view: _Optional[_Union[View, _Mapping]] = ..., chat: _Optional[_Iterable[_Union[ChatLine, _Mapping]]] = ...) -> None: ...

class StreamEventsRequest(_message.Message):
    __slots__ = ("game_id", "from_event", "from_chat")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_EVENT_FIELD_NUMBER: _ClassVar[int]
    FROM_CHAT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    from_event: int
    from_chat: int
    def __init__(self, game_id: _Optional[str] = ..., from_event: _Optional[int] = ..., from_chat: _Optional[int] = ...) -> None: ...

class YourDecision(_message.Message):
    __slots__ = ("decision", "view")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    decision: Decision
    view: View
    def __init__(self, decision: _Optional[_Union[Decision, _Mapping]] = ..., view: _Optional[_Union[View, _Mapping]] = ...) -> None: ...

class GameOver(_message.Message):
    __slots__ = ("scores", "winners")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ...) -> None: ...

class StreamEventsResponse(_message.Message):
    __slots__ = ("events", "decision", "game_over", "waiting", "chat")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    decision: YourDecision
    game_over: GameOver
    waiting: PublicDecision
    chat: _containers.RepeatedCompositeFieldContainer[ChatLine]
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., decision: _Optional[_Union[YourDecision, _Mapping]] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ..., waiting: _Optional[_Union[PublicDecision, _Mapping]] = ..., chat: _Optional[_Iterable[_Union[ChatLine, _Mapping]]] = ...) -> None: ...

class PlayStart(_message.Message):
    __slots__ = ("game_id", "from_event", "batched")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_EVENT_FIELD_NUMBER: _ClassVar[int]
    BATCHED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    from_event: int
    batched: bool
    def __init__(self, game_id: _Optional[str] = ..., from_event: _Optional[int] = ..., batched: _Optional[bool] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("start", "answer")
    START_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    start: PlayStart
    answer: Answer
    def __init__(self, start: _Optional[_Union[PlayStart, _Mapping]] = ..., answer: _Optional[_Union[Answer, _Mapping]] = ...) -> None: ...

class Refusal(_message.Message):
    __slots__ = ("sequence", "code", "message")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    code: int
    message: str
    def __init__(self, sequence: _Optional[int] = ..., code: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("events", "decision", "game_over", "waiting", "accepted", "refused")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    decision: YourDecision
    game_over: GameOver
    waiting: PublicDecision
    accepted: int
    refused: Refusal
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., decision: _Optional[_Union[YourDecision, _Mapping]] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ..., waiting: _Optional[_Union[PublicDecision, _Mapping]] = ..., accepted: _Optional[int] = ..., refused: _Optional[_Union[Refusal, _Mapping]] = ...) -> None: ...

class SeatStart(_message.Message):
    __slots__ = ("ref", "game_id", "token", "from_event", "batched")
    REF_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    FROM_EVENT_FIELD_NUMBER: _ClassVar[int]
    BATCHED_FIELD_NUMBER: _ClassVar[int]
    ref: int
    game_id: str
    token: str
    from_event: int
    batched: bool
    def __init__(self, ref: _Optional[int] = ..., game_id: _Optional[str] = ..., token: _Optional[str] = ..., from_event: _Optional[int] = ..., batched: _Optional[bool] = ...) -> None: ...

class SeatAnswer(_message.Message):
    __slots__ = ("ref", "answer")
    REF_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    ref: int
    answer: Answer
    def __init__(self, ref: _Optional[int] = ..., answer: _Optional[_Union[Answer, _Mapping]] = ...) -> None: ...

class PlaySeatsRequest(_message.Message):
    __slots__ = ("add", "answers")
    ADD_FIELD_NUMBER: _ClassVar[int]
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    add: _containers.RepeatedCompositeFieldContainer[SeatStart]
    answers: _containers.RepeatedCompositeFieldContainer[SeatAnswer]
    def __init__(self, add: _Optional[_Iterable[_Union[SeatStart, _Mapping]]] = ..., answers: _Optional[_Iterable[_Union[SeatAnswer, _Mapping]]] = ...) -> None: ...

class SeatClosed(_message.Message):
    __slots__ = ("code", "message")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class SeatUpdate(_message.Message):
    __slots__ = ("events", "decision", "game_over", "waiting", "accepted", "refused", "ref", "closed")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    REF_FIELD_NUMBER: _ClassVar[int]
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    decision: YourDecision
    game_over: GameOver
    waiting: PublicDecision
    accepted: int
    refused: Refusal
    ref: int
    closed: SeatClosed
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., decision: _Optional[_Union[YourDecision, _Mapping]] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ..., waiting: _Optional[_Union[PublicDecision, _Mapping]] = ..., accepted: _Optional[int] = ..., refused: _Optional[_Union[Refusal, _Mapping]] = ..., ref: _Optional[int] = ..., closed: _Optional[_Union[SeatClosed, _Mapping]] = ...) -> None: ...

class PlaySeatsResponse(_message.Message):
    __slots__ = ("updates",)
    UPDATES_FIELD_NUMBER: _ClassVar[int]
    updates: _containers.RepeatedCompositeFieldContainer[SeatUpdate]
    def __init__(self, updates: _Optional[_Iterable[_Union[SeatUpdate, _Mapping]]] = ...) -> None: ...

class GameConfig(_message.Message):
    __slots__ = ("players", "kingdom", "seed", "first_player", "always_ask")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    KINGDOM_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    ALWAYS_ASK_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedScalarFieldContainer[str]
    kingdom: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    first_player: int
    always_ask: bool
    def __init__(self, players: _Optional[_Iterable[str]] = ..., kingdom: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ..., first_player: _Optional[int] = ..., always_ask: _Optional[bool] = ...) -> None: ...

class RecordedAnswer(_message.Message):
    __slots__ = ("seat", "answer")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    answer: Answer
    def __init__(self, seat: _Optional[int] = ..., answer: _Optional[_Union[Answer, _Mapping]] = ...) -> None: ...

class GetRecordRequest(_message.Message):
    __slots__ = ("game_id",)
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    def __init__(self, game_id: _Optional[str] = ...) -> None: ...

class GetRecordResponse(_message.Message):
    __slots__ = ("config", "answers", "scores", "winners", "engine_version", "bots", "ended", "answer_count")
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    ENGINE_VERSION_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    ANSWER_COUNT_FIELD_NUMBER: _ClassVar[int]
    config: GameConfig
    answers: _containers.RepeatedCompositeFieldContainer[RecordedAnswer]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    engine_version: str
    bots: _containers.RepeatedScalarFieldContainer[str]
    ended: str
    answer_count: int
    def __init__(self, config: _Optional[_Union[GameConfig, _Mapping]] = ..., answers: _Optional[_Iterable[_Union[RecordedAnswer, _Mapping]]] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., engine_version: _Optional[str] = ..., bots: _Optional[_Iterable[str]] = ..., ended: _Optional[str] = ..., answer_count: _Optional[int] = ...) -> None: ...

class GetReplayRequest(_message.Message):
    __slots__ = ("game_id", "record", "seat", "step", "log_from")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    LOG_FROM_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    record: GetRecordResponse
    seat: int
    step: int
    log_from: int
    def __init__(self, game_id: _Optional[str] = ..., record: _Optional[_Union[GetRecordResponse, _Mapping]] = ..., seat: _Optional[int] = ..., step: _Optional[int] = ..., log_from: _Optional[int] = ...) -> None: ...

class CardCount(_message.Message):
    __slots__ = ("card", "count", "vp")
    CARD_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    card: str
    count: int
    vp: int
    def __init__(self, card: _Optional[str] = ..., count: _Optional[int] = ..., vp: _Optional[int] = ...) -> None: ...

class FinalDeck(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedCompositeFieldContainer[CardCount]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[CardCount, _Mapping]]] = ...) -> None: ...

class GetReplayResponse(_message.Message):
    __slots__ = ("view", "step", "steps", "next", "decks", "log_length")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    NEXT_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    LOG_LENGTH_FIELD_NUMBER: _ClassVar[int]
    view: View
    step: int
    steps: int
    next: RecordedAnswer
    decks: _containers.RepeatedCompositeFieldContainer[FinalDeck]
    log_length: int
    def __init__(self, view: _Optional[_Union[View, _Mapping]] = ..., step: _Optional[int] = ..., steps: _Optional[int] = ..., next: _Optional[_Union[RecordedAnswer, _Mapping]] = ..., decks: _Optional[_Iterable[_Union[FinalDeck, _Mapping]]] = ..., log_length: _Optional[int] = ...) -> None: ...

class TakeBack(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class UndoRequest(_message.Message):
    __slots__ = ("game_id", "sequence")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    sequence: int
    def __init__(self, game_id: _Optional[str] = ..., sequence: _Optional[int] = ...) -> None: ...

class UndoResponse(_message.Message):
    __slots__ = ("sequence",)
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    def __init__(self, sequence: _Optional[int] = ...) -> None: ...

class Resign(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class JoinGameRequest(_message.Message):
    __slots__ = ("game_id", "seat", "name")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    seat: int
    name: str
    def __init__(self, game_id: _Optional[str] = ..., seat: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...

class JoinGameResponse(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: SeatToken
    def __init__(self, seat: _Optional[_Union[SeatToken, _Mapping]] = ...) -> None: ...

class ChatLine(_message.Message):
    __slots__ = ("index", "seat", "name", "text", "time")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    index: int
    seat: int
    name: str
    text: str
    time: float
    def __init__(self, index: _Optional[int] = ..., seat: _Optional[int] = ..., name: _Optional[str] = ..., text: _Optional[str] = ..., time: _Optional[float] = ...) -> None: ...

class SendChatRequest(_message.Message):
    __slots__ = ("game_id", "text")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    text: str
    def __init__(self, game_id: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class SendChatResponse(_message.Message):
    __slots__ = ("index",)
    INDEX_FIELD_NUMBER: _ClassVar[int]
    index: int
    def __init__(self, index: _Optional[int] = ...) -> None: ...
