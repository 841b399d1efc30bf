"""Parameter descriptions from numpydoc docstrings, as plain text (``show``, notebook views)."""

from __future__ import annotations

import inspect
import re

__all__ = ["docstring_params", "plain"]

_TEX = {r"\mu": "mu", r"\sigma": "sigma", r"\theta": "theta", r"\operatorname{sgn}": "sgn", r"\,": " "}


def plain(text: str) -> str:
    """Docstring reST as terminal text: roles (``:math:`x```, ``:class:`x```) and literals unwrapped."""
    text = re.sub(r":[a-z]+:`([^`]*)`", r"\1", text)
    text = re.sub(r"``([^`]*)``", r"\1", text)
    for tex, word in _TEX.items():
        text = text.replace(tex, word)
    return text.replace("`", "")


def docstring_params(cls: type) -> dict[str, str]:
    """``name -> text`` from the numpydoc ``Parameters`` sections of ``cls`` and its bases."""
    out: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        lines = inspect.cleandoc(klass.__doc__ or "").splitlines()
        try:
            i = next(j for j, ln in enumerate(lines[:-1]) if ln.strip() == "Parameters" and lines[j + 1].startswith("---"))
        except StopIteration:
            continue
        names: list[str] = []
        body = lines[i + 2:]
        for j, ln in enumerate(body):
            if ln and not ln.startswith(" "):
                if j + 1 < len(body) and body[j + 1].startswith("---"):
                    break  # the next section's header
                names = [n.strip() for n in ln.split(":")[0].split(",") if n.strip()]
                for n in names:
                    out[n] = ""
            elif ln.strip() and names:
                for n in names:
                    out[n] = (out[n] + " " + ln.strip()).strip()
    return out
