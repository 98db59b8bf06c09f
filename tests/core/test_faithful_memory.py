"""The reply is faithful to the memory: what was forgotten or corrected never reaches a prompt
or a reply, questions are not evidence, questions about the user are answered from the facts,
and a remembered risk is never contradicted."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat, replying_in_turn


def every_prompt(engine: ScriptedEngine) -> str:
    return "\n".join(m.content for prompt in engine.prompts for m in prompt)


# --- forgetting reaches every prompt ----------------------------------------------------------


def test_forgetting_a_fact_erases_the_words_it_came_from(
    open_memory: Callable[[], MemoryService],
) -> None:
    # Given a fact learned from a message that also said something else
    memory = open_memory()
    assistant = Assistant(ScriptedEngine(), GenerationSettings(), memory=memory)
    told = chat(
        assistant,
        assistant.start_conversation(),
        "My name is Dana. I work as a veterinary nurse at an animal hospital.",
    )
    job = next(m for m in told.learned if m.subject_key == "job")
    name = next(m for m in told.learned if m.subject_key == "name")

    # When the user forgets the job (the preview says what else it touches)
    preview = memory.forget_preview([job.id])
    assert preview.redacted == (told.episode_id,)
    assert preview.describe() == "and 1 message it came from"
    receipt = memory.forget([job.id])

    # Then the source message keeps the name but not the job, in every version
    assert receipt.redacted == (told.episode_id,)
    episode = memory.item(told.episode_id)
    assert "veterinary" not in episode.text and "nurse" not in episode.text
    assert "My name is Dana." in episode.user_text and "[forgotten]" in episode.user_text
    assert all("nurse" not in v.text for v in memory.history(told.episode_id))
    # and the surviving fact still points at its own words
    (source,) = memory.item(name.id).provenance
    assert "Dana" in episode.user_text[source.start : source.end]

    # And a new session asked about the job neither knows nor injects it
    engine = ScriptedEngine()
    later = Assistant(engine, GenerationSettings(), memory=open_memory())
    answer = chat(later, later.start_conversation(), "What is my job?")
    assert "nurse" not in answer.text and "don't know" in answer.text
    assert all("nurse" not in r.item.text for r in answer.memories_used)
    chat(later, later.start_conversation(), "Any tips for someone who works with animals?")
    assert "nurse" not in every_prompt(engine)


def test_forgetting_one_of_two_facts_from_one_clause_keeps_the_other(
    assistant: Assistant,
) -> None:
    told = chat(
        assistant, assistant.start_conversation(), "I'm allergic to peanuts and penicillin."
    )
    memory = assistant.memory
    allergies = {m.text: m for m in memory.items("semantic")}
    assert len(allergies) == 2
    penicillin = next(m for t, m in allergies.items() if "penicillin" in t)
    memory.forget([penicillin.id])
    episode = memory.item(told.episode_id)
    assert "penicillin" not in episode.text and "peanuts" in episode.user_text
    peanut = next(m for m in memory.items("semantic") if "peanut" in m.text)
    (source,) = peanut.provenance
    assert "peanuts" in episode.user_text[source.start : source.end]


def test_the_reply_that_repeated_a_forgotten_fact_is_redacted_too(memory: MemoryService) -> None:
    engine = ScriptedEngine(lambda messages: "Lisbon is lovely. How can I help?")
    assistant = Assistant(engine, GenerationSettings(), memory=memory)
    told = chat(assistant, assistant.start_conversation(), "I live in Lisbon.")
    (fact,) = told.learned
    memory.forget([fact.id])
    episode = memory.item(told.episode_id)
    assert "Lisbon" not in episode.text
    assert episode.reply_text == "[forgotten] How can I help?"


def test_an_edited_fact_keeps_its_source_out_of_prompts_and_answers(
    assistant: Assistant, engine: ScriptedEngine
) -> None:
    memory = assistant.memory
    told = chat(
        assistant, assistant.start_conversation(), "Hi! My name is Dana and I live in Lisbon."
    )
    city = next(m for m in told.learned if m.subject_key == "home_city")
    memory.edit(city.id, text="User lives in Porto")
    engine.prompts.clear()

    answer = chat(assistant, assistant.start_conversation(), "Which city do I live in?")
    assert answer.text == "You live in Porto."
    assert all("Lisbon" not in r.item.text for r in answer.memories_used)
    chat(assistant, assistant.start_conversation(), "Name a good cafe near my home")
    assert "Lisbon" not in every_prompt(engine)


def test_topics_are_rebuilt_after_an_edit_and_a_forget(memory: MemoryService) -> None:
    from desktop_agent.core.consolidation import consolidate

    city = memory.remember("User lives in Lisbon", subject_key="home_city")
    memory.remember("User's name is Dana", subject_key="name")
    consolidate(memory)
    (about,) = [t for t in memory.items("topic") if t.active]
    assert "Lisbon" in about.text

    memory.edit(city.id, text="User lives in Porto")
    (about,) = [t for t in memory.items("topic") if t.active]
    assert "Porto" in about.text and "Lisbon" not in about.text

    memory.forget([city.id])
    (about,) = [t for t in memory.items("topic") if t.active]
    assert "Porto" not in about.text and "Dana" in about.text
    assert all("Porto" not in v.text for v in memory.history(about.id))


# --- questions are not knowledge -----------------------------------------------------------------


def test_a_stored_question_never_outranks_the_statement_that_answers_it(
    assistant: Assistant,
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "What is my name and which city do I live in?")
    chat(assistant, conversation, "My name is Dana and I live in Lisbon.")

    found = assistant.memory.search("What is my name and which city do I live in?", limit=5)
    kinds = [(r.item.kind, r.hit.question) for r in found]
    first_question = kinds.index(("episodic", True))
    assert all(not question for _kind, question in kinds[:first_question])
    assert all(question for _kind, question in kinds[first_question:])

    engine = ScriptedEngine()
    other = Assistant(engine, GenerationSettings(), memory=assistant.memory)
    reply = chat(other, other.start_conversation(), "Remind me about the city I live in, please")
    assert all(not r.hit.question for r in reply.memories_used)
    assert "which city do I live in" not in every_prompt(engine)


def test_the_assistants_past_replies_are_never_shown_as_evidence(memory: MemoryService) -> None:
    engine = ScriptedEngine(lambda messages: "As a jazz musician, you should try Oslo.")
    assistant = Assistant(engine, GenerationSettings(), memory=memory)
    chat(assistant, assistant.start_conversation(), "I'm planning a trip to Oslo in May.")
    chat(assistant, assistant.start_conversation(), "Ideas for my Oslo trip in May")
    assert "Oslo" in every_prompt(engine)
    system = engine.prompts[-1][0].content
    assert "jazz" not in system


# --- grounded answers --------------------------------------------------------------------------


def test_questions_about_the_user_are_answered_from_the_facts(assistant: Assistant) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "I'm allergic to peanuts and penicillin.")
    chat(assistant, conversation, "My sister is called Ana.")

    allergies = chat(assistant, assistant.start_conversation(), "What am I allergic to?")
    assert "peanuts" in allergies.text and "penicillin" in allergies.text
    assert allergies.text.startswith("You are allergic to")
    assert {r.item.id for r in allergies.memories_used} <= {
        m.id for m in assistant.memory.items("semantic")
    }
    sister = chat(assistant, assistant.start_conversation(), "What's my sister's name?")
    assert "Ana" in sister.text
    unknown = chat(assistant, assistant.start_conversation(), "What's my brother's name?")
    assert "don't know" in unknown.text and "Ana" not in unknown.text
    everything = chat(assistant, assistant.start_conversation(), "What do you know about me?")
    assert "peanuts" in everything.text and "Ana" in everything.text


def test_a_question_about_the_past_uses_the_superseded_fact_with_its_date(
    assistant: Assistant,
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "I live in Lisbon.")
    chat(assistant, conversation, "Actually, I moved to Porto last month.")

    now = chat(assistant, assistant.start_conversation(), "Where do I live now?")
    assert now.text == "You live in Porto."
    before = chat(assistant, assistant.start_conversation(), "Where did I live before I moved?")
    assert "you used to live in Lisbon (until" in before.text and "Porto" in before.text
    assert any(r.item.status == "superseded" for r in before.memories_used)


def test_a_capable_models_answer_is_kept_only_when_it_names_the_current_value(
    memory: MemoryService,
) -> None:
    memory.remember("User lives in Lisbon", subject_key="home_city")
    memory.remember("User lives in Porto", subject_key="home_city")

    def answering(text: str) -> Assistant:
        engine = ScriptedEngine(lambda messages: text)
        return Assistant(engine, GenerationSettings(), memory=memory, answer_mode="model")

    good = answering("You live in Porto, by the sea.")
    assert chat(good, good.start_conversation(), "Where do I live?").text.startswith(
        "You live in Porto, by the sea"
    )
    stale = answering("You live in Lisbon.")
    assert chat(stale, stale.start_conversation(), "Where do I live?").text == "You live in Porto."
    vague = answering("I am not sure where you live.")
    assert chat(vague, vague.start_conversation(), "Where do I live?").text == "You live in Porto."


# --- risks -----------------------------------------------------------------------------------------


def _cook(memory: MemoryService, replies: Sequence[str]) -> tuple[str, list[str]]:
    memory.remember("User is allergic to peanuts", type="risk", subject_key="allergy:peanut")
    engine, systems = replying_in_turn(replies)
    assistant = Assistant(engine, GenerationSettings(), memory=memory)
    answer = chat(assistant, assistant.start_conversation(), "What should I cook tonight?")
    return answer.text, systems


def test_a_reply_that_breaks_a_risk_is_regenerated_with_the_risk_stated(
    memory: MemoryService,
) -> None:
    text, systems = _cook(
        memory, ["Try peanut butter sandwiches.", "Try a lentil curry with rice."]
    )
    assert text == "Try a lentil curry with rice."
    assert len(systems) == 2 and "allergic to peanuts" in systems[1].split("\n\n")[0]


def test_a_reply_that_still_breaks_a_risk_gets_a_warning_naming_the_memory(
    memory: MemoryService,
) -> None:
    text, systems = _cook(memory, ["Peanut noodles are great.", "Satay chicken it is."])
    assert text.startswith("Satay chicken it is.")
    assert text.splitlines()[-1] == (
        "⚠ Careful: you are allergic to peanuts, and this reply suggests something you should avoid."
    )


def test_a_reply_that_respects_the_risk_is_shown_as_it_is(memory: MemoryService) -> None:
    text, systems = _cook(memory, ["A peanut-free stir fry: no peanuts at all."])
    assert text == "A peanut-free stir fry: no peanuts at all." and len(systems) == 1


def test_a_reply_that_only_says_not_to_gets_the_reason(memory: MemoryService) -> None:
    # "not" keeps the check quiet, but the user is not told why: the reminder says it
    text, systems = _cook(memory, ["You should not cook peanuts."])
    assert text.startswith("You should not cook peanuts.") and len(systems) == 1
    assert "Remember" in text and "allergic to peanuts" in text


def test_a_regenerated_reply_that_only_says_not_to_gets_the_reason(
    memory: MemoryService,
) -> None:
    text, systems = _cook(memory, ["Try peanut butter toast.", "You should not cook peanuts."])
    assert len(systems) == 2 and text.startswith("You should not cook peanuts.")
    assert "allergic to peanuts" in text


def test_a_question_about_someone_else_finds_their_fact(memory: MemoryService) -> None:
    memory.remember("User lives in Leeds", subject_key="home_city")
    memory.remember("User's sister Ana lives in Rome", subject_key="sister:home_city")
    assistant = Assistant(ScriptedEngine(), GenerationSettings(), memory=memory)
    sister = chat(assistant, assistant.start_conversation(), "Where does my sister live?")
    assert sister.text == "Your sister Ana lives in Rome."
    mine = chat(assistant, assistant.start_conversation(), "Where do I live?")
    assert mine.text == "You live in Leeds."


def test_a_risk_that_matters_is_in_the_prompt_and_the_lens(memory: MemoryService) -> None:
    text, systems = _cook(memory, ["A lentil curry with rice."])
    assert "The user is allergic to peanuts" in systems[0]


def test_asking_about_what_a_risk_rules_out_gets_a_reminder(memory: MemoryService) -> None:
    memory.remember("User is allergic to penicillin", type="risk", subject_key="allergy:penicillin")
    engine = ScriptedEngine(lambda messages: "Rest and drink plenty of fluids.")
    assistant = Assistant(engine, GenerationSettings(), memory=memory)
    reply = chat(
        assistant,
        assistant.start_conversation(),
        "I've got a nasty chest infection, would penicillin help?",
    )
    assert reply.text.startswith("Rest and drink plenty of fluids.")
    assert reply.text.splitlines()[-1] == "⚠ Remember: you are allergic to penicillin."
    assert any("penicillin" in r.item.text for r in reply.memories_used)


def test_a_reply_that_only_says_avoid_the_named_thing_still_gets_the_reason(
    memory: MemoryService,
) -> None:
    memory.remember("User is allergic to ibuprofen", type="risk", subject_key="allergy:ibuprofen")
    said = "It's not a bad idea, but avoid taking ibuprofen if your gums bleed."
    assistant = Assistant(
        ScriptedEngine(lambda messages: said), GenerationSettings(), memory=memory
    )
    reply = chat(
        assistant,
        assistant.start_conversation(),
        "I have a bad headache, can I take some ibuprofen?",
    )
    assert reply.text.startswith(said)
    assert "you are allergic to ibuprofen" in reply.text.splitlines()[-1]


def test_forgetting_a_named_thing_offers_it_and_what_was_said_of_it_by_name_only(
    assistant: Assistant,
) -> None:
    # Given a message with two facts, and a later one that names one of them
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "My dentist is Dr Okafor and my gym is called Iron Temple.")
    chat(assistant, conversation, "I go to Iron Temple on Mondays and Thursdays.")

    # When the user asks to forget the gym
    offer = chat(assistant, conversation, "please forget my gym").text

    # Then the gym and what was said of it by name are offered, and the dentist is not
    assert "Iron Temple" in offer and "Mondays" in offer
    assert "Okafor" not in offer and "dentist" not in offer
    chat(assistant, conversation, "yes")
    texts = [i.text for i in assistant.memory.active_facts()]
    assert any("Okafor" in t for t in texts)
    assert not any("Iron Temple" in t for t in texts)


def test_forgetting_something_never_named_offers_no_unrelated_fact(assistant: Assistant) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "My sister Hannah is a pilot.")
    offer = chat(assistant, conversation, "forget my phone number").text
    assert "Hannah" not in offer and "pilot" not in offer


def test_a_forgotten_fact_leaves_no_trace_in_the_conversation_title(
    open_memory: Callable[[], MemoryService],
) -> None:
    # Given a chat opened with a fact and continued
    memory = open_memory()
    assistant = Assistant(ScriptedEngine(), GenerationSettings(), memory=memory)
    conversation = assistant.start_conversation()
    told = chat(assistant, conversation, "I work as a veterinary nurse.")
    chat(assistant, conversation, "Any tips for a long weekend?")
    job = next(m for m in told.learned if m.subject_key == "job")

    # When the fact is forgotten
    memory.forget([job.id])

    # Then no stored title, and the list after a restart, says the words
    later = open_memory()
    assert all(
        "nurse" not in str((e.meta or {}).get("title")) for e in later.episodes(conversation.id)
    )
    (summary,) = later.conversations()
    assert "nurse" not in summary.title and "veterinary" not in summary.title


def test_a_title_the_user_chose_is_kept_with_every_exchange(assistant: Assistant) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "Hello there")
    assistant.rename_conversation(conversation.id, "Weekend plans")
    chat(assistant, conversation, "Any tips for a long weekend?")
    (summary,) = assistant.memory.conversations()
    assert summary.title == "Weekend plans"


@pytest.mark.parametrize(
    ("told", "asked", "offered", "kept"),
    [
        (
            "I take sertraline every morning for anxiety.",
            "please don't remember anything about my medication",
            "sertraline",
            "Skye",
        ),
        (
            "I earn about 52k a year.",
            "Can you delete what I said about my salary?",
            "52k",
            "Skye",
        ),
    ],
)
def test_forgetting_by_the_slot_a_fact_fills(
    assistant: Assistant, told: str, asked: str, offered: str, kept: str
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, told)
    chat(assistant, conversation, "I've got a border collie named Skye.")
    offer = chat(assistant, conversation, asked).text
    assert offered in offer and kept not in offer
    chat(assistant, conversation, "yes")
    texts = " ".join(i.text for i in assistant.memory.active_facts())
    assert offered not in texts and kept in texts


@pytest.mark.parametrize(
    ("told", "asked", "answer"),
    [
        (
            "I've been learning the cello for two years, and I work at a bookshop.",
            "What instrument am I learning?",
            "cello",
        ),
        (
            "I speak Spanish and English, and I've started learning Korean.",
            "Which language am I learning?",
            "Korean",
        ),
        ("Every Sunday I play cricket with my cousins.", "What sport do I play?", "cricket"),
    ],
)
def test_a_question_naming_a_kind_of_thing_finds_the_thing(
    assistant: Assistant, told: str, asked: str, answer: str
) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, told)
    reply = chat(assistant, assistant.start_conversation(), asked)
    assert answer in reply.text


def test_before_a_change_named_by_its_new_value_is_the_slots_old_value(
    open_memory: Callable[[], MemoryService],
) -> None:
    memory = open_memory()
    assistant = Assistant(ScriptedEngine(), GenerationSettings(), memory=memory)
    chat(assistant, assistant.start_conversation(), "I'm a barista at a small coffee shop.")
    chat(assistant, assistant.start_conversation(), "Update: I'm now a shift manager at the cafe.")
    later = Assistant(ScriptedEngine(), GenerationSettings(), memory=open_memory())
    answer = chat(later, later.start_conversation(), "What was I before I became a manager?")
    assert "barista" in answer.text
