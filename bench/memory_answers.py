"""Memory answers through the whole chat: does the reply say what the memory knows?

    bash packaging/with-keyring.sh .venv/bin/python bench/memory_answers.py --json
    ... bench/memory_answers.py --part tune --limit 2     # a quick look
    ... bench/memory_answers.py --part scored --json      # the held-out part, reported alone

Scenarios live in tests/data/memory_answers/{tune,scored}.json. Each runs in its own fresh
DESKTOP_AGENT_HOME, and each of its sessions is a separate `desktop-agent chat --jsonl` process
(told in the first, corrected or forgotten in the second, asked in the third), so what is
measured is the real CLI path with the configured model (the bundled one unless --model).
A step is one of:

- ``{"say": TEXT}``: a chat message (also "forget that ..." and the "yes" that confirms it);
- ``{"forget": QUERY, "match": [FORM, ...]}``: forgetting through the CLI, as a user would:
  ``memory search QUERY --json``, then ``memory forget ID...`` of the semantic hits whose text
  carries one of the forms. When no fact matches, the words said: ``memory forget --about
  QUERY`` shows the sentences that say it, and when they carry one of the forms, ``--yes``
  forgets them (only those sentences, as the chat's "forget ..." does); else the matching
  episodes, whole;
- ``{"ask": TEXT, "category": C, "expect": [ITEM, ...], "stale": [ITEM, ...]}`` with optional
  ``"forgotten": [ITEM, ...]`` (values the user had forgotten), ``"memory": [ITEM, ...]`` (what
  the injected memories must carry; defaults to expect) and, for risk questions,
  ``"avoid": [FORM, ...]`` and ``"warn": [FORM, ...]``.

An ITEM is a form or a list of acceptable forms. Matching is case- and accent-insensitive, on
whole words after punctuation becomes spaces ("peanut-free" matches "peanut free"; "peanut"
does not match "peanuts", so list both). Per question:

- ``answer_correct``: every expected item is in the reply. With no expected item (forgotten):
  the reply carries no forgotten or stale item. Risk questions: the reply names nothing to avoid, or it
  warns (a warn form) — and carries the expected items, if any.
- ``stale_leak``: a forgotten value is mentioned, or a superseded ("stale") value is asserted,
  in the reply or in the text of any memory the reply used (``memories_used``). A superseded
  value under a negation in the three words before it ("you are not allergic to cats", "I
  don't live in Lisbon anymore") is not asserted; a forgotten value counts however it is
  mentioned. The rate is over the questions that list such values; the target is a count of
  0. A superseded value a "past" question expects is not stale for that question.
- ``injected_correct``: every item of "memory" (else "expect") is in some injected memory;
  questions with neither are not counted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "memory_answers"
PARTS = ("tune", "scored")
CATEGORIES = ("current", "corrected", "forgotten", "past", "risk")
PROCESS_TIMEOUT_S = 900
MEMORY_OFF = "memory is off for this chat"


class BenchError(Exception):
    """The bench cannot measure (no keyring, a broken CLI): one line, exit 2."""


# ---------------------------------------------------------------- matching and scoring


def normalise(text: str) -> str:
    """Lower case, no accents, punctuation as spaces, padded with spaces for word matching."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " " + " ".join(re.sub(r"[\W_]+", " ", text.lower()).split()) + " "


def forms(items: Iterable[str | Sequence[str]]) -> list[str]:
    """Every form of a list of items (an item is a form or a list of acceptable forms)."""
    return [form for item in items for form in ([item] if isinstance(item, str) else item)]


def has_form(text: str, form: str) -> bool:
    needle = normalise(form)
    return bool(needle.strip()) and needle in normalise(text)


def has_item(text: str, item: str | Sequence[str]) -> bool:
    return any(has_form(text, form) for form in forms([item]))


def forms_in(text: str, items: Iterable[str | Sequence[str]]) -> list[str]:
    return [form for form in forms(items) if has_form(text, form)]


