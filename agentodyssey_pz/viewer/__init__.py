"""The replay viewer: one self-contained web page per episode of a run.

A side module on top of every layer (`agentodyssey-pz view RUN`; `evaluate` writes one page per
episode unless given `--no-viewer`):

    from agentodyssey_pz.viewer import write_pages
    write_pages("evaluation")          # -> [evaluation/viewer/episode-0000.html, ...]

`source` finds a run's episodes, `record` plays each again in the engine and records a frame per
tick, `deltas` turns frames into a string table and per-tick changes, `layout` places the area
graph, `page` writes the HTML (script, style and data inline; `assets/`), `build` ties them
together and splits runs too big for one page. docs/viewer.md describes the page.
"""

from __future__ import annotations

from agentodyssey_pz.viewer.build import MAX_PAGE_BYTES, write_pages
from agentodyssey_pz.viewer.source import ViewerError

__all__ = ["MAX_PAGE_BYTES", "ViewerError", "write_pages"]
