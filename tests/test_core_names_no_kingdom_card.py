"""The engine's core names no Kingdom card: a card's rules, turn-long effects included
(Merchant's and Coppersmith's Treasure bonuses), live in its set's module, so adding a card
touches that module only (README, "Adding a card")."""
import ast
from pathlib import Path

import dominion

CORE = ("engine.py", "game.py", "views.py", "positions.py", "state.py", "determinize.py")


def strings_in_code(path: Path) -> set:
    """Every string constant of the module's code, docstrings left out."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                  and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings}


def test_the_engine_core_names_no_kingdom_card():
    package = Path(dominion.__file__).resolve().parent
    kingdom = {name for name, c in dominion.CARDS.items() if c.is_kingdom}
    for module in CORE:
        named = strings_in_code(package / module) & kingdom
        assert not named, f"dominion/{module} names {sorted(named)}"
