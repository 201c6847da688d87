"""The old home of ``todocli.base.jsontext``, until ``app/hooks.py`` imports it from
there (its one user left)."""

from todocli.base.jsontext import dumps

__all__ = ["dumps"]
