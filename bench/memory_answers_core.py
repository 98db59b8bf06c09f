"""Memory answers through the core alone: the same scenarios and scores as memory_answers.py, in
one process, with a scripted engine instead of the model.

    .venv/bin/python bench/memory_answers_core.py --part tune --json
    .venv/bin/python bench/memory_answers_core.py --data /tmp/batch --part tune --details

Each scenario gets a fresh vault in a temp folder (an in-memory keyring, real AES-GCM, real
LanceDB) and the real all-MiniLM-L6-v2 embedder; each session reopens the vault as a restart
would; a CLI forget is the same search-then-forget the CLI runs. What it measures is the memory
layer: what is learned, corrected and forgotten, and the grounded answer the core composes
(with the bundled model the core's answer is the reply to a question about the user). What it
does not measure is the model: a question the core leaves to the model gets the scripted
engine's echo, so risk warnings on a model's suggestion and answers the model adds are
memory_answers.py's to measure. The whole tuning part takes about two minutes here instead of
a hundred and sixty, so a rule can be checked against every scenario before it is committed;
the figures match memory_answers.py's on the questions the core answers (batch 28: 7/26 and 3
leaks in both).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.memory_answers import (  # noqa: E402
    DATA,
    PARTS,
    choose_forget,
    emit,
    load_part,
    question_result,
    report,
    says_forgotten,
)


def run_scenario(scenario: dict[str, Any], part: str, embedder: Any, backend: Any) -> dict:
    from desktop_agent.core.assistant import Assistant
    from desktop_agent.core.forget_request import forget_offered, offer_to_forget
    from desktop_agent.core.memory_service import MemoryService
    from desktop_agent.llm import GenerationSettings
    from desktop_agent.llm.fake import ScriptedEngine
    from desktop_agent.memory import Vault
    from desktop_agent.secrets import KeyringKeySource

    started = time.perf_counter()
    questions: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix=f"memory-core-{scenario['id']}-") as home:
        for session in scenario["sessions"]:
            vault = Vault.open(Path(home) / "vault", KeyringKeySource(backend))
            try:
                memory = MemoryService(vault, embedder)
                assistant = Assistant(
                    ScriptedEngine(), GenerationSettings(max_tokens=48), memory=memory
                )
                conversation = assistant.start_conversation()
                for step in session:
                    if "forget" in step:
                        hits = memory.search(step["forget"], limit=20, include_superseded=True)
                        ids, only_episodes = choose_forget(
                            [h.as_json() for h in hits], step["match"]
                        )
                        # as the CLI's `memory forget --about`: the sentences that say it
                        # (only when no fact matched: that is when a user would ask for it)
                        offer = offer_to_forget(memory, step["forget"]) if only_episodes else None
                        if offer and offer.said and says_forgotten(offer.lines(), step["match"]):
                            forget_offered(memory, offer)
                            ids = []
                        if ids:
                            memory.forget(ids)
                        notes.append(
                            {
                                "forget": step["forget"],
                                "forgotten": len(ids),
                                "episodes_only": only_episodes,
                            }
                        )
                        continue
                    turn = assistant.send(conversation, step.get("say") or step["ask"])
                    for _ in turn:
                        pass
                    reply = turn.finish()
                    if "ask" in step:
                        said = {
                            "reply": reply.text,
                            "memories_used": [{"text": m.item.text} for m in reply.memories_used],
                            "model": "scripted (core only)",
                        }
                        questions.append(question_result(step, said, None, scenario["id"], part))
            finally:
                vault.close()
    seconds = round(time.perf_counter() - started, 1)
    return {"id": scenario["id"], "part": part, "home": None, "seconds": seconds,
            "questions": questions, "notes": notes}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--part", choices=(*PARTS, "all"), default="all")
    parser.add_argument("--details", action="store_true", help="include every reply in the JSON")
    parser.add_argument(
        "--data", type=Path, default=DATA, help="folder of tune.json and scored.json"
    )
    args = parser.parse_args(argv)
    logging.disable(logging.CRITICAL)
    import keyring

    from desktop_agent.core.extraction_fallback import use_embedder
    from desktop_agent.embed import OnnxEmbedder, SentenceEmbedder
    from desktop_agent.secrets.memory_backend import InMemoryKeyring

    backend = InMemoryKeyring()
    keyring.set_keyring(backend)
    embedder = OnnxEmbedder(threads=1) if OnnxEmbedder.available() else SentenceEmbedder()
    use_embedder(embedder)  # the statement classifier, as the app shares it
    parts = PARTS if args.part == "all" else (args.part,)
    started = time.perf_counter()
    runs = [
        run_scenario(scenario, part, embedder, backend)
        for part in parts
        for scenario in load_part(part, args.data)
    ]
    body = report(runs, time.perf_counter() - started, args.details)
    body["bench"] = "memory_answers_core"
    return emit(body, as_json=args.json)


if __name__ == "__main__":
    sys.exit(main())
