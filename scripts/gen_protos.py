"""Generate the Python package ``dominion_proto`` from ``protos/dominion/v1/*.proto``.

The one way the generated files are made (never edit them by hand)::

    python scripts/gen_protos.py              # writes protos/python/dominion_proto/
    python scripts/gen_protos.py --out DIR    # writes DIR/dominion_proto/ (used by the freshness test)

protoc emits absolute imports (``from dominion.v1 import dominion_pb2``) that would collide with
the engine's ``dominion`` package, so they are rewritten to package-relative imports and the
files are flattened into ``dominion_proto/``. Besides the protobuf messages and the gRPC stubs it
writes ``dominion_connect.py``, the Connect protocol's server application and clients (used by the
web door, `dominion_service.web`), with connect-python's own protoc plugin
(``protoc-gen-connect-python``, installed with the ``dev`` extra).
"""
from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "protos"
PROTO_DIR = PROTO_ROOT / "dominion" / "v1"
PACKAGE = "dominion_proto"
DEFAULT_OUT = PROTO_ROOT / "python"

INIT = '''"""Generated gRPC/protobuf code for package dominion.v1 (scripts/gen_protos.py; do not edit)."""
'''
_ABSOLUTE_IMPORT = re.compile(r"^from dominion\.v1 import (\w+)", re.MULTILINE)
_ABSOLUTE_MODULE_IMPORT = re.compile(r"^import dominion\.v1\.(\w+) as (\w+)", re.MULTILINE)
CONNECT_PLUGIN = "protoc-gen-connect-python"


def connect_plugin() -> str:
    """The path of connect-python's protoc plugin: beside this Python, or on PATH."""
    beside = Path(sys.executable).parent / CONNECT_PLUGIN
    found = str(beside) if beside.exists() else shutil.which(CONNECT_PLUGIN)
    if not found:
        raise SystemExit(f"{CONNECT_PLUGIN} not found: pip install -e '.[dev]'")
    return found


def generate(out_root: Path) -> Path:
    """Write ``out_root/dominion_proto`` and return its path."""
    from grpc_tools import protoc
    import grpc_tools

    protos = sorted(PROTO_DIR.glob("*.proto"))
    if not protos:
        raise SystemExit(f"no .proto files in {PROTO_DIR}")
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    package_dir = out_root / PACKAGE
    with tempfile.TemporaryDirectory() as tmp:
        args = ["grpc_tools.protoc", f"-I{PROTO_ROOT}", f"-I{well_known}",
                f"--python_out={tmp}", f"--pyi_out={tmp}", f"--grpc_python_out={tmp}",
                f"--plugin={CONNECT_PLUGIN}={connect_plugin()}", f"--connect-python_out={tmp}"]
        args += [str(p.relative_to(PROTO_ROOT)) for p in protos]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed")
        if package_dir.exists():
            shutil.rmtree(package_dir)
        package_dir.mkdir(parents=True)
        for generated in sorted((Path(tmp) / "dominion" / "v1").iterdir()):
            if generated.suffix not in (".py", ".pyi"):
                continue
            text = _ABSOLUTE_IMPORT.sub(r"from . import \1", generated.read_text())
            text = _ABSOLUTE_MODULE_IMPORT.sub(r"from . import \1 as \2", text)
            (package_dir / generated.name).write_text(text)
    (package_dir / "__init__.py").write_text(INIT)
    (package_dir / "py.typed").write_text("")
    return package_dir


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"folder that receives {PACKAGE}/ (default: {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    print(generate(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
