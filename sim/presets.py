"""Policy preset files: a policy saved (by ``playtest tune``) as a base policy and its values.

A preset is used wherever a policy string is: ``--policy @tuned.toml``, ``--seat-policy
0=@tuned.toml``, a ladder rung, ``policy = "@tuned.toml"`` in a TOML experiment spec. The
``@PATH`` text is expanded to the canonical policy string ``BASE:k=v,...`` before it is parsed
(:meth:`sim.spec.GameSpec.policy_values`) and stored (:func:`sim.batch.make_arm`), so the store
records plain parameter values and a run is reproducible without the file.

The file is TOML::

    game = "rattlebones"      # the game it is for (a preset of another game is refused)
    policy = "greedy"         # the base policy: a name of `playtest rules GAME`
    players = 2               # what it was tuned for (information only)
    variant = "base"

    [params]                  # policy-parameter values over the base policy's own
    w_points = 3.71
    keep_moves = 2

    [provenance]              # how it was made (information only)
    ...
"""
from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, Mapping

from .errors import SpecError

PREFIX = "@"
REQUIRED = {"game": str, "policy": str, "params": dict}


def is_preset(text: str) -> bool:
    """Does a policy string name a preset file (``@PATH``)?"""
    return str(text).strip().startswith(PREFIX)


def read_preset(path: str | Path) -> dict:
    """The preset document at ``path``: SpecError naming the file when it is missing or
    malformed."""
    path = Path(path).expanduser()
    try:
        data = path.read_bytes()
    except (OSError, ValueError) as e:  # ValueError: a NUL in the path
        why = getattr(e, "strerror", None) or e
        raise SpecError(f"policy preset {path}: cannot read it ({why}); give "
                        f"@PATH of a file written by `playtest tune`") from None
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except ValueError as e:  # not UTF-8, or not TOML
        raise SpecError(f"policy preset {path}: not valid TOML ({e})") from None
    for key, kind in REQUIRED.items():
        if not isinstance(doc.get(key), kind):
            raise SpecError(f"policy preset {path}: needs `{key}` "
                            f"({'a table' if kind is dict else 'a string'}); "
                            f"keys: {', '.join(REQUIRED)}")
    return doc


def shipped(path: str | Path, game: str, base: str = "greedy") -> dict[str, Any]:
    """The parameter values of a preset file that a game ships as a named policy (its
    ``presets/`` folder, e.g. ``expert`` written by ``playtest tune``): the file must be for
    ``game`` and over ``base``, so a named policy is one plain override of its base policy."""
    doc = read_preset(path)
    if doc["game"] != game or doc["policy"] != base:
        raise SpecError(f"policy preset {path}: is for {doc['game']}/{doc['policy']}, "
                        f"a shipped preset of {game} must be over {base}")
    return dict(doc["params"])


def expand(text: str, game: str) -> str:
    """``@PATH`` -> the canonical policy string ``BASE:k=v,...`` of that preset (which must be
    for ``game``); any other policy string unchanged."""
    if not is_preset(text):
        return text
    path = text.strip()[len(PREFIX):]
    doc = read_preset(path)
    if doc["game"] != game:
        raise SpecError(f"policy preset {path} is for the game '{doc['game']}', not '{game}'")
    return policy_string(doc["policy"], doc["params"])


def policy_string(base: str, params: Mapping[str, Any]) -> str:
    """``BASE:k=v,...`` (``BASE`` alone without values); lists as ``a;b;c``."""
    body = ",".join(f"{k}={format_value(v)}" for k, v in params.items())
    return f"{base}:{body}" if body else base


def format_value(v: Any) -> str:
    """One value as ``--policy`` reads it back exactly (floats by ``repr``)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ";".join(format_value(x) for x in v)
    return repr(v) if isinstance(v, float) else str(v)


def preset_toml(doc: Mapping[str, Any]) -> str:
    """A preset document as TOML: top-level values first, then one ``[table]`` per mapping
    (a mapping inside a table is written inline)."""
    lines = [f"{k} = {_toml(v)}" for k, v in doc.items() if not isinstance(v, Mapping)]
    for k, v in doc.items():
        if isinstance(v, Mapping):
            lines += ["", f"[{k}]"] + [f"{kk} = {_toml(vv)}" for kk, vv in v.items()]
    return "\n".join(lines) + "\n"


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + " }"
    return json.dumps(str(v))  # a JSON string is a TOML basic string
