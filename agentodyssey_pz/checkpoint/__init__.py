"""Crash-safe checkpoints: snapshots every K ticks plus a journal of every tick's actions.

A side module on top of the engine. See `journal.py` (the append-only action log with per-line
checksums), `store.py` (the checkpoint folder: writing, rotating, resuming) and `reference.py`
(continuing a run from a reference-engine checkpoint file).
"""

from __future__ import annotations

from agentodyssey_pz.checkpoint.reference import import_reference_checkpoint
from agentodyssey_pz.checkpoint.store import CheckpointWriter, resume

__all__ = ["CheckpointWriter", "import_reference_checkpoint", "resume"]
