# SPDX-License-Identifier: Apache-2.0
"""The example programs run (in this process) on each library."""

import importlib.util
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_quickstart(lib, capsys):
    _load("quickstart").main([lib.path])
    out = capsys.readouterr().out
    assert out.strip().endswith("ok") and lib.path in out
