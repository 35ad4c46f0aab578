"""Several language-model policies with different settings in one run: the agents-config file.

Side module (llm). `agentodyssey-pz evaluate --agents-config FILE` reads a TOML file (`.toml`,
read with `tomllib`, Python 3.11+) or a JSON file (any other name) of this shape:

    # optional: settings every policy below starts from
    [defaults]
    base_url = "http://127.0.0.1:8080/v1"
    model = "smollm2"
    max_tokens = 128

    # one table per policy; its name is what --policies and the report call it
    [policies.smol-window]
    memory = "window:5"

    [policies.smol-summary]
    memory = "summary:10"
    temperature = 0.2
    extra_body = { min_p = 0.05 }

(JSON: `{"defaults": {...}, "policies": {"smol-window": {...}, ...}}`.) The keys are the fields
of `LLMSettings` (see `settings`). A policy's settings are, from weakest to strongest: the
`--llm-*` flags of the command line, `[defaults]`, the policy's own table. Policy names use
letters, digits, '_' and '-' and must not be a bundled policy's name (`random`, ...) or `llm`.
Every mistake is a ConfigError naming the file and the key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentodyssey_pz.errors import ConfigError
from agentodyssey_pz.llm.policy import LLMPolicyFactory
from agentodyssey_pz.llm.settings import LLMSettings

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*")
TOP_KEYS = ("defaults", "policies")


def read_config_file(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if path.suffix.lower() == ".toml":
        try:
            import tomllib
        except ImportError:  # Python 3.10
            raise ConfigError(f"{path}: TOML needs Python 3.11 or later; use JSON") from None
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    else:
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a table with 'defaults' and 'policies'")
    return data


def load_agents_config(
    path: str | Path,
    base: Mapping[str, Any] | None = None,
    reserved: tuple[str, ...] = (),
) -> dict[str, LLMPolicyFactory]:
    """Policy name -> factory, in the file's order. `base`: settings under the file's (the
    command line's flags); `reserved`: names the file may not use (the bundled policies)."""
    data = read_config_file(path)
    unknown = [key for key in data if key not in TOP_KEYS]
    if unknown:
        raise ConfigError(
            f"{path}: unknown key {unknown[0]!r} (expected 'defaults' and 'policies')"
        )
    defaults = data.get("defaults", {})
    if not isinstance(defaults, Mapping):
        raise ConfigError(f"{path}: defaults: expected a table of settings")
    policies = data.get("policies")
    if not isinstance(policies, Mapping) or not policies:
        raise ConfigError(f"{path}: policies: expected at least one [policies.<name>] table")
    out: dict[str, LLMPolicyFactory] = {}
    for name, table in policies.items():
        where = f"{path}: policies.{name}"
        if NAME.fullmatch(name) is None:
            raise ConfigError(f"{where}: use letters, digits, '_' and '-', starting with a letter")
        if name in reserved or name == "llm":
            raise ConfigError(f"{where}: {name!r} is a bundled policy's name; choose another")
        if not isinstance(table, Mapping):
            raise ConfigError(f"{where}: expected a table of settings")
        merged = {**dict(base or {}), **dict(defaults), **dict(table)}
        out[name] = LLMPolicyFactory(name, LLMSettings.from_mapping(merged, where))
    return out
