"""Build the browser client from ``protos/`` and ``web/src/``: the one way it is made.

    python scripts/gen_web.py              # writes web/src/gen/ and the page's app.js
    python scripts/gen_web.py --out DIR    # writes DIR/gen/ and DIR/app.js (the freshness test)

Steps: ``npm ci`` in ``web/`` when its node_modules are missing (versions pinned by
``web/package-lock.json``); protoc with protoc-gen-es (Buf's generator for protobuf-es) writes
the messages and the service descriptor as TypeScript into ``web/src/gen/``; esbuild bundles
``web/src/main.ts`` with the Connect runtime into one file, ``app.js``, shipped in the Python
package beside ``index.html`` (``service/dominion_service/static/``). Both outputs are committed,
so users need no JavaScript toolchain; a test fails when they are stale.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
PROTO_ROOT = ROOT / "protos"
GEN = WEB / "src" / "gen"
BUNDLE = ROOT / "service" / "dominion_service" / "static" / "app.js"
ESBUILD_TARGET = "es2022"


def install() -> None:
    """``npm ci`` when ``web/node_modules`` is missing or older than the lock file."""
    marker = WEB / "node_modules" / ".package-lock.json"
    lock = WEB / "package-lock.json"
    if marker.exists() and marker.stat().st_mtime >= lock.stat().st_mtime:
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm not found: install Node.js 20 or newer (Debian: apt-get install "
                         "nodejs npm)")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=WEB,
                   check=True)


def generate_messages(out: Path) -> None:
    """``out/dominion/v1/dominion_pb.ts`` from the .proto files."""
    from grpc_tools import protoc

    protos = sorted((PROTO_ROOT / "dominion" / "v1").glob("*.proto"))
    plugin = WEB / "node_modules" / ".bin" / "protoc-gen-es"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    args = ["grpc_tools.protoc", f"-I{PROTO_ROOT}", f"--plugin=protoc-gen-es={plugin}",
            f"--es_out={out}", "--es_opt=target=ts"]
    if protoc.main(args + [str(p.relative_to(PROTO_ROOT)) for p in protos]) != 0:
        raise SystemExit("protoc failed")


def bundle(gen: Path, out_file: Path) -> None:
    """Type-check (tsc) and bundle (esbuild) ``web/src/main.ts`` and what it imports, with
    ``./gen`` read from ``gen``."""
    bin_dir = WEB / "node_modules" / ".bin"
    with tempfile.TemporaryDirectory() as tmp:
        # The sources as committed, with the generated messages given: the bundle the
        # committed sources make from the current .proto files.
        src = Path(tmp) / "src"
        shutil.copytree(WEB / "src", src, ignore=shutil.ignore_patterns("gen"))
        shutil.copytree(gen, src / "gen")
        shutil.copy(WEB / "tsconfig.json", Path(tmp) / "tsconfig.json")
        (Path(tmp) / "node_modules").symlink_to(WEB / "node_modules")
        checked = subprocess.run([str(bin_dir / "tsc"), "-p", tmp], capture_output=True,
                                 text=True)
        if checked.returncode != 0:
            raise SystemExit("the browser client does not type-check:\n" + checked.stdout)
        esbuild = bin_dir / "esbuild"
        subprocess.run([str(esbuild), str(src / "main.ts"), "--bundle", "--minify",
                        f"--target={ESBUILD_TARGET}", "--format=iife", "--legal-comments=none",
                        "--log-level=warning", f"--outfile={out_file}"],
                       cwd=WEB, check=True)


def build(out: Path | None = None) -> tuple[Path, Path]:
    """Write the generated messages and the bundle (to ``out`` when given); return both."""
    install()
    gen = (out / "gen") if out else GEN
    bundle_file = (out / "app.js") if out else BUNDLE
    generate_messages(gen)
    bundle(gen, bundle_file)
    return gen, bundle_file


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None,
                        help="write DIR/gen/ and DIR/app.js instead of the committed places")
    args = parser.parse_args(argv)
    for path in build(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
