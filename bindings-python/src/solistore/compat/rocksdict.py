# SPDX-License-Identifier: Apache-2.0
"""``solistore.compat.rocksdict``: the same module as ``solistore.rocksdict`` (rocksdict's API in raw mode),
importable beside ``solistore.compat.plyvel``."""

import sys

from .. import rocksdict as _impl

sys.modules[__name__] = _impl
