"""The committed generated package matches what scripts/gen_protos.py makes from the .proto."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "protos" / "python" / "dominion_proto"


def load_generator():
    spec = importlib.util.spec_from_file_location("gen_protos", ROOT / "scripts" / "gen_protos.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Version stamps of the generator (not of our contract): a newer grpcio-tools changes only these.
_STAMPS = (re.compile(r"^# Protobuf Python Version: .*$", re.MULTILINE),
           re.compile(r"ValidateProtobufRuntimeVersion\([^)]*\)"),
           re.compile(r"^GRPC_GENERATED_VERSION = .*$", re.MULTILINE))


def without_stamps(text: str) -> str:
    for stamp in _STAMPS:
        text = stamp.sub("<version>", text)
    return text


def files(folder: Path) -> dict:
    return {p.name: without_stamps(p.read_text()) for p in sorted(folder.iterdir()) if p.is_file()}


def test_generated_python_package_is_up_to_date(tmp_path):
    fresh = load_generator().generate(tmp_path)
    assert files(fresh) == files(COMMITTED), (
        "protos/python/dominion_proto is stale: run `python scripts/gen_protos.py`")


def test_generated_package_imports_relatively():
    for name, text in files(COMMITTED).items():
        assert "from dominion.v1" not in text, name