# "not", "no (longer)", "never", and the "t" of "don't"/"isn't" once punctuation is a space.
NEGATIONS = {"not", "no", "never", "t", "nor"}
NEGATION_WINDOW = 3


def has_asserted_form(text: str, form: str) -> bool:
    """The form occurs at least once without a negation in the three words before it in its
    clause: "you are not allergic to cats" does not assert "cats"; "No, you live in Lisbon"
    asserts "Lisbon"."""
    needle = normalise(form)
    if not needle.strip():
        return False
    for clause in re.split(r"[.!?;:,\n]+", text):
        haystack = normalise(clause)
        start = haystack.find(needle)
        while start >= 0:
            if not NEGATIONS.intersection(haystack[:start].split()[-NEGATION_WINDOW:]):
                return True
            start = haystack.find(needle, start + 1)
    return False


def stale_forms_in(text: str, step: dict[str, Any]) -> list[str]:
    """Forgotten values mentioned at all, and superseded values asserted (not negated)."""
    gone = forms_in(text, step.get("forgotten", []))
    superseded = [f for f in forms(step.get("stale", [])) if has_asserted_form(text, f)]
    return gone + [f for f in superseded if f not in gone]


@dataclass(frozen=True, slots=True)
class Score:
    """How one reply (and the memories it used) fares against one question."""

    answer_correct: bool
    stale_leak: bool
    stale_checked: bool
    stale_in_reply: list[str]
    stale_in_memories: list[str]
    injected_correct: bool | None
    missing: list[str]
    risky: list[str]
    warned: bool


def score_question(step: dict[str, Any], reply: str, memories: Sequence[str]) -> Score:
    expect = step.get("expect", [])
    missing = [item for item in expect if not has_item(reply, item)]
    stale_in_reply = stale_forms_in(reply, step)
    stale_in_memories = sorted({form for text in memories for form in stale_forms_in(text, step)})
    risky = forms_in(reply, step.get("avoid", []))
    warned = bool(forms_in(reply, step.get("warn", [])))
    if "avoid" in step:
        correct = (not risky or warned) and not missing
    elif expect:
        correct = not missing
    else:  # forgotten: right when the reply does not state what was forgotten
        correct = not stale_in_reply
    wanted = step.get("memory", expect)
    injected = (
        all(any(has_item(text, item) for text in memories) for item in wanted) if wanted else None
    )
    return Score(
        answer_correct=correct,
        stale_leak=bool(stale_in_reply or stale_in_memories),
        stale_checked=bool(step.get("stale") or step.get("forgotten")),
        stale_in_reply=stale_in_reply,
        stale_in_memories=stale_in_memories,
        injected_correct=injected,
        missing=[" / ".join(forms([item])) for item in missing],
        risky=risky,
        warned=warned,
    )


def ratio(count: int, total: int) -> float | None:
    return round(count / total, 4) if total else None


