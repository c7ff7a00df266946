"""Rust names of schema names: modules, types, fields, constants (each made once)."""

from __future__ import annotations

from functools import lru_cache

from ..common import naming


@lru_cache(maxsize=None)
def module_name(package: str) -> str:
    return naming.ident("rust", naming.snake(package))


@lru_cache(maxsize=None)
def type_name(name: str) -> str:
    return naming.ident("rust", naming.pascal(name))


@lru_cache(maxsize=None)
def field_name(name: str) -> str:
    return naming.ident("rust", naming.snake(name))


def const_name(name: str) -> str:
    return naming.snake(name).upper() or "_"
