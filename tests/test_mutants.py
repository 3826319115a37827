"""The mutation tool (``make mutants``, tests/kit/mutants.py) makes the
one-line mutants it promises and leaves alone what it promises to."""

from __future__ import annotations

from pathlib import Path

from tests.kit.mutants import NOT_RULE_LEVEL, mutants_of, rule_tests

MODULE = '''"""A rule, with a docstring (never mutated)."""


def rule(game: object, count: int = 2) -> bool:
    """Why the rule is so."""
    assert count >= 0, "never mutated"
    game.log("a line of the log, never left out")
    game.total += count
    if count > 1 and not game.closed:
        game.seen = True
    return count == 3
'''


def test_each_operator_makes_one_mutant_on_its_line(tmp_path: Path) -> None:
    module = tmp_path / "rule.py"
    module.write_text(MODULE, encoding="utf-8")
    made = {(m.line, m.change) for m in mutants_of(module, tmp_path)}
    assert made == {
        (4, "2 -> 3"),  # the default
        (8, "Add -> Sub"),
        (8, "statement left out"),
        (9, "Gt -> LtE"),
        (9, "1 -> 2"),
        (9, "And -> Or"),
        (9, "not dropped"),
        (10, "True -> False"),
        (10, "statement left out"),
        (11, "Eq -> NotEq"),
        (11, "3 -> 4"),
    }


def test_a_mutant_changes_only_what_it_says(tmp_path: Path) -> None:
    module = tmp_path / "rule.py"
    module.write_text(MODULE, encoding="utf-8")
    mutant = next(m for m in mutants_of(module, tmp_path) if m.change == "Eq -> NotEq")
    namespace: dict[str, object] = {}
    exec(compile(mutant.source, "rule.py", "exec"), namespace)  # noqa: S102 - our own fixed text
    game = type("Game", (), {"log": lambda self, line: None, "total": 0, "closed": False})()
    assert namespace["rule"](game, 3) is False  # type: ignore[operator]
    assert namespace["rule"](game, 4) is True  # type: ignore[operator]
    assert game.total == 7 and game.seen is True


def test_rule_level_tests_leave_out_snapshots_and_the_terminal() -> None:
    for pack in ("stationmaster", "trickoftherails"):
        found = rule_tests(pack)
        assert found, pack
        assert not [path for path in found if any(word in path for word in ("golden", "/site/", "test_site", "terminal", "play_cli"))]
    assert "golden" in NOT_RULE_LEVEL
