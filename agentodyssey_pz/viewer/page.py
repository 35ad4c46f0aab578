"""The page: one self-contained HTML file, its script, style and data inline.

Side module (viewer). The run's data goes in a `<script type="application/json">` element, which
the browser never runs; `script_json` escapes `<`, `>` and `&` (and, with `ensure_ascii`, every
non-ASCII character, U+2028/U+2029 and lone surrogates included), so no string in a run can close
that element or open another. The page's script (`assets/viewer.js`) puts every string in the DOM
with `textContent`; a Content-Security-Policy allows only that script (by its SHA-256), no inline
handlers, and no network at all.
"""

from __future__ import annotations

import base64
import hashlib
import json
from functools import cache
from importlib import resources
from typing import Any

ASSETS = "agentodyssey_pz.viewer.assets"


@cache
def asset(name: str) -> str:
    return resources.files(ASSETS).joinpath(name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """JSON safe to put between `<script type="application/json">` and `</script>`."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_page(data: Any) -> str:
    """The HTML of one page showing `data` (what `build.page_data` makes)."""
    script = asset("viewer.js")
    # The policy hashes the script element's whole text: the template puts a newline either side.
    inline = ("\n" + script + "\n").encode("utf-8")
    digest = base64.b64encode(hashlib.sha256(inline).digest()).decode("ascii")
    # Pieces are put in one pass, so nothing inserted is looked at again for a placeholder.
    pieces = {
        "{{SCRIPT_HASH}}": f"'sha256-{digest}'",
        "{{CSS}}": asset("viewer.css"),
        "{{DATA}}": script_json(data),
        "{{JS}}": script,
    }
    out, rest = [], asset("page.html")
    while True:
        found = [(rest.find(key), key) for key in pieces if key in rest]
        if not found:
            out.append(rest)
            break
        at, key = min(found)
        out += [rest[:at], pieces[key]]
        rest = rest[at + len(key) :]
    return "".join(out)