def summarise(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures over some question results (the dicts ``run_scenario`` returns)."""
    checked = [r for r in results if r["stale_checked"]]
    injected = [r for r in results if r["injected_correct"] is not None]
    correct = sum(r["answer_correct"] for r in results)
    leaks = sum(r["stale_leak"] for r in results)
    injected_ok = sum(bool(r["injected_correct"]) for r in injected)
    return {
        "n": len(results),
        "answer_correct": ratio(correct, len(results)),
        "answer_correct_count": correct,
        "stale_leak": ratio(leaks, len(checked)),
        "stale_leak_count": leaks,
        "stale_leak_in_reply_count": sum(bool(r["stale_in_reply"]) for r in results),
        "stale_leak_in_memories_count": sum(bool(r["stale_in_memories"]) for r in results),
        "stale_checked": len(checked),
        "injected_correct": ratio(injected_ok, len(injected)),
        "injected_correct_count": injected_ok,
        "injected_checked": len(injected),
        "errors": sum(r["error"] is not None for r in results),
    }


def summarise_by(results: Sequence[dict[str, Any]], key: str) -> dict[str, Any]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for result in results:
        groups.setdefault(result[key], []).append(result)
    order = {name: i for i, name in enumerate((*PARTS, *CATEGORIES))}
    return {
        name: summarise(group)
        for name, group in sorted(groups.items(), key=lambda kv: order.get(kv[0], 99))
    }


# ---------------------------------------------------------------- data


def load_part(part: str, folder: Path = DATA) -> list[dict[str, Any]]:
    path = folder / f"{part}.json"
    scenarios = json.loads(path.read_text(encoding="utf-8"))["scenarios"]
    for scenario in scenarios:
        check_scenario(scenario, path)
    return scenarios


def check_scenario(scenario: dict[str, Any], path: Path | str = "scenario") -> None:
    where = f"{path}: {scenario.get('id')}"
    if not scenario.get("id") or not scenario.get("sessions"):
        raise BenchError(f"{where}: a scenario needs an id and sessions")
    for step in (step for session in scenario["sessions"] for step in session):
        kinds = [k for k in ("say", "forget", "ask") if k in step]
        if len(kinds) != 1:
            raise BenchError(f"{where}: a step is one of say, forget, ask: {step}")
        if "forget" in step and not step.get("match"):
            raise BenchError(f"{where}: a forget step needs match forms: {step}")
        if "ask" in step and step.get("category") not in CATEGORIES:
            raise BenchError(f"{where}: category must be one of {CATEGORIES}: {step}")


# ---------------------------------------------------------------- running the real CLI


def cli_command() -> list[str]:
    """The installed `desktop-agent` script beside this Python, else `python -m desktop_agent`."""
    script = Path(sys.executable).parent / "desktop-agent"
    return [str(script)] if script.exists() else [sys.executable, "-m", "desktop_agent"]


@dataclass
class Cli:
    """Runs `desktop-agent` as a subprocess with its own DESKTOP_AGENT_HOME."""

    home: Path
    model: str | None = None
    timeout: float = PROCESS_TIMEOUT_S

    def run(self, args: Sequence[str], stdin: str | None = None) -> subprocess.CompletedProcess:
        env = {**os.environ, "DESKTOP_AGENT_HOME": str(self.home)}
        env.pop("DESKTOP_AGENT_PASSPHRASE", None)  # the bench measures the keyring set-up
        try:
            return subprocess.run(
                [*cli_command(), *args],
                input=stdin,
                capture_output=True,
                text=True,
                timeout=self.timeout,
                env=env,
                cwd=ROOT,
            )
        except subprocess.TimeoutExpired as exc:
            raise BenchError(
                f"`desktop-agent {' '.join(args[:2])}` took over {exc.timeout} s"
            ) from exc

    def chat(self, messages: Sequence[str]) -> tuple[dict[int, dict[str, Any]], str | None]:
        """Send messages in one process; returns replies by message index and how it exited
        when that was not cleanly (a crash after the replies were printed still counts them)."""
        args = ["chat", "--jsonl", *(["--model", self.model] if self.model else [])]
        stdin = "".join(json.dumps(message) + "\n" for message in messages)
        done = self.run(args, stdin)
        if MEMORY_OFF in done.stderr:
            raise BenchError(_last_line(done.stderr))
        replies: dict[int, dict[str, Any]] = {}
        for line in done.stdout.splitlines():
            # Only the JSON replies: a native crash handler may print a backtrace on stdout.
            if line.startswith("{"):
                item = json.loads(line)
                replies[int(item["line"]) - 1] = item
        problem = None
        if done.returncode not in (0, 1) or len(replies) < len(messages):
            problem = f"chat exited {done.returncode}: {_stderr_cause(done.stderr)}"
        return replies, problem

    def forget(self, query: str, match: Sequence[str]) -> dict[str, Any]:
        """Forget like a user: search, then forget the hits that say the thing."""
        found = self.run(["memory", "search", query, "--json", "--limit", "20"])
        lines = [line for line in found.stdout.splitlines() if line.startswith("{")]
        if not lines:
            cause = _stderr_cause(found.stderr)
            return {"forget": query, "forgotten": 0, "error": f"search failed: {cause}"}
        ids, fallback = choose_forget(json.loads(lines[0])["hits"], match)
        note: dict[str, Any] = {"forget": query, "forgotten": len(ids), "episodes_only": fallback}
        if found.returncode != 0:  # answered, then failed (a crash at exit)
            note["search_exit"] = f"exited {found.returncode}: {_stderr_cause(found.stderr)}"
        if fallback and self._forget_sentences(query, match, note):
            return note
        if ids:
            done = self.run(["memory", "forget", *ids, "--json"])
            if done.returncode != 0:
                note["error"] = f"forget exited {done.returncode}: {_stderr_cause(done.stderr)}"
        return note

    def _forget_sentences(self, query: str, match: Sequence[str], note: dict[str, Any]) -> bool:
        """``memory forget --about``: shown first, forgotten when what it shows says the thing."""
        shown = self.run(["memory", "forget", "--about", query, "--json"])
        lines = [line for line in shown.stdout.splitlines() if line.startswith("{")]
        if shown.returncode != 0 or not lines:
            return False
        if not says_forgotten(json.loads(lines[0]).get("sentences", []), match):
            return False
        done = self.run(["memory", "forget", "--about", query, "--yes", "--json"])
        note["sentences_only"] = True
        if done.returncode != 0:
            note["error"] = f"forget exited {done.returncode}: {_stderr_cause(done.stderr)}"
        return True


def says_forgotten(sentences: Sequence[str], match: Sequence[str]) -> bool:
    """Whether the sentences ``memory forget --about`` offers carry one of the forms."""
    return any(forms_in(sentence, match) for sentence in sentences)


def choose_forget(hits: Sequence[dict[str, Any]], match: Sequence[str]) -> tuple[list[str], bool]:
    """The ids a user would pick: matching facts; matching episodes only when no fact matches."""
    matching = [hit for hit in hits if forms_in(hit["text"], match)]
    facts = [hit for hit in matching if hit["kind"] != "episodic"]
    chosen = facts or matching
    ids = list(dict.fromkeys(hit["memory_id"] for hit in chosen))
    return ids, bool(matching) and not facts


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no message)"


def _stderr_cause(text: str) -> str:
    """The line of a crash's stderr that names it, not the backtrace's last frame."""
    for marker in ("terminate called", "Segmentation fault", "Fatal Python error", "error:"):
        for line in text.splitlines():
            if marker in line:
                return line.strip()
    return _last_line(text)


def keyring_problem(cli: Cli) -> str | None:
    """Why the vault could not use the OS keyring here, from `desktop-agent doctor`; or None."""
    done = cli.run(["doctor", "--json"])
    try:
        checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    except (json.JSONDecodeError, KeyError, TypeError):
        return f"`desktop-agent doctor` failed: {_last_line(done.stderr)}"
    check = checks.get("keyring")
    return None if check is None or check["ok"] else check["detail"]


def run_session(cli: Cli, steps: Sequence[dict[str, Any]], scenario: dict[str, Any], part: str):
    """One session: chat steps go to one process; a CLI forget runs its own commands.

    Returns (question results, setup notes)."""
    results: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []

    def flush() -> None:
        if not pending:
            return
        replies, problem = cli.chat([step.get("say") or step["ask"] for step in pending])
        if problem:
            notes.append({"chat_exit": problem, "replies": len(replies), "messages": len(pending)})
        for index, step in enumerate(pending):
            reply = replies.get(index, {})
            error = reply.get("error") or (None if reply else problem or "no reply")
            if error and "ask" not in step:
                notes.append({"say": step["say"], "error": error})
            if "ask" in step:
                results.append(question_result(step, reply, error, scenario["id"], part))
        pending.clear()

    for step in steps:
        if "forget" in step:
            flush()
            notes.append(cli.forget(step["forget"], step["match"]))
        else:
            pending.append(step)
    flush()
    return results, notes


def question_result(
    step: dict[str, Any], reply: dict[str, Any], error: str | None, scenario_id: str, part: str
) -> dict[str, Any]:
    text = reply.get("reply", "")
    memories = [m.get("text", "") for m in reply.get("memories_used", [])]
    score = score_question(step, text, memories)
    if error:  # no reply is never a right answer
        injected = None if score.injected_correct is None else False
        score = Score(**{**asdict(score), "answer_correct": False, "injected_correct": injected})
    return {
        "scenario": scenario_id,
        "part": part,
        "category": step["category"],
        "ask": step["ask"],
        "reply": text,
        "memories_used": memories,
        "model": reply.get("model"),
        "error": error,
        **asdict(score),
    }


def run_scenario(
    scenario: dict[str, Any], part: str, *, model: str | None = None, keep: bool = False
) -> dict[str, Any]:
    """Run every session of one scenario in a fresh home; returns its questions and notes."""
    home = Path(tempfile.mkdtemp(prefix=f"memory-answers-{scenario['id']}-"))
    cli = Cli(home, model=model)
    questions: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    started = time.perf_counter()
    try:
        for session in scenario["sessions"]:
            session_questions, session_notes = run_session(cli, session, scenario, part)
            questions += session_questions
            notes += session_notes
    finally:
        if not keep:
            shutil.rmtree(home, ignore_errors=True)
    return {
        "id": scenario["id"],
        "part": part,
        "home": str(home) if keep else None,
        "seconds": round(time.perf_counter() - started, 1),
        "questions": questions,
        "notes": notes,
    }


# ---------------------------------------------------------------- report


def report(runs: Sequence[dict[str, Any]], seconds: float, details: bool) -> dict[str, Any]:
    questions = [q for run in runs for q in run["questions"]]
    notes = [note for run in runs for note in run["notes"]]
    forgets = [note for note in notes if "forget" in note]
    by_part = {
        part: {
            "overall": summarise([q for q in questions if q["part"] == part]),
            "by_category": summarise_by([q for q in questions if q["part"] == part], "category"),
        }
        for part in dict.fromkeys(run["part"] for run in runs)
    }
    body: dict[str, Any] = {
        "bench": "memory_answers",
        "model": next((q["model"] for q in questions if q["model"]), None),
        "scenarios": len(runs),
        "questions": len(questions),
        "seconds": round(seconds, 1),
        "seconds_per_scenario": round(seconds / len(runs), 1) if runs else None,
        "targets": {"answer_correct": ">= 0.90", "stale_leak_count": "0"},
        "overall": summarise(questions),
        "by_part": by_part,
        "by_category": summarise_by(questions, "category"),
        "setup": {
            "cli_forgets": len(forgets),
            "cli_forgets_that_found_nothing": sum(note["forgotten"] == 0 for note in forgets),
            "cli_forgets_of_episodes_only": sum(
                bool(note.get("episodes_only")) for note in forgets
            ),
            "chat_processes_exited_abnormally": sum("chat_exit" in note for note in notes),
            "chat_exit_causes": sorted(
                {note["chat_exit"] for note in notes if "chat_exit" in note}
            ),
            "step_errors": [note for note in notes if note.get("error")],
        },
    }
    if details:
        body["details"] = list(runs)
    return body


def emit(body: dict[str, Any], *, as_json: bool) -> int:
    """Print the report: one JSON object, or the table."""
    if as_json:
        print(json.dumps(body, ensure_ascii=False, indent=1))
    else:
        print_table(body)
    return 0


def print_table(body: dict[str, Any]) -> None:
    def row(name: str, s: dict[str, Any]) -> str:
        return (
            f"{name:<18} {s['n']:>4}  {s['answer_correct_count']:>3} "
            f"({_pct(s['answer_correct'])})  {s['stale_leak_count']:>3}/{s['stale_checked']:<3} "
            f"{s['injected_correct_count']:>3}/{s['injected_checked']:<3} ({_pct(s['injected_correct'])})"
        )

    print(f"{body['scenarios']} scenarios, {body['questions']} questions, {body['seconds']} s")
    print(f"{'':<18} {'n':>4}  {'correct':<11}  {'stale':<7} injected (of checked)")
    print(row("overall", body["overall"]))
    for part, figures in body["by_part"].items():
        print(row(part, figures["overall"]))
        for category, s in figures["by_category"].items():
            print(row(f"  {category}", s))


def _pct(value: float | None) -> str:
    return "  -  " if value is None else f"{value * 100:4.0f}%"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--part", choices=(*PARTS, "all"), default="all")
    parser.add_argument(
        "--limit", type=int, metavar="N", help="only the first N scenarios of each part"
    )
    parser.add_argument("--details", action="store_true", help="include every reply in the JSON")
    parser.add_argument("--keep", action="store_true", help="keep each scenario's home folder")
    parser.add_argument(
        "--model", metavar="PATH", help="chat model (.gguf) instead of the bundled one"
    )
    parser.add_argument(
        "--data", type=Path, default=DATA, help="folder of tune.json and scored.json"
    )
    parser.add_argument(
        "--rescore",
        type=Path,
        metavar="FILE",
        help="score again the replies of an earlier --json --details output (no chat is run)",
    )
    args = parser.parse_args(argv)
    parts = PARTS if args.part == "all" else (args.part,)
    try:
        if args.rescore:
            return rescore(args)
        return run(args, parts)
    except BenchError as error:
        print(f"memory_answers: error: {error}", file=sys.stderr)
        return 2


def run(args: argparse.Namespace, parts: Sequence[str]) -> int:
    todo = [(part, s) for part in parts for s in load_part(part, args.data)[: args.limit]]
    with tempfile.TemporaryDirectory(prefix="memory-answers-doctor-") as home:
        problem = keyring_problem(Cli(Path(home)))
    if problem:
        raise BenchError(
            f"no OS keyring reachable ({problem}); run under "
            "`bash packaging/with-keyring.sh .venv/bin/python bench/memory_answers.py`"
        )
    started = time.perf_counter()
    runs = []
    for number, (part, scenario) in enumerate(todo, 1):
        run_ = run_scenario(scenario, part, model=args.model, keep=args.keep)
        runs.append(run_)
        asked = run_["questions"]
        print(
            f"[{number}/{len(todo)}] {part} {scenario['id']}: "
            f"{sum(q['answer_correct'] for q in asked)}/{len(asked)} correct, "
            f"{sum(q['stale_leak'] for q in asked)} stale, "
            f"{sum(q['error'] is not None for q in asked)} without a reply, {run_['seconds']} s",
            file=sys.stderr,
            flush=True,
        )
    body = report(runs, time.perf_counter() - started, args.details)
    return emit(body, as_json=args.json)


def rescore(args: argparse.Namespace) -> int:
    """The replies and memories of a saved run, scored with today's data and scorer."""
    saved = json.loads(args.rescore.read_text(encoding="utf-8"))
    if "details" not in saved:
        raise BenchError(f"{args.rescore} has no details: make it with --json --details")
    steps = {
        (scenario["id"], step["ask"]): step
        for part in PARTS
        for scenario in load_part(part, args.data)
        for session in scenario["sessions"]
        for step in session
        if "ask" in step
    }
    runs = []
    for run_ in saved["details"]:
        questions = []
        for q in run_["questions"]:
            step = steps.get((q["scenario"], q["ask"]))
            if step is None:
                raise BenchError(f"{q['scenario']}: no such question now: {q['ask']!r}")
            reply = {"reply": q["reply"], "model": q["model"]}
            reply["memories_used"] = [{"text": text} for text in q["memories_used"]]
            questions.append(question_result(step, reply, q["error"], q["scenario"], q["part"]))
        runs.append({**run_, "questions": questions})
    body = report(runs, saved["seconds"], args.details)
    body["rescored_from"] = str(args.rescore)
    return emit(body, as_json=args.json)


if __name__ == "__main__":
    sys.exit(main())
