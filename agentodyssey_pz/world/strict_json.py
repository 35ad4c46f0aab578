"""A strict cattrs converter for JSON data written by people: no coercion, clear type errors.

Layer: world core. Used by the world-definition schema, quest data and saved worlds. An int stays
an int and a string a string (cattrs' default would turn "3" into 3 and 1 into True); lists,
objects and optional values are checked, and every type error names the JSON type it got.
"""

from __future__ import annotations

from typing import Any, Union, get_args, get_origin

import attrs
import cattrs
from cattrs.gen import make_mapping_structure_fn, override

# Field metadata: the JSON key, when it differs from the attribute name.
JSON_KEY = "json_key"


def json_keys(cls: type) -> dict[str, str]:
    """attribute name -> JSON key for every field but `extras`."""
    return {
        f.name: f.metadata.get(JSON_KEY, f.name) for f in attrs.fields(cls) if f.name != "extras"
    }


class SchemaTypeError(TypeError):
    """A JSON value of the wrong type; the message is meant for the author of the file."""


def json_type_name(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return names.get(type(value), type(value).__name__)


def _strict_int(value: Any, _: type) -> int:
    if type(value) is not int:
        raise SchemaTypeError(f"expected an integer, got {json_type_name(value)} ({value!r})")
    return value


def _strict_float(value: Any, _: type) -> float:
    if type(value) not in (int, float):
        raise SchemaTypeError(f"expected a number, got {json_type_name(value)} ({value!r})")
    return value


def _strict_bool(value: Any, _: type) -> bool:
    if type(value) is not bool:
        raise SchemaTypeError(f"expected true or false, got {json_type_name(value)} ({value!r})")
    return value


def _strict_str(value: Any, _: type) -> str:
    if type(value) is not str:
        raise SchemaTypeError(f"expected a string, got {json_type_name(value)} ({value!r})")
    return value


def _is_optional(tp: Any) -> bool:
    args = get_args(tp)
    return get_origin(tp) in (Union, _union_type()) and len(args) == 2 and type(None) in args


def _union_type() -> Any:
    import types

    return getattr(types, "UnionType", Union)


def _make_optional_hook(converter: cattrs.Converter) -> Any:
    def hook(value: Any, tp: Any) -> Any:
        if value is None:
            return None
        inner = next(a for a in get_args(tp) if a is not type(None))
        return converter.structure(value, inner)

    return hook


def _make_tuple_hook(converter: cattrs.Converter) -> Any:
    def hook(value: Any, tp: Any) -> Any:
        if not isinstance(value, list):
            raise SchemaTypeError(f"expected a list, got {json_type_name(value)}")
        return tuple(converter.structure(value, list[get_args(tp)[0]]))

    return hook


def _make_dict_hook(converter: cattrs.Converter) -> Any:
    generated: dict[Any, Any] = {}

    def hook(value: Any, tp: Any) -> Any:
        if not isinstance(value, dict):
            raise SchemaTypeError(f"expected an object, got {json_type_name(value)}")
        if tp not in generated:
            generated[tp] = make_mapping_structure_fn(tp, converter, detailed_validation=True)
        return generated[tp](value, tp)

    return hook


def strict_converter(*, forbid_extra_keys: bool = False) -> cattrs.Converter:
    """A converter that never coerces: ints stay ints, strings strings; lists, objects checked."""
    converter = cattrs.Converter(detailed_validation=True, forbid_extra_keys=forbid_extra_keys)
    converter.register_structure_hook(int, _strict_int)
    converter.register_structure_hook(float, _strict_float)
    converter.register_structure_hook(bool, _strict_bool)
    converter.register_structure_hook(str, _strict_str)
    converter.register_structure_hook(Any, lambda v, _: v)
    converter.register_structure_hook_func(_is_optional, _make_optional_hook(converter))
    converter.register_structure_hook_func(
        lambda t: get_origin(t) is tuple, _make_tuple_hook(converter)
    )
    converter.register_structure_hook_func(
        lambda t: get_origin(t) is dict, _make_dict_hook(converter)
    )
    converter.register_unstructure_hook_func(
        lambda t: get_origin(t) is tuple, lambda v: [converter.unstructure(x) for x in v]
    )
    return converter


def renamed_fields(cls: type) -> dict[str, Any]:
    """cattrs overrides for fields whose JSON key differs from the attribute name."""
    return {
        f.name: override(rename=f.metadata[JSON_KEY])
        for f in attrs.fields(cls)
        if JSON_KEY in f.metadata
    }
