"""`python -m agentodyssey_pz`: the command line (see cli.py)."""

from __future__ import annotations

import sys

from agentodyssey_pz.cli import main

sys.exit(main())
