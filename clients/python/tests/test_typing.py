"""The options are typed for a caller's type checker (fitd.options): mypy --strict on a
caller's code accepts every option of the protocol and refuses a misspelt one or a word
outside its list. At run time an unknown key still reaches the daemon (test_measure.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("mypy")

GOOD = """
import fitd
fit = fitd.Client()
fit.measure("x", "Noto Sans 11", max_width=220, wrap="word-char", max_lines=2, ellipsize="end", features=["tnum"],
            letter_spacing=0.5, unit="cells", lines=True, text_scale=None, language="en", metrics="gtk3",
            markup=False, escapes="ansi", ambiguous="wide", terminal="wcwidth", ui_font="Cantarell 11")
fit.layout({"root": {"kind": "text", "text": "x"}}, 320, unit="cells", size_category="large", ui_font="Sans 10",
           spacing=4, language="en", metrics="gtk4", markup=False, widget_sizes=True, label_sizes=True,
           text_scale=1.0, breakpoints=(100, 600))
async def main(afit: fitd.AsyncClient) -> None:
    await afit.measure("x", max_width=10)
    await afit.layout({"root": {"kind": "text", "text": "x"}}, unit="px")
"""

BAD = {
    'fit.measure("x", max_widht=10)': 'Unexpected keyword argument "max_widht"',
    'fit.measure("x", wrap="words")': 'Argument "wrap" to "measure" of "Client" has incompatible type',
    'fit.measure("x", max_width="10")': 'Argument "max_width" to "measure" of "Client" has incompatible type',
    'fit.layout({}, 10, size_categroy="large")': 'Unexpected keyword argument "size_categroy"',
    'import asyncio; asyncio.run(fitd.AsyncClient().measure("x", max_widht=1))': 'Unexpected keyword argument "max_widht"',
}


def mypy(tmp_path, source: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "caller.py"
    path.write_text(textwrap.dedent(source))
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir=/dev/null", "--no-error-summary", str(path)],
                          capture_output=True, text=True, timeout=120)


def test_every_option_of_the_protocol_type_checks(tmp_path):
    done = mypy(tmp_path, GOOD)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_misspelt_option_or_a_wrong_value_fails_type_checking(tmp_path):
    source = "import fitd\nfit = fitd.Client()\n" + "\n".join(BAD) + "\n"
    done = mypy(tmp_path, source)
    assert done.returncode == 1, done.stdout + done.stderr
    for line, (call, message) in enumerate(BAD.items(), start=3):
        assert f"caller.py:{line}: error: {message}" in done.stdout, (call, done.stdout)
