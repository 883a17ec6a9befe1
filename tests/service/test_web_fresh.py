"""The committed browser client matches what scripts/gen_web.py makes from protos/ and web/src/:
the generated messages (web/src/gen/) and the page's bundle (static/app.js). Needs Node.js and
npm (the build installs its pinned packages from the npm registry on first use)."""
from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_builder():
    spec = importlib.util.spec_from_file_location("gen_web", ROOT / "scripts" / "gen_web.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tree(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.mark.skipif(shutil.which("npm") is None and os.environ.get("CI") != "true",
                    reason="needs Node.js and npm (CI always has them)")
def test_browser_client_is_up_to_date(tmp_path):
    builder = load_builder()
    gen, bundle = builder.build(tmp_path)
    assert tree(gen) == tree(builder.GEN), (
        "web/src/gen is stale: run `python scripts/gen_web.py`")
    assert bundle.read_bytes() == builder.BUNDLE.read_bytes(), (
        "service/dominion_service/static/app.js is stale: run `python scripts/gen_web.py`")
