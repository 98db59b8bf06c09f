"""Extraction that reads the parse: people, pets, habits, plans, negations, informal words; and
the issue's done-when checks through the assistant, learned into a real vault."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from desktop_agent.core import extraction, extraction_parse
from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction import ExtractedFact, extract
from desktop_agent.core.extraction_dates import resolve_date
from desktop_agent.core.extraction_normalise import normalise, spelling
from desktop_agent.core.history_import import HistoryMessage
from desktop_agent.core.memory_service import MemoryService
from tests.core.conftest import chat


def read(message: str) -> list[tuple[str, str, str, bool]]:
    return [(f.type, f.subject_key, f.person, f.negated) for f in extract(message)]


def only(message: str) -> ExtractedFact:
    facts = extract(message)
    assert len(facts) == 1, facts
    return facts[0]


# --- the done-when checks, through a real turn into a real vault -----------------------


def semantic(assistant: Assistant) -> list[tuple[str, str, str]]:
    return [
        (m.text, m.subject_key, m.status)
        for m in assistant.memory.items("semantic", include_inactive=True)
    ]


def test_my_sister_ana_lives_in_rome(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "my sister Ana lives in Rome")
    assert set(semantic(assistant)) == {
        ("User's sister is named Ana", "name_of:sister", "active"),
        ("User's sister Ana lives in Rome", "person:sister:home_city", "active"),
    }


def test_a_greyhound_called_pickle_is_the_users_dog(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "we've got a greyhound called Pickle")
    assert semantic(assistant) == [
        ("User's dog is named Pickle (a greyhound)", "name_of:dog", "active")
    ]


def test_a_habit_is_kept_with_its_times(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "I swim every Tuesday at 7")
    assert semantic(assistant) == [("User swims every Tuesday at 7", "routine:swim", "active")]


def test_moving_after_all_supersedes_the_old_city(assistant: Assistant) -> None:
    conversation = assistant.start_conversation()
    chat(assistant, conversation, "I live in Bath")
    chat(assistant, conversation, "we moved to Bristol after all")
    cities = [(text, status) for text, key, status in semantic(assistant) if key == "home_city"]
    assert sorted(cities) == [
        ("User lives in Bath", "superseded"),
        ("User lives in Bristol", "active"),
    ]


def test_an_allergy_typed_informally_is_a_risk(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "im alergic to penicilin")
    assert semantic(assistant) == [
        ("User is allergic to penicillin", "allergy:penicillin", "active")
    ]
    (risk,) = assistant.memory.items("semantic")
    assert risk.type == "risk"


def test_a_hypothetical_stores_nothing(assistant: Assistant) -> None:
    chat(assistant, assistant.start_conversation(), "if I lived in Paris I'd eat croissants daily")
    assert semantic(assistant) == []


# --- corrections find their slot -------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "key"),
    [
        ("I live in Leeds", "we moved to Bristol after all", "home_city"),
        ("I work at the bank", "I left my job at the bank", "employer"),
        ("I'm vegetarian", "not vegetarian anymore", "diet"),
        ("my sister is called Anna", "correction: my sister is called Ana", "name_of:sister"),
        ("I swim every Tuesday", "I swim on Fridays now", "routine:swim"),
    ],
)
def test_a_correction_in_free_form_hits_the_same_slot(before: str, after: str, key: str) -> None:
    (old,), (new,) = extract(before), extract(after)
    assert old.subject_key == new.subject_key == key
    assert new.is_correction


def test_a_relation_has_one_slot_whatever_the_word() -> None:
    mom, mother = only("my mom is called Jo"), only("my mother's name is Joanne")
    assert mom.subject_key == mother.subject_key == "name_of:mother"
    assert mom.text == "User's mom is named Jo"


def test_a_job_left_is_a_negation_of_the_employer() -> None:
    fact = only("I left my job at the bank")
    assert (fact.text, fact.negated) == ("User no longer works at the bank", True)


# --- people, pets, habits, plans ---------------------------------------------------------------


def test_facts_about_people_are_stored_with_the_person() -> None:
    assert read("My brother is a nurse in Leeds") == [
        ("fact", "person:brother:job", "brother", False)
    ]
    assert read("my daughter turns 5 in May") == [
        ("fact", "person:daughter:age", "daughter", False)
    ]
    assert read("My partner's called Sam and he's a teacher") == [
        ("fact", "name_of:partner", "partner", False),
        ("fact", "person:partner:job", "partner", False),
    ]


def test_a_pet_without_a_name_is_still_a_pet() -> None:
    assert read("I have two cats") == [("fact", "pet:cat", "cat", False)]


def test_a_plan_has_its_date_resolved_forward(monkeypatch: pytest.MonkeyPatch) -> None:
    fact = only("we fly to Oslo on the 12th")
    assert fact.type == "plan"
    assert fact.when == resolve_date("on the 12th")
    assert fact.when in fact.text


def test_negations_stay_negations() -> None:
    assert only("I don't eat pork").text == "User does not eat pork"
    assert only("I've never driven").negated
    assert only("I can't swim").text == "User cannot swim"


def test_likes_said_without_i_like() -> None:
    assert read("can't stand jazz") == [("preference", "likes:jazz", "", True)]
    assert read("big fan of Tolkien") == [("preference", "likes:tolkien", "", False)]
    assert read("chocolate is my weakness") == [("preference", "likes:chocolate", "", False)]


def test_several_facts_in_one_message() -> None:
    keys = [f.subject_key for f in extract("I'm 40, married, two kids, and I teach maths")]
    assert keys == ["age", "marital_status", "children", "job"]


def test_a_lasting_statement_without_a_slot_is_kept_in_the_third_person() -> None:
    fact = only("I grew up on a farm")
    assert (fact.text, fact.subject_key.split(":")[0]) == ("User grew up on a farm", "said")


@pytest.mark.parametrize(
    "message",
    [
        "if I lived in Paris I'd go to the Louvre every week",
        "I'd love a dog one day",
        "Imagine I was a pilot, what would my day look like?",
        "Write a story about my sister who lives in Rome",
        "Dogs can't eat chocolate.",
        "I'm tired today",
        "Would my sister like this book",
        "I can't wait",
        "never mind",
    ],
)
def test_hypotheticals_requests_and_small_talk_yield_nothing(message: str) -> None:
    assert extract(message) == []


# --- normalisation ----------------------------------------------------------------------------


def test_informal_words_and_typos_are_normalised() -> None:
    assert normalise("im alergic to penicilin").text == "I'm allergic to penicillin"
    assert normalise("fav film is prob Alien").text == "my favourite film is probably Alien"
    assert normalise("im veggie").text == "I'm vegetarian"
    assert spelling("shelfish") == "shellfish"
    assert spelling("fishing") is None


def test_spans_point_at_the_users_own_words() -> None:
    message = "ok so im alergic to penicilin"
    fact = only(message)
    assert message[fact.span[0] : fact.span[1]] == "im alergic to penicilin"


def test_without_the_parser_the_patterns_still_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extraction.extraction_parse, "parse_message", lambda text: None)
    assert [f.subject_key for f in extract("My name is Ana and I live in Rome")] == [
        "name",
        "home_city",
    ]


def test_dates_resolve_forward() -> None:
    now = datetime(2026, 11, 23)
    assert resolve_date("the 12th", now) == "2026-12-12"
    assert resolve_date("20 August", now) == "2027-08-20"
    assert resolve_date("in March", now) == "2027-03"
    assert resolve_date("Thursday", now) == "2026-11-26"
    assert resolve_date("next year", now) == "2027"
    assert resolve_date("every Tuesday", now) == ""


def test_history_import_stores_episodes_without_extracting(
    memory: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """10k imported messages must stay minutes, not a parse each: import never extracts."""

    def fail(*args: object) -> None:
        raise AssertionError("history import ran extraction")

    monkeypatch.setattr(extraction, "extract", fail)
    monkeypatch.setattr(extraction_parse, "read", fail)
    when = datetime(2026, 1, 5, tzinfo=UTC)
    messages = [
        HistoryMessage("c1", str(n), "user", f"my sister Ana lives in Rome {n}", when, n)
        for n in range(20)
    ]
    imported = memory.import_history(messages)
    assert len(imported) == 20
    assert memory.items("semantic") == []


@pytest.mark.slow
def test_the_statement_classifier_keeps_lasting_facts_not_small_talk() -> None:
    from desktop_agent.core.extraction_fallback import use_embedder
    from desktop_agent.embed.embedder import SentenceEmbedder

    use_embedder(SentenceEmbedder(threads=1))
    try:
        assert [f.text for f in extract("I'm dyslexic")] == ["User is dyslexic"]
        assert extract("I'm so bored") == []
        assert extract("I'm sorry about that") == []
    finally:
        use_embedder(None)
