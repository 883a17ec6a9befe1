"""docs/research.md's examples run as written (the batched environment, OpenSpiel, Dominion
Online's log format), and an output shown under an example is the output it prints."""
import contextlib
import io
import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")    # the examples need the [rl] and [openspiel] extras (dev)

DOC = Path(__file__).resolve().parent.parent / "docs" / "research.md"
# A python block, and the plain block right after it if there is one (its printed output).
EXAMPLE = re.compile(r"```python\n(.*?)```\n(?:\n```\n(.*?)```\n)?", re.S)
EXAMPLES = EXAMPLE.findall(DOC.read_text(encoding="utf-8"))


def test_the_doc_has_its_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("code,shown", EXAMPLES, ids=[f"example-{i}" for i in
                                                     range(len(EXAMPLES))])
def test_each_example_runs_and_prints_what_the_doc_shows(code, shown):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {"__name__": "__doc_example__"})
    assert out.getvalue().strip()
    if shown:
        assert out.getvalue() == shown
