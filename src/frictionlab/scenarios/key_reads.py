"""Which configuration keys a scenario's run reads: a dict that records its look-ups.

A scenario accepts exactly the keys its run reads (:meth:`frictionlab.scenarios.base.Scenario.refuse_unread`).
That promise is declared (the scenario's config, quick profile and ``optional`` keys) and proved
here: :class:`ReadLog.track` wraps a config in :class:`TrackedConfig` tables, the run and the
checks get it, and :meth:`ReadLog.unread` lists the declared keys nobody looked up -- a key the
config offers the user that would have been ignored.

A look-up is ``cfg[k]``, ``cfg.get(k)``, ``k in cfg``, ``pop`` or ``setdefault``; iterating a table
(``dict(t)``, ``**t``, ``t.items()``, ...) reads its values, so it counts its direct keys as read
and the table as handed over whole (``ReadLog.whole``: a table given to ``make_model`` or
``build`` reads every field the library knows); the tables among its values record their own
look-ups. Copies (``copy.deepcopy``) record into the same log.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

__all__ = ["ReadLog", "TrackedConfig"]


class ReadLog:
    """The dotted keys looked up (``read``) and the tables iterated whole (``whole``)."""

    def __init__(self) -> None:
        self.read: set[str] = set()
        self.whole: set[str] = set()

    def track(self, cfg: dict[str, Any]) -> TrackedConfig:
        """``cfg`` as a :class:`TrackedConfig` recording into this log."""
        return TrackedConfig(cfg, "", self)

    def unread(self, keys: Iterable[str], optional: Iterable[str] = ()) -> list[str]:
        """The dotted ``keys`` nobody looked up, and the ``optional`` ones (absent from the config)
        neither looked up nor in a table handed over whole, sorted."""
        return sorted([k for k in keys if k not in self.read] +
                      [k for k in optional if k not in self.read and k.rsplit(".", 1)[0] not in self.whole])


class TrackedConfig(dict):
    """A config table that records every key looked up in it into a :class:`ReadLog`."""

    def __init__(self, data: dict[str, Any], prefix: str, log: ReadLog) -> None:
        self._prefix, self._log = prefix, log
        super().__init__({k: self._wrap(k, v) for k, v in data.items()})

    def _wrap(self, key: Any, value: Any) -> Any:
        if isinstance(value, dict) and not isinstance(value, TrackedConfig):
            return TrackedConfig(value, f"{self._prefix}{key}.", self._log)
        return value

    def _saw(self, key: Any) -> None:
        self._log.read.add(f"{self._prefix}{key}")

    def _all(self) -> None:
        self._log.whole.add(self._prefix.rstrip("."))
        for k in dict.keys(self):
            self._saw(k)

    def __getitem__(self, key: Any) -> Any:
        self._saw(key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._saw(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self._saw(key)
        return super().__contains__(key)

    def pop(self, key: Any, *default: Any) -> Any:
        self._saw(key)
        return super().pop(key, *default)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self._saw(key)
        return super().setdefault(key, self._wrap(key, default))

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, self._wrap(key, value))

    def _whole(name: str):  # noqa: N805 - builds the methods below
        base = getattr(dict, name)

        def method(self: TrackedConfig):
            self._all()
            return base(self)
        method.__name__ = name
        return method

    __iter__, keys, items, values = _whole("__iter__"), _whole("keys"), _whole("items"), _whole("values")
    del _whole

    def __or__(self, other: Any) -> dict:
        self._all()
        return dict(dict.items(self)) | other

    def __copy__(self) -> TrackedConfig:
        return TrackedConfig(dict(dict.items(self)), self._prefix, self._log)

    def __deepcopy__(self, memo: dict) -> TrackedConfig:
        return TrackedConfig({k: copy.deepcopy(v, memo) for k, v in dict.items(self)}, self._prefix, self._log)

    def __reduce__(self) -> tuple:  # pickled to a worker process: a plain dict (its reads are not seen)
        return dict, (dict(dict.items(self)),)
