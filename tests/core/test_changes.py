"""Changes told in passing: what the user stopped having, swapped or rescheduled reaches the
answer. Written before the rules that handle them; none of these sentences is in the
memory-answers bench."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.extraction import extract
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat


def sessions(open_memory: Callable[[], MemoryService], *told: str) -> Assistant:
    """Each message told in its own app session; returns a fresh session to ask in."""
    for text in told:
        assistant = Assistant(ScriptedEngine(), GenerationSettings(), memory=open_memory())
        chat(assistant, assistant.start_conversation(), text)
    return Assistant(ScriptedEngine(), GenerationSettings(), memory=open_memory())


def ask(assistant: Assistant, question: str) -> str:
    return chat(assistant, assistant.start_conversation(), question).text


def active_texts(assistant: Assistant) -> list[str]:
    return [i.text for i in assistant.memory.items("semantic", include_inactive=False)]


# --- what ended ----------------------------------------------------------------------------


def test_a_pet_given_away_is_no_longer_current_but_is_remembered_as_past(
    open_memory: Callable[[], MemoryService],
) -> None:
    later = sessions(
        open_memory,
        "I have a beagle called Max.",
        "We had to give Max away when we moved. I got a cat called Olive.",
    )
    assert not any("Max" in t for t in active_texts(later))
    pets = ask(later, "What pets do I have?")
    assert "Olive" in pets and "Max" not in pets
    assert "Max" in ask(later, "What was my dog called?")


def test_a_job_left_is_past_and_the_new_one_current(
    open_memory: Callable[[], MemoryService],
) -> None:
    later = sessions(
        open_memory,
        "I'm an accountant at a logistics firm in Leeds.",
        "I quit the logistics firm, joined Oxfam as a fundraiser and moved to Bristol.",
    )
    job = ask(later, "What's my job?")
    assert "fundraiser" in job and "accountant" not in job
    assert "Oxfam" in ask(later, "Who do I work for?")
    city = ask(later, "Where do I live?")
    assert "Bristol" in city and "Leeds" not in city
    assert "Leeds" in ask(later, "Where did I live before?")


def test_not_working_somewhere_anymore_ends_it(open_memory: Callable[[], MemoryService]) -> None:
    later = sessions(
        open_memory,
        "I work at a garden centre, mostly on the tills.",
        "I don't work at the garden centre anymore, I'm a postman now.",
    )
    assert not any("garden centre" in t and "no longer" not in t for t in active_texts(later))
    assert "garden centre" in ask(later, "What was my previous job?")


def test_an_ending_does_not_touch_unrelated_facts(memory: MemoryService) -> None:
    assistant = Assistant(ScriptedEngine(), GenerationSettings(), memory=memory)
    chat(assistant, assistant.start_conversation(), "I work as a nurse. I live in Cork.")
    chat(assistant, assistant.start_conversation(), "I left work early today, I was shattered.")
    texts = active_texts(assistant)
    assert "User works as a nurse" in texts and "User lives in Cork" in texts


# --- what was swapped --------------------------------------------------------------------------


def test_sold_and_bought_replaces_the_thing(open_memory: Callable[[], MemoryService]) -> None:
    later = sessions(
        open_memory,
        "I ride a blue Vespa scooter to work.",
        "I sold the Vespa last month and bought an electric bike.",
    )
    now = ask(later, "What do I ride?")
    assert "electric bike" in now and "Vespa" not in now
    assert "Vespa" in ask(later, "What did I ride before?")


def test_instead_of_and_a_new_date_change_a_plan(
    open_memory: Callable[[], MemoryService],
) -> None:
    later = sessions(
        open_memory,
        "I'm planning a trip to Peru in May with my cousin Lena.",
        "Change of plan: we're going to Chile instead of Peru, and it's been moved to August.",
    )
    (plan,) = [t for t in active_texts(later) if "trip" in t]
    assert "Chile" in plan and "August" in plan and "Lena" in plan
    assert "Peru" not in plan and "May" not in plan
    where = ask(later, "Where am I travelling to?")
    assert "Chile" in where and "Peru" not in where
    assert "August" in ask(later, "When is my trip?")
    assert "Lena" in ask(later, "Who am I going on the trip with?")
    assert "Peru" in ask(later, "Where was I originally going to go?")


# --- saying it the way people do --------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "key", "value"),
    [
        ("I'm Priya Raman, nice to meet you.", "name", "Priya Raman"),
        ("I live in Ghent and work as a translator.", "job", "translator"),
        ("I'm type 2 diabetic so I watch my sugar.", "condition:diabetes", "diabetes"),
        ("My favourite film these days is Paddington 2.", "favorite:film", "Paddington 2"),
        ("I'm a nurse at a clinic in Porto.", "home_city", "Porto"),
        ("I joined Spotify as a data analyst.", "employer", "Spotify"),
        ("I joined Spotify as a data analyst.", "job", "data analyst"),
        ("I speak English, French and Spanish.", "speaks:spanish", "Spanish"),
        ("I'm allergic to peanuts, shellfish, and penicillin.", "allergy:penicillin", "penicillin"),
        ("I love hiking, jazz and old films.", "likes:old film", "old films"),
        ("My dentist is Dr. Okafor.", "name_of:dentist", "Dr Okafor"),
        ("My boss is Karen, she's strict.", "name_of:boss", "Karen"),
        ("I'm now working at Siemens as an engineer.", "job", "engineer"),
        ("I changed jobs, I'm at Siemens now as an engineer.", "employer", "Siemens"),
        ("We moved house, we're in Leeds now.", "home_city", "Leeds"),
        ("We broke up, I'm with Sam now.", "name_of:partner", "Sam"),
        ("I'm coeliac and I bake bread for a living.", "job", "bake bread"),
        ("I became a nurse last year.", "job", "nurse"),
    ],
)
def test_extraction_reads(message: str, key: str, value: str) -> None:
    found = {f.subject_key: f.value for f in extract(message)}
    assert found.get(key) == value, found


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("My dad is French.", "name_of:father"),
        ("I live in Lisbon, work at a bank and have a cat.", "likes:bank"),
        ("I'm in Rome for the weekend now.", "home_city"),
        ("I'm at the beach now.", "employer"),
        ("I'm Sara, 27, and I live in Cork", "likes:27"),
    ],
)
def test_extraction_does_not_read(message: str, key: str) -> None:
    assert key not in {f.subject_key for f in extract(message)}


def test_a_list_keeps_the_clause_after_it() -> None:
    keys = {f.subject_key for f in extract("I'm Sara, 27, and I live in Cork")}
    assert {"name", "home_city"} <= keys


def test_breaking_up_ends_the_partner_whatever_they_were_called(
    open_memory: Callable[[], MemoryService],
) -> None:
    later = sessions(
        open_memory,
        "My boyfriend is called Lucas, he's a chef.",
        "We broke up last month, I'm with Sam now.",
    )
    assert not any("Lucas" in t for t in active_texts(later))
    partner = ask(later, "Who's my boyfriend?")
    assert "Sam" in partner and "Lucas" not in partner


def test_a_pronoun_names_the_person_just_mentioned() -> None:
    found = extract("I've been rereading Terry Pratchett. He's my favourite author.")
    assert [(f.subject_key, f.value) for f in found] == [("favorite:author", "Terry Pratchett")]


def test_an_elliptical_addition_joins_the_list_before_it() -> None:
    found = extract("I'm allergic to latex. Kiwi too, come to think of it.")
    assert {f.subject_key for f in found} == {"allergy:latex", "allergy:kiwi"}


def test_asking_to_forget_is_not_a_statement() -> None:
    assert extract("Hey, forget that I work at a bakery please.") == []


def test_a_fact_taken_back_is_not_listed_as_current(
    open_memory: Callable[[], MemoryService],
) -> None:
    later = sessions(
        open_memory,
        "I'm allergic to wasps and penicillin.",
        "Turns out I'm not allergic to wasps, the test was negative.",
    )
    answer = ask(later, "What am I allergic to?")
    assert "penicillin" in answer and "wasp" not in answer


@pytest.mark.parametrize(
    ("message", "change"),
    [
        ("My cat Mochi died last winter.", ("end", "Mochi", "")),
        ("I no longer drive the Fiat.", ("end", "Fiat", "")),
        ("I broke up with Tom in the spring.", ("end", "Tom", "")),
        ("I traded in my Golf for a Tesla.", ("replace", "Golf", "Tesla")),
        ("I've outgrown my shrimp allergy, the doctor confirmed it.", ("end", "shrimp", "")),
        ("I lost my job in March.", ("end", "job", "")),
        ("The wedding has been postponed until October.", ("redate", "wedding", "October")),
    ],
)
def test_changes_are_read(message: str, change: tuple[str, str, str]) -> None:
    from desktop_agent.core.extraction_changes import read

    assert [(c.kind, c.old, c.new) for c in read(message)] == [change]


@pytest.mark.parametrize(
    "message",
    [
        "I left work early, I was shattered.",
        "I gave the book to Sam.",
        "My grandad passed away.",  # no name: nothing to find it by
        "If I sold the car I'd buy a bike.",
        "Should I quit my job?",
    ],
)
def test_what_is_not_a_change(message: str) -> None:
    from desktop_agent.core.extraction_changes import read

    assert read(message) == []


def test_an_outgrown_allergy_is_no_longer_listed(open_memory: Callable[[], MemoryService]) -> None:
    later = sessions(
        open_memory,
        "I'm allergic to shrimp and to bee stings.",
        "Good news, I've outgrown my shrimp allergy!",
    )
    answer = ask(later, "What am I allergic to?")
    assert "bee stings" in answer and "shrimp" not in answer


def test_losing_a_job_ends_it(open_memory: Callable[[], MemoryService]) -> None:
    later = sessions(open_memory, "I work as a chef at a hotel.", "I lost my job last week.")
    assert "chef" not in ask(later, "What's my job?")
    assert "chef" in ask(later, "What was my job before?")


def test_a_condition_taken_back_is_not_current(open_memory: Callable[[], MemoryService]) -> None:
    later = sessions(
        open_memory,
        "I'm gluten intolerant, so no bread for me.",
        "Turns out I'm not gluten intolerant after all.",
    )
    assert "gluten" not in ask(later, "What health conditions do I have?")


def test_a_job_done_in_a_city_places_the_user_there() -> None:
    found = {f.subject_key: f.value for f in extract("Now I teach maths in Valencia.")}
    assert found.get("home_city") == "Valencia", found


def test_a_city_implied_by_a_job_never_replaces_the_one_said(memory: MemoryService) -> None:
    assistant = Assistant(ScriptedEngine(), GenerationSettings(), memory=memory)
    chat(assistant, assistant.start_conversation(), "I live in Hamburg.")
    chat(assistant, assistant.start_conversation(), "I'm a pharmacist at a chemist in Altona.")
    assert ask(assistant, "Which city do I live in?") == "You live in Hamburg."
    assert (
        ask(assistant, "What's my favourite movie?")
        == "I don't know that yet: you haven't told me."
    )
    chat(assistant, assistant.start_conversation(), "My favourite film is Amelie.")
    assert "Amelie" in ask(assistant, "What's my favourite movie?")


# --- corrections said the way people say them (written before their rules) -------------------


@pytest.mark.parametrize(
    ("told", "corrected", "question", "current", "stale"),
    [
        ("My daughter Zoe is 6.", "Oops, my daughter is actually 7, not 6.",
         "How old is my daughter?", "7", "6"),
        ("My dentist appointment is on Tuesday.", "Not Tuesday, Thursday.",
         "When is my dentist appointment?", "Thursday", "Tuesday"),
        ("I drive a Ford Focus.", "I've since switched to a Tesla Model 3.",
         "What car do I drive?", "Tesla", "Focus"),
        ("I live in Madrid.", "Update: we relocated to Valencia in June.",
         "Where do I live?", "Valencia", "Madrid"),
        ("My partner is called Alex.", "Alex and I split up. I'm seeing Jordan now.",
         "Who am I dating?", "Jordan", "Alex"),
        ("My boss is Karen.", "I have a new boss now, her name is Priya.",
         "Who's my boss?", "Priya", "Karen"),
        ("I study medicine at UCL.", "I dropped out of medicine and now study law at UCL.",
         "What do I study?", "law", "medicine"),
        ("I'm a teacher.", "I retired last year.", "What do I do for work?", "retired", "teacher"),
        ("My sister Ana lives in Rome.", "Ana moved to Milan.",
         "Where does my sister live?", "Milan", "Rome"),
        ("My son goes to Oakwood Primary.", "My son started at Hillcrest Secondary this September.",
         "Which school does my son go to?", "Hillcrest", "Oakwood"),
        ("I work at Deloitte as an auditor.", "I changed jobs, I'm at Siemens now as an engineer.",
         "Where do I work?", "Siemens", "Deloitte"),
        ("I'm a nurse.", "I retrained and now I'm a paramedic.",
         "What do I do for a living?", "paramedic", "nurse"),
        ("My boyfriend is Tom.", "Tom and I broke up.", "Who was my ex?", "Tom", "Luna"),
        ("My sister lives in Oslo.", "Big news: my sister moved to Bergen!",
         "Where does my sister live?", "Bergen", "Oslo"),
        ("My brother Jonas is a plumber.", "Jonas retrained as an electrician.",
         "What does my brother do?", "electrician", "plumber"),
        ("We're getting a puppy in May.", "Change of plans: we're getting the puppy in July instead.",
         "When are we getting the puppy?", "July", "May"),
        ("I'm a chef at a bistro.", "I quit cooking and now work as a courier.",
         "What's my job?", "courier", "chef"),
        ("I work as a barista.", "I'm a manager now at the same cafe.",
         "What was my previous role?", "barista", "Luna"),
    ],
)  # fmt: skip
def test_a_correction_said_in_passing_reaches_the_answer(
    open_memory: Callable[[], MemoryService],
    told: str,
    corrected: str,
    question: str,
    current: str,
    stale: str,
) -> None:
    answer = ask(sessions(open_memory, told, corrected), question)
    assert re.search(rf"\b{current}\b", answer) and not re.search(rf"\b{stale}\b", answer), answer
