"""ParamSpec parsing, validation and packing (sim/spec.py)."""
import numpy as np
import pytest

from sim.spec import ParamSpec, SpecError, layout, pack, resolve

PARAMS = (
    ParamSpec("days", "int", 6, "days", lo=1, hi=6),
    ParamSpec("cost", "float", 1.5, "cost", lo=0, hi=10),
    ParamSpec("flag", "bool", True, "flag"),
    ParamSpec("tie", "choice", "seat", "tie rule", choices=("seat", "random")),
    ParamSpec("sched", "list", (1, 1, 1, 1), "schedule", lo=0, hi=10, length=4),
)


def test_layout_and_pack_follow_declaration_order():
    assert layout(PARAMS) == {"days": 0, "cost": 1, "flag": 2, "tie": 3, "sched": 4}
    values = resolve(PARAMS, {"tie": "random", "sched": "1,2"})
    packed = pack(PARAMS, values)
    # list = [n, values..., last value repeated]
    np.testing.assert_array_equal(packed, [6, 1.5, 1, 1, 2, 1, 2, 2, 2])


@pytest.mark.parametrize("name,text", [("days", "7"), ("days", "0"), ("days", "2.5"),
                                       ("flag", "maybe"), ("tie", "coin"),
                                       ("sched", "1,2,3,4,5"), ("sched", "11"), ("cost", "x")])
def test_bad_values_name_the_parameter_and_the_valid_range(name, text):
    with pytest.raises(SpecError) as e:
        resolve(PARAMS, {name: text})
    assert name in str(e.value) and "valid" in str(e.value)


def test_unknown_parameter_lists_valid_names():
    with pytest.raises(SpecError, match="unknown parameter 'zzz'; valid: cost, days, flag, sched, tie"):
        resolve(PARAMS, {"zzz": 3})


def test_a_typo_gets_the_near_name():
    """A near miss names the parameter meant (and, from a long table, not every name)."""
    with pytest.raises(SpecError, match="unknown parameter 'dayz'; did you mean 'days'\\? valid: "
                                        "cost, days, flag, sched, tie"):
        resolve(PARAMS, {"dayz": 3})
    many = tuple(ParamSpec(f"param_{i:02d}", "int", 1, "a number", 0, 9) for i in range(40)) + (
        ParamSpec("starting_money", "int", 5, "money", 0, 20),)
    with pytest.raises(SpecError) as e:
        resolve(many, {"strating_money": 3})
    assert str(e.value) == ("unknown parameter 'strating_money'; did you mean 'starting_money'? "
                            "(41 valid names: see `playtest rules`)")


def test_parse_accepts_cli_text():
    v = resolve(PARAMS, {"days": "3", "cost": "2", "flag": "false", "sched": "[1;2;3]"})
    assert v["days"] == 3 and v["cost"] == 2.0 and v["flag"] is False and v["sched"] == (1, 2, 3)
