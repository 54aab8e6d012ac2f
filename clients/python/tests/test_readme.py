"""The README's examples run as written (against the test fonts), so the docs cannot rot."""

from __future__ import annotations

import re

import fitd
import fitd.toolkits
from conftest import ROOT


def test_every_python_example_in_the_readme_runs(fit, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)  # the examples name protocol/examples/… from the checkout
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "clients" / "python" / "README.md").read_text(), re.S)
    assert len(blocks) >= 6
    scope = {"fit": fit}
    try:
        for block in blocks:
            exec(compile(block.replace("...\n", ""), "README.md", "exec"), scope)
    finally:
        fitd.toolkits.uninstall()  # the README's `import fitd.adopt` patched Rich and urwid
    printed = capsys.readouterr().out
    assert "column" in printed and "vertical" in printed and "org.fitd.Fit1.Error.InvalidFont" in printed
    assert isinstance(scope["subscription"], fitd.Subscription) and callable(scope["follow"])
    assert scope["fitd"].adopt.installed == ["rich", "urwid"] and isinstance(scope["found"], fitd.terminal.Detection)
