"""specs/README.md, the authoring guide, run as written: every command in it, with the output it shows.

The guide is read in order. A ```mj FILE block writes FILE (the first block naming it) or appends to it
(later blocks). A ```console block holds commands (`$ mjdsl ...`), each followed by lines its output
must contain, compared with runs of spaces and tabs collapsed; every command must exit 0.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from dsl.paths import SPECS_DIR

GUIDE = SPECS_DIR / "README.md"
FENCE = re.compile(r"^```(\w+)[ \t]*(\S*)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


@dataclass
class Command:
    argv: list[str]
    expected: list[str] = field(default_factory=list)


@dataclass
class Step:
    kind: str  # "file" or "commands"
    path: str = ""
    text: str = ""
    commands: list[Command] = field(default_factory=list)


def steps(guide: str) -> list[Step]:
    """The guide's fenced blocks that act: spec text to write and commands to run, in order."""
    found = []
    for language, argument, body in FENCE.findall(guide):
        if language == "mj" and argument:
            found.append(Step("file", path=argument, text=body))
        elif language == "console":
            found.append(Step("commands", commands=_commands(body)))
    return found


def _commands(body: str) -> list[Command]:
    commands: list[Command] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            commands.append(Command(shlex.split(line[2:])))
        elif line.strip() and line.strip() != "...":
            commands[-1].expected.append(_collapsed(line))
    return commands


def _collapsed(text: str) -> str:
    return "\n".join(" ".join(line.split()) for line in text.splitlines())


def run(command: Command, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    assert command.argv[0] == "mjdsl", f"the guide runs only mjdsl, not {command.argv[0]!r}"
    argv = [sys.executable, "-m", "dsl.cli", *command.argv[1:]]  # the installed command, from this tree
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def guide() -> list[Step]:
    return steps(GUIDE.read_text(encoding="utf-8"))


def test_guide_has_every_step(guide):
    commands = [c.argv[:2] for s in guide for c in s.commands]
    for wanted in (["mjdsl", "new"], ["mjdsl", "check"], ["mjdsl", "score"], ["mjdsl", "test"], ["mjdsl", "doc"]):
        assert wanted in commands, f"the guide never runs {' '.join(wanted)}"
    rules = next(s for s in guide if s.kind == "file")
    assert len(rules.text.splitlines()) < 30, "the variant itself should stay under 30 lines"
    for construct in ("extends sichuan", "replace fan ", "不计 ", "settle:"):
        assert construct in rules.text


def test_guide_commands_run_as_shown(guide, tmp_path, monkeypatch):
    import os
    env = {**os.environ, "MJDSL_CACHE": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")])}
    work = tmp_path / "work"
    work.mkdir()
    written: set[str] = set()
    for step in guide:
        if step.kind == "file":
            mode = "a" if step.path in written else "w"
            with open(work / step.path, mode, encoding="utf-8") as out:
                out.write(("\n" if mode == "a" else "") + step.text)
            written.add(step.path)
            continue
        for command in step.commands:
            done = run(command, work, env)
            output = _collapsed(done.stdout + done.stderr)
            shown = " ".join(command.argv)
            assert done.returncode == 0, f"`{shown}` exited {done.returncode}:\n{done.stdout}{done.stderr}"
            for fragment in command.expected:
                assert fragment in output, f"`{shown}` did not print {fragment!r}:\n{done.stdout}{done.stderr}"
    assert (work / "book" / "hometown.html").exists()


def test_readme_links_the_guide():
    readme = (SPECS_DIR.parent / "README.md").read_text(encoding="utf-8")
    assert "specs/README.md" in readme
