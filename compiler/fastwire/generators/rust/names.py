"""Rust names of schema names: modules, types, fields, constants."""

from __future__ import annotations

from ..common import naming


def module_name(package: str) -> str:
    return naming.ident("rust", naming.snake(package))


def type_name(name: str) -> str:
    return naming.ident("rust", naming.pascal(name))


def field_name(name: str) -> str:
    return naming.ident("rust", naming.snake(name))


def const_name(name: str) -> str:
    return naming.snake(name).upper() or "_"
