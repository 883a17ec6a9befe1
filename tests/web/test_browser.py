"""The web page in a real headless Chromium (Debian's package), driven by Playwright, against
the real server on free loopback ports: a person's games from the lobby to the end."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from dominion_client.client import connect
from dominion_service.local import LocalServer
from dominion_service import SqliteStorage

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# As the machine's notes advise: no sandbox as root, no background connections to the network.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage"]
SCREENSHOT = ROOT / "docs" / "web-game.png"

if not os.path.exists(CHROMIUM):
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"browser tests need Chromium at {CHROMIUM} (.ci/run installs it)")
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import expect, sync_playwright  # noqa: E402

BUY_ORDER = ("Province", "Gold", "Silver")


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def server():
    with LocalServer(SqliteStorage(":memory:"), web_port=0) as running:
        yield running


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # The page runs under the web door's Content-Security-Policy: a script or style it refuses
    # is a console error.
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "Content Security Policy" in m.text else None)
    yield page
    context.close()
    assert not errors, errors


def wait_for_question(page) -> str:
    """Wait until the page asks this seat something (or shows the end); return its kind."""
    page.wait_for_function(
        "() => { const q = document.querySelector('#question');"
        " return q && q.dataset.busy === 'false' && ['turn', 'select', 'choose', 'order', 'over']"
        ".includes(q.dataset.kind); }", timeout=20_000)
    return page.locator("#question").get_attribute("data-kind")


def click_first(page, *selectors) -> bool:
    for selector in selectors:
        button = page.locator(f"#question {selector}:not([disabled])")
        if button.count():
            button.first.click()
            return True
    return False


def answer_simply(page, kind: str, buys=BUY_ORDER) -> None:
    """Big Money by clicking: play Treasures, buy the first of ``buys`` offered, else end the
    phase; the fewest cards, the first option, the order as given."""
    if kind == "turn":
        assert click_first(page, "button.move[data-verb=PLAY_TREASURES]",
                           *(f"button.move[data-verb=BUY][data-card='{c}']" for c in buys),
                           "button.move[data-verb=END_PHASE]")
    elif kind == "select":
        pool = page.locator("#question .chip")
        need = int(re.search(r"Choose (\d+)", page.locator("#question").inner_text()).group(1))
        for i in range(need):
            pool.nth(i).click()
        page.locator("#confirm").click()
    elif kind == "choose":
        if page.locator("#question #confirm").count():   # several options: the first ones
            need = int(re.search(r"Choose (\d+)", page.locator("#question").inner_text())
                       .group(1))
            for i in range(need):
                page.locator("#question .option").nth(i).click()
            page.locator("#confirm").click()
        else:
            page.locator("#question .option").first.click()
    else:
        page.locator("#confirm").click()


def create_from_lobby(page, server, seats: int, kingdom="First Game") -> None:
    page.goto(server.web_url)
    page.locator("#seat-count").select_option(str(seats))
    for seat in range(1, seats):
        page.locator(f"#seat-{seat}").select_option("big-money")
    page.locator("#kingdom-kind").select_option("preset")
    page.locator("#kingdom-preset").select_option(kingdom)
    page.locator("#create-game").click()
    expect(page.locator("#status")).to_contain_text("You are Player 1")


def test_a_six_player_game_is_created_in_the_lobby_and_played_to_the_end_by_clicking(
        server, page):
    create_from_lobby(page, server, seats=6)
    expect(page.locator("#players tr[data-seat]")).to_have_count(6)
    expect(page.locator("#supply .pile")).to_have_count(17)   # 7 basic piles, 10 Kingdom
    answers = 0
    while (kind := wait_for_question(page)) != "over":
        answer_simply(page, kind)
        answers += 1
        assert answers < 600, "the game does not end"
        if answers == 12:   # a few turns in: the screen as the README shows it
            page.wait_for_timeout(300)
            target = SCREENSHOT if os.environ.get("DOMINION_UPDATE_SCREENSHOT") else \
                Path(os.environ.get("PYTEST_TMP", "/tmp")) / "web-game.png"
            page.screenshot(path=str(target))
    expect(page.locator("#winners")).to_contain_text("win")
    expect(page.locator("#game-over table tr")).to_have_count(6)
    with page.expect_download() as download:
        page.locator("#download-record").click()
    record = Path(download.value.path()).read_text()
    assert '"answers"' in record and '"config"' in record
    assert page.locator("#log li").count() > 100


def test_reloading_the_page_resumes_the_same_seat_where_it_stood(server, page):
    create_from_lobby(page, server, seats=2)
    for _ in range(7):
        answer_simply(page, wait_for_question(page))
    kind = wait_for_question(page)
    before = (page.url, page.locator("#question").get_attribute("data-sequence"),
              page.locator("#hand").inner_text(), page.locator("#log li").count())
    page.reload()
    assert wait_for_question(page) == kind
    expect(page.locator("#log li")).to_have_count(before[3])
    after = (page.url, page.locator("#question").get_attribute("data-sequence"),
             page.locator("#hand").inner_text(), page.locator("#log li").count())
    assert after == before
    for _ in range(3):   # and the game goes on
        answer_simply(page, wait_for_question(page))


def test_a_refused_answer_shows_the_servers_message(server, browser):
    with connect(server.target) as client:
        game = client.create_game(["Ann", "Bob"], kingdom="First Game", seed=4, first_player=0)
    link = f"{server.web_url}#/game/{game.game_id}?token={game.tokens[0]}"
    fresh, stale = browser.new_context(), browser.new_context()
    try:
        first, late = fresh.new_page(), stale.new_page()
        # The late tab's stream is cut, so it keeps showing a decision already answered.
        late.route("**/StreamEvents", lambda route: route.abort())
        late.goto(link)
        first.goto(link)
        assert wait_for_question(late) == "turn" and wait_for_question(first) == "turn"
        first.locator("#question button.move").first.click()
        first.wait_for_function("() => document.querySelector('#question').dataset.sequence"
                                " !== '0'")
        late.locator("#question button.move").first.click()
        expect(late.locator("#answer-error")).to_contain_text("already answered")
        expect(late.locator("#answer-error")).to_contain_text("(Aborted)")
        # Bob's page, meanwhile, says what Ann is deciding.
        bob = fresh.new_page()
        bob.goto(f"{server.web_url}#/game/{game.game_id}?token={game.tokens[1]}")
        expect(bob.locator("#waiting")).to_contain_text("Ann")
    finally:
        fresh.close()
        stale.close()


def test_the_spectator_page_never_shows_a_hidden_card(server, page):
    with connect(server.target) as client:
        game = client.create_game(["Ann", "Bob"], bots={1: "big-money"}, kingdom="First Game",
                                  seed=8, first_player=1)
        seat = client.seat(game.game_id, game.tokens[0])
        hand = seat.view().players[0].hand
    page.goto(f"{server.web_url}#/game/{game.game_id}")
    expect(page.locator("#status")).to_contain_text("Spectating")
    expect(page.locator("#waiting")).to_contain_text("Ann")
    assert page.locator("#hand").count() == 0 and page.locator("#question button").count() == 0
    draws = page.locator("#log li.draw").all_inner_texts()
    assert draws and all(re.search(r"draws (a card|\d+ cards)\.$", d) for d in draws), draws
    assert "Ann" in page.locator("#players").inner_text() and len(hand) == 5


def test_every_kind_of_question_is_answered_with_its_controls(server, page):
    """Four seats on a Kingdom whose cards ask all four kinds of question: the page's controls
    answer turns (buttons), selections (cards, min and max kept), options and orderings."""
    with connect(server.target) as client:
        kingdom = ["Sentry", "Courtyard", "Steward", "Pawn", "Harbinger", "Militia", "Moat",
                   "Library", "Lurker", "Swindler"]
        game = client.create_game(["Ann", "Bob", "Cid", "Dee"], kingdom=kingdom, seed=21,
                                  bots={1: "militia-big-money", 2: "big-money", 3: "random"},
                                  first_player=0)
    page.goto(f"{server.web_url}#/game/{game.game_id}?token={game.tokens[0]}")
    seen = set()
    for _ in range(400):
        kind = wait_for_question(page)
        if kind == "over" or seen >= {"turn", "select", "choose", "order"}:
            break
        seen.add(kind)
        if kind == "turn":
            assert click_first(page, "button.move[data-verb=PLAY]:not([data-card=Copper])"
                                     ":not([data-card=Silver]):not([data-card=Gold])",
                               "button.move[data-verb=PLAY_TREASURES]",
                               *(f"button.move[data-verb=BUY][data-card='{c}']" for c in
                                 ("Province", "Gold", "Sentry", "Library", "Pawn", "Steward",
                                  "Courtyard", "Silver")),
                               "button.move[data-verb=END_PHASE]")
        elif kind == "order":
            items = page.locator("#question .ordering li")
            first = items.first.locator(".card").inner_text()
            page.locator("#question .ordering button.down").first.click()
            assert items.nth(1).locator(".card").inner_text() == first
            page.locator("#confirm").click()
        elif kind == "select" and page.locator("#question .chip").count() > 1:
            confirm = page.locator("#confirm")
            text = page.locator("#question").inner_text()
            low, high = map(int, re.search(r"Choose (\d+)(?: to (\d+))?", text).groups("0"))
            high = high or low
            if high < page.locator("#question .chip").count():   # max is kept
                for i in range(high):
                    page.locator("#question .chip").nth(i).click()
                assert page.locator("#question .chip:not(.picked)").first.is_disabled()
                for i in range(high):
                    page.locator("#question .chip.picked").first.click()
            if low > 0:
                assert confirm.is_disabled()   # min is kept
            answer_simply(page, kind)
        else:
            answer_simply(page, kind)
    assert seen >= {"turn", "select", "choose", "order"}, seen


def kingdoms_of_every_card() -> list:
    """Every Kingdom card of the four sets, ten at a time (the last ten filled up from the
    first)."""
    import dominion
    names = sorted(c.name for c in dominion.CARDS.values() if c.set != "basic")
    groups = [names[i:i + 10] for i in range(0, len(names), 10)]
    groups[-1] += [n for n in names if n not in groups[-1]][:10 - len(groups[-1])]
    return groups


def answer_at_random(page, kind: str, rng) -> None:
    """Any answer the page's controls allow, picked at random (actions and Kingdom cards
    preferred, so that the cards get played)."""
    q = page.locator("#question")
    if kind == "turn":
        moves = q.locator("button.move:not([disabled])")
        texts = moves.all_inner_texts()
        plays = [i for i, t in enumerate(texts) if t.startswith("Play ") and
                 not t.endswith(("Copper", "Silver", "Gold", "Treasures"))]
        buys = [i for i, t in enumerate(texts) if t.startswith("Buy ") and not
                t.startswith(("Buy Copper", "Buy Curse", "Buy Estate"))]
        pool = plays or (buys if buys and rng.random() < 0.8 else list(range(len(texts))))
        moves.nth(rng.choice(pool)).click()
    elif kind in ("select", "choose"):
        low, high = int(q.get_attribute("data-min")), int(q.get_attribute("data-max"))
        items = q.locator(".chip" if kind == "select" else ".option")
        if kind == "choose" and not q.locator("#confirm").count():
            items.nth(rng.randrange(items.count())).click()
            return
        count = rng.randint(low, min(high, items.count()))
        for i in sorted(rng.sample(range(items.count()), count)):
            items.nth(i).click()
        q.locator("#confirm").click()
    else:
        for _ in range(rng.randrange(3)):
            downs = q.locator("button.down:not([disabled])")
            if downs.count():
                downs.nth(rng.randrange(downs.count())).click()
        q.locator("#confirm").click()


@pytest.mark.parametrize("kingdom", kingdoms_of_every_card(), ids=lambda k: k[0])
def test_the_page_answers_every_card_of_the_four_sets_legally(server, page, kingdom):
    """Three seats, two of them random bots (their Attacks ask this seat too), on Kingdoms that
    together hold every card: each answer the page composes is taken (no refusal) for 45
    decisions or to the end."""
    import random
    rng = random.Random(kingdom[0])
    with connect(server.target) as client:
        game = client.create_game(["Ann", "Bob", "Cid"], kingdom=kingdom, seed=len(kingdom[0]),
                                  bots={1: "random", 2: "random"}, first_player=0)
    page.goto(f"{server.web_url}#/game/{game.game_id}?token={game.tokens[0]}")
    for _ in range(45):
        kind = wait_for_question(page)
        if kind == "over":
            break
        answer_at_random(page, kind, rng)
        wait_for_question(page)
        assert not page.locator("#answer-error").count(), \
            page.locator("#answer-error").inner_text()


def kingdom_on_table(page) -> list:
    basics = {"Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse"}
    expect(page.locator("#supply .pile").first).to_be_visible()
    return [n for n in page.locator("#supply .pile").evaluate_all(
        "piles => piles.map(p => p.dataset.card)") if n not in basics]


def test_the_lobby_starts_games_on_chosen_and_random_kingdoms_and_lists_them(server, page):
    import dominion
    page.goto(server.web_url)
    page.locator("#kingdom-kind").select_option("cards")
    chosen = ["Cellar", "Chapel", "Moat", "Village", "Witch", "Courtyard", "Pawn", "Nobles",
              "Spy", "Scout"]
    for name in chosen[:9]:
        page.locator(f".card-picks input[value='{name}']").check()
    page.locator("#create-game").click()
    expect(page.locator("#lobby-error")).to_contain_text("10")   # the server's refusal
    page.locator(f".card-picks input[value='{chosen[9]}']").check()
    page.locator("#create-game").click()
    expect(page.locator("#status")).to_contain_text("You are Player 1")
    assert sorted(kingdom_on_table(page)) == sorted(chosen)
    first_game = page.url

    page.goto(server.web_url)
    page.locator("#kingdom-kind").select_option("random")
    for box in page.locator("#kingdom-detail input").all():
        if box.get_attribute("value") != "intrigue-2e":
            box.uncheck()
    page.locator("#create-game").click()
    expect(page.locator("#status")).to_contain_text("You are Player 1")
    drawn = kingdom_on_table(page)
    assert len(drawn) == 10 and all(dominion.CARDS[n].set == "intrigue-2e" for n in drawn)

    page.goto(server.web_url)
    expect(page.locator("#games tr[data-game]")).to_have_count(2)
    page.locator("#games a.seat").last.click()      # the older game, as its seat
    expect(page.locator("#hand")).to_be_visible()
    assert page.url == first_game
    page.goto(server.web_url)
    page.locator("#games a.spectate").first.click()
    expect(page.locator("#status")).to_contain_text("Spectating")


def test_a_game_between_two_people_gives_each_their_seats_link(server, browser):
    ann, bob = browser.new_context(), browser.new_context()
    try:
        page = ann.new_page()
        page.goto(server.web_url)
        page.locator("#your-name").fill("Ann")
        page.locator("#seat-1").select_option("")        # a person
        page.locator("#create-game").click()
        link = page.locator("#created li a")
        expect(link).to_have_count(1)
        bobs_page = bob.new_page()
        bobs_page.goto(link.get_attribute("href"))
        expect(bobs_page.locator("#status")).to_contain_text("You are Player 2")
        page.locator("#created a.primary").click()
        expect(page.locator("#status")).to_contain_text("You are Ann")
        expect(page.locator("#players")).to_contain_text("Player 2")
    finally:
        ann.close()
        bob.close()
