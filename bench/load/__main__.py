"""``python -m bench.load``: see ``bench.load``'s docstring and ``--help``."""

from __future__ import annotations

import sys

from bench.load.cli import main

sys.exit(main())
