# SPDX-License-Identifier: Apache-2.0
"""Facades that let code written against other Python bindings run on solistore unchanged.

- ``solistore.compat.plyvel``: plyvel's API (``import solistore.compat.plyvel as plyvel``).
- ``solistore.rocksdict``: rocksdict's API in raw mode (also importable as ``solistore.compat.rocksdict``).

Neither installs a top-level ``plyvel`` or ``rocksdict`` module: each has ``install_alias()``, which puts
it in ``sys.modules`` under the original name for code that cannot change its imports.
"""

import sys


def install_alias(module, name: str, *, replace: bool = False):
    """Make ``import <name>`` return ``module``. An already imported module of that name (the real
    package, say) is kept unless ``replace``; returns the module ``import <name>`` now gives."""
    current = sys.modules.get(name)
    if current is not None and current is not module and not replace:
        return current
    sys.modules[name] = module
    return module
