"""Hostile JSON text (issue #13): every input is either read or rejected with DecodeError,
with work bounded by the length of the text, never by the value it spells. The rules are
docs/wire-format.md#json ("Hostile input") and docs/security.md ("JSON input"); the
conformance suite (conformance/cases/json.json, "json/hostile/...") holds every
language to the same answers."""

from __future__ import annotations

import os
import subprocess
import sys

import everything_fbe as everything
import hostile_fbe as hostile
import pytest

import fastwire_runtime as rt

HANG_GUARD = 60  # seconds: only a guard against a hang, never a measurement


def _in_subprocess(code: str) -> str:
    """Runs `code` in a fresh interpreter (a hang there cannot be interrupted from
    here: CPython does not check for signals inside one big-integer operation)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=HANG_GUARD, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def rejects(cls, text, reason=None):
    with pytest.raises(rt.DecodeError) as err:
        cls.from_json(text)
    if reason is not None:
        assert err.value.code == reason, err.value
    return err.value


# ---- item 1: a decimal's exponent -----------------------------------------------------

HUGE_EXPONENTS = ['"1e999999999"', '"0e999999999"', '"1e-999999999"', '"-0e-999999999"',
                  "1e999999999", '"9e9999999"']


def test_decimal_huge_exponent_answers_at_once():
    # Before the fix, 10 ** exponent was computed first: these never returned.
    out = _in_subprocess(
        "import everything_fbe as everything, fastwire_runtime as rt\n"
        f"for text in {HUGE_EXPONENTS!r}:\n"
        "    try:\n"
        "        v = everything.Shifted.from_json('{\"amount\":' + text + '}').amount\n"
        "        print(v.as_tuple().exponent)\n"
        "    except rt.DecodeError as e:\n"
        "        print('rejected', e.code)\n").splitlines()
    assert out == ["rejected out_of_range", "0", "rejected out_of_range",
                   "rejected out_of_range", "rejected out_of_range", "rejected out_of_range"]


def test_decimal_scale_is_as_written():
    # The rule every language reads by: the scale is the digits after the point minus the
    # exponent, 0..28 (zero too); the digits as written, trailing zeros included, fit 96 bits.
    assert str(everything.Shifted.from_json('{"amount":"0e99"}').amount) == "0"
    assert str(everything.Shifted.from_json('{"amount":"1.50"}').amount) == "1.50"
    assert str(everything.Shifted.from_json('{"amount":"1.5e3"}').amount) == "1500"
    rejects(everything.Shifted, '{"amount":"0.' + "0" * 29 + '"}', "out_of_range")
    rejects(everything.Shifted, '{"amount":"1' + "0" * 5000 + 'e-5000"}', "out_of_range")
    for text in ['" 1.5"', '"1_0"', '"Infinity"', '"NaN"', '"sNaN"']:
        rejects(everything.Shifted, '{"amount":' + text + '}', "invalid_argument")


# ---- item 2: Python's int-conversion limit --------------------------------------------

def test_decimal_string_of_many_digits():
    rejects(everything.Shifted, '{"amount":"' + "1" * 5000 + '"}', "out_of_range")
    rejects(everything.Shifted, '{"amount":"' + "1" * 5000 + '.5"}', "out_of_range")


def test_integer_map_key_of_many_digits():
    rejects(everything.Collections, '{"f_map":{"' + "1" * 5000 + '":"x"}}', "out_of_range")
    # Leading zeros are not digits of the value (C++'s from_chars reads them too).
    c = everything.Collections.from_json('{"f_map":{"' + "0" * 5000 + '7":"x"}}')
    assert c.f_map == {7: "x"}


def test_integer_of_many_digits():
    rejects(everything.Primitives, '{"f_int64":' + "1" * 5000 + '}')
    rejects(everything.Primitives, '{"f_double":' + "1" * 5000 + '}')


# ---- item 3: what cannot be written is not read ------------------------------------------

@pytest.mark.parametrize("escaped", [r"\ud800", r"\udfff", r"a\ud800b", r"\udc00\ud800"])
def test_lone_surrogate_is_rejected(escaped):
    rejects(everything.Primitives, '{"f_string":"' + escaped + '"}', "invalid_argument")
    rejects(everything.Collections, '{"f_map":{"1":"' + escaped + '"}}', "invalid_argument")
    rejects(everything.Collections, '{"f_map_optional":{"' + escaped + '":1.0}}',
            "invalid_argument")
    # Python text given as str, not bytes: the same rule.
    rejects(everything.Primitives, '{"f_string":"\ud800"}', "invalid_argument")


def test_surrogate_pair_is_a_character():
    p = everything.Primitives.from_json(r'{"f_string":"\ud83d\ude00"}')
    assert p.f_string == "\U0001F600"
    assert everything.Primitives.from_json(p.to_json()).f_string == "\U0001F600"


@pytest.mark.parametrize("text", [r'{"zzz":"\ud800"}', r'{"\udc00":1}', r'{"zzz":[{"a":"x\ud800"}]}',
                                  r'{"zzz":"\ud83d\ude00\udfff"}', r'{"zzz":{"\ud800\ud800":0}}'])
def test_lone_surrogate_under_an_unknown_key_is_rejected(text):
    # Strings are Unicode wherever they are (docs/wire-format.md#json; issue 37).
    rejects(everything.Primitives, text, "invalid_argument")


def test_escapes_that_are_not_lone_surrogates_are_read():
    p = everything.Primitives.from_json(r'{"zzz":["\\ud800","\ud83d\ude00"],"f_string":"\\udc00"}')
    assert p.f_string == "\\udc00"


def test_minus_zero():
    # 0 in every integer kind; a decimal keeps its text -0, a double is -0.0.
    p = everything.Primitives.from_json('{"f_uint8":-0,"f_int32":-0,"f_utc":-0,"f_decimal":-0,'
                                        '"f_double":-0}')
    assert (p.f_uint8, p.f_int32, p.f_utc) == (0, 0, 0)
    assert str(p.f_decimal) == "-0"
    assert str(p.f_double) == "-0.0"
    for bad in ["-0.0", "-00", "0e0"]:
        rejects(everything.Primitives, '{"f_uint8":' + bad + "}")


def test_hostile_node_smoke():
    assert hostile.Node.from_json('{"value":1}').value == 1


# ---- item 4: the rules every language shares (conformance json/hostile/*) ------------------

def test_double_beyond_its_range_is_rejected():
    for number in ["1e999999", "-1e400", "1" * 400, "1.7976931348623159e308"]:
        rejects(everything.Primitives, '{"f_double":' + number + '}', "out_of_range")
    assert everything.Primitives.from_json('{"f_double":1e-999999}').f_double == 0.0
    assert everything.Primitives.from_json('{"f_double":' + "1" * 300 + '}').f_double == \
        float("1" * 300)


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_bare_nan_is_not_json(word):
    rejects(everything.Primitives, '{"f_double":' + word + '}', "invalid_argument")
    rejects(everything.Primitives, '{"f_double":"' + word.lower() + '"}', "bad_value")


def test_unknown_keys_count_their_nesting():
    ok = '{"zz":' + "[" * 63 + "]" * 63 + '}'
    assert everything.Primitives.from_json(ok).f_double == everything.Primitives().f_double
    for text in ['{"zz":' + "[" * 64 + "]" * 64 + '}', '{"zz":' + '{"a":' * 64 + "1" + "}" * 64 + "}",
                 '{"zz":' + "[" * 100000 + "]" * 100000 + '}',
                 '{"zz":["' + "[" * 100 + '"]}']:
        if '"[[[' in text:  # brackets inside a string are text, not nesting
            everything.Primitives.from_json(text)
            continue
        rejects(everything.Primitives, text, "too_deep")
    deep = rt.Limits(max_depth=200)
    everything._S_Primitives.from_json('{"zz":' + "[" * 150 + "]" * 150 + '}', deep)


def test_json_obeys_the_binary_budget():
    n = rt.Limits().max_zero_size_elements
    bag = hostile.Bag.from_json('{"items":[' + ",".join(["{}"] * n) + ']}')
    assert len(bag.items) == n
    hostile.BagFinalModel().serialize(bag)
    rejects(hostile.Bag, '{"items":[' + ",".join(["{}"] * (n + 1)) + ']}', "over_budget")
    small = rt.Limits(max_message_size=100)
    with pytest.raises(rt.DecodeError) as err:
        hostile._S_Bag.from_json('{"words":["' + "x" * 100 + '"]}', small)
    assert err.value.code == "too_large"


def test_repeated_keys():
    # A field's last value wins whole; a map's first entry stays; every value is checked
    # (docs/wire-format.md#json, "Repeated keys").
    c = everything.Collections.from_json('{"f_map":{"7":"a","7":"b"},"f_vector_struct":[{"uid":1,'
                                         '"symbol":"s"}],"f_vector_struct":[{"uid":2}]}')
    assert c.f_map == {7: "a"}
    assert [(o.uid, o.symbol) for o in c.f_vector_struct] == [(2, "")]
    o = everything.Optionals.from_json('{"f_order":{"uid":1,"symbol":"s"},"f_order":{"uid":2}}')
    assert (o.f_order.uid, o.f_order.symbol) == (2, "")
    for text in ['{"f_map":{"7":5,"7":"a"}}', '{"f_map":{"7":"a","7":5}}',
                 '{"f_vector_struct":[{"uid":"x","uid":1}]}', '{"f_vector":["x"],"f_vector":[]}']:
        rejects(everything.Collections, text, "bad_value")


def test_enums_are_numbers_only():
    assert everything.Optionals.from_json('{"f_enum":1,"f_flags":3}').f_enum == 1
    for text in ['{"f_enum":"a1"}', '{"f_enum":"1"}', '{"f_flags":"a"}']:
        rejects(everything.Optionals, text, "bad_value")
    for text in ['{"f_vector_optional":["a1"]}', '{"f_map_enum_key":{"a1":{}}}']:
        rejects(everything.Collections, text)
