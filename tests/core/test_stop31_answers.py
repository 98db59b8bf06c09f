"""Shapes seen in the themed blind batches of stop 31 (t977-t1008), worded apart from them:
the past asked as what came before something named ("before the Fiat"); a move said with a
pause ("moved now, to a flat in ..."), or from one city down to another; a district with its
city; a job said as "being a ...", "I'll be a ... at ...", "training as ..."; a landlord who is
"some agency called ..."; fears said without "afraid", and the plans they rule out."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.before_named import named_new
from desktop_agent.core.memory_model import MemoryItem
from desktop_agent.core.memory_service import MemoryService
from desktop_agent.core.questions import about_user
from desktop_agent.core.risks import relevant_risks, risks_of, violations
from desktop_agent.core.statements import CHANGE
from desktop_agent.llm import GenerationSettings
from desktop_agent.llm.fake import ScriptedEngine
from tests.core.conftest import chat, facts, replying_in_turn, told_then_asked


def test_the_past_before_something_named_is_said_before_it_was_first_named(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "the Peugeot is making a horrible rattling noise again, garage can't see it till june|"
        "said goodbye to the Peugeot at last! collected a red Fiat 500 from the dealer on "
        "friday, parking is so much easier",
        "what car did I have before the Fiat?",
    )
    assert "Peugeot" in reply and "Fiat 500 from the dealer" not in reply


def test_of_two_sentences_before_the_change_the_one_naming_what_changed_is_quoted(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "ugh, physio again tomorrow at 9am. Marta at the Elm Clinic, she is brutal with the "
        "stretches|"
        "small news - I've switched physios. Marta moved away so I'm with Dr. Osei at "
        "Riverside now, she's great",
        "who was my physio before Dr. Osei?",
    )
    assert "Marta at the Elm Clinic" in reply


def test_only_a_name_after_before_is_what_came_after() -> None:
    assert named_new("which phone did I have before this pixel?") == {"pixel"}
    assert named_new("who was my GP before Dr. Osei?") == {"osei"}
    assert named_new("what did I do before I retired?") == set()
    assert named_new("where did we live before the move?") == set()


def test_dropping_a_thing_is_no_change() -> None:
    assert not CHANGE.search("dropped my phone in the bath last night")
    assert not CHANGE.search("dropped off the kids at nursery")
    assert CHANGE.search("the price dropped to 20 a month")


def test_a_move_said_with_a_pause_or_a_direction_is_a_move() -> None:
    assert facts("We've moved now, to a little flat in Ghent, closer to work")["home_city"] == (
        "User lives in Ghent"
    )
    moved = facts("we moved from Porto down to Lisbon in the spring")
    assert moved["home_city"] == "User lives in Lisbon"
    assert "home_city" not in facts("I moved to a new role in Finance")


def test_the_city_said_after_a_district_is_part_of_the_place() -> None:
    assert facts("we rent a tiny flat in Gracia, Barcelona - no lift")["home_city"] == (
        "User lives in Gracia, Barcelona"
    )
    assert facts("I live in Leeds, Tom lives in York")["home_city"] == "User lives in Leeds"


def test_a_job_said_as_being_one_or_as_what_one_will_be_at_an_employer() -> None:
    assert facts("night shift again, being a paramedic in Cardiff is tough")["job"] == (
        "User works as a paramedic"
    )
    new = facts("signed the contract!! I'll be a logistics coordinator at Maersk from March")
    assert new["job"].startswith("User works as a logistics coordinator at Maersk")
    assert "job" not in facts("I'll be a bridesmaid at Amy's wedding in June")
    assert "job" not in facts("I'll be a volunteer at the school fair this year")
    assert facts("I'm officially training as a plumber now")["job"] == "User works as a plumber"


def test_a_landlord_who_is_some_agency_called_something() -> None:
    told = facts("the flat got sold, new landlord is some agency called Foxtons, ugh")
    assert told["name_of:landlord"] == "User's landlord is Foxtons"
    assert facts("our teacher is Ms Vera, very strict")["name_of:teacher"] == (
        "User's teacher is Ms Vera"
    )
    assert "name_of:teacher" not in facts("Sam's new teacher is Mr Ode")


def test_a_fear_said_as_a_nightmare_or_by_its_name() -> None:
    assert facts("crowds are my worst nightmare tbh")["fear:crowd"] == "User is afraid of crowds"
    assert facts("I get really bad vertigo")["fear:height"] == "User is afraid of heights"
    assert facts("I'm claustrophobic")["fear:enclosed space"] == (
        "User is afraid of enclosed spaces"
    )
    assert not any(key.startswith("fear:") for key in facts("I can't stand crowds"))


def test_a_request_for_ideas_is_no_question_about_the_user() -> None:
    assert about_user("any dinner ideas for my mum this weekend?") is None
    assert about_user("plan me a day out with my nephews?") is None
    assert about_user("ideas for my mum's 60th?") is None
    assert about_user("what should we cook for my dad tonight?") is None
    assert about_user("any idea what my nephew is called?") is not None


def _plan(memory: MemoryService, replies: Sequence[str]) -> tuple[str, list[str]]:
    scripted = Assistant(ScriptedEngine(), GenerationSettings(), memory=memory)
    chat(scripted, scripted.start_conversation(), "I'm claustrophobic, always have been")
    engine, systems = replying_in_turn(replies)
    assistant = Assistant(engine, GenerationSettings(), memory=memory)
    answer = chat(assistant, assistant.start_conversation(), "any ideas for a birthday day out?")
    return answer.text, systems


def test_a_plan_a_fear_rules_out_is_regenerated_with_the_fear_stated(
    memory: MemoryService,
) -> None:
    text, systems = _plan(memory, ["Try an escape room with friends!", "A picnic by the lake."])
    assert text == "A picnic by the lake."
    assert len(systems) == 2
    # one form of each thing, not "cave, caves, caving"
    assert "you are afraid of enclosed spaces: never suggest cave, escape room," in systems[1]


def test_a_plan_that_still_breaks_a_fear_gets_a_warning(memory: MemoryService) -> None:
    text, _ = _plan(memory, ["Caving in the Peak District!", "Go caving, it's fun."])
    assert text.splitlines()[-1].startswith("⚠ Careful: you are afraid of enclosed spaces")
    kept, systems = _plan(memory, ["A picnic: no caves, no tunnels, all open air."])
    assert kept == "A picnic: no caves, no tunnels, all open air." and len(systems) == 1
    # a reply that speaks of the fear itself needs no reminder of it
    said = "Since you're claustrophobic, skip the escape room and have a picnic."
    kept, systems = _plan(memory, [said])
    assert kept == said and len(systems) == 1


def _remembered(text: str, key: str, kind: str = "fact") -> MemoryItem:
    now = datetime.now(UTC)
    return MemoryItem("m", "semantic", text, now, now, type=kind, subject_key=key)


def test_a_low_salt_diet_is_a_risk_for_food() -> None:
    told = facts("I'm on a strict low-sodium diet for my blood pressure")["diet"]
    assert told == "User is on a low-sodium diet"  # "for my blood pressure" is no time
    assert facts("I've been vegan for ten years")["diet"] == "User has been vegan for ten years"
    risks = relevant_risks("what should I make for lunch?", risks_of([_remembered(told, "diet")]))
    assert len(risks) == 1
    assert violations("How about a ham and pickle sandwich?", risks) == risks
    assert violations("A big salad, no added salt, with lentils.", risks) == []


def test_a_request_to_the_assistant_is_never_quoted_as_told(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "signed up at Anytime Fitness near the office, 30 a month|"
        "plan me a 20 min leg workout for tonight pls",
        "which gym am I a member of?",
    )
    assert "Anytime Fitness" in reply and "plan me" not in reply


def test_of_sentences_as_near_the_one_saying_the_kind_asked_answers(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "Disney+ is 7.99 a month which the kids say is essential|"
        "tidied up the direct debits, disney+ unchanged",
        "how much is disney+ costing me?",
    )
    assert "7.99" in reply
    age = told_then_asked(
        assistant,
        "having my godsons Kwame (8) and Ade (11) over on the Saturday, they love board games|"
        "change of plan, their dad says Ade has a swimming gala on saturday so it'll be sunday now",
        "how old is Ade?",
    )
    assert "11" in age


def test_pregnancy_rules_out_soft_cheese_and_pate() -> None:
    item = _remembered("User is pregnant", "condition:preg", kind="risk")
    risks = relevant_risks("which cheeses should I get for a cheese board?", risks_of([item]))
    assert len(risks) == 1
    assert violations("Go for a ripe brie, some cheddar and a little pâté.", risks) == risks
    assert violations("Hard cheeses like cheddar and parmesan are fine.", risks) == []


def test_asked_what_is_so_now_the_newest_correction_answers(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "zara has ballet on mondays at 4 and sami does chess club on fridays|"
        "Zara quit ballet, the teacher was too strict. she's doing gymnastics now instead, "
        "wednesdays at 5",
        "what day is Zara's class now?",
    )
    assert "wednesdays" in reply and "mondays" not in reply


def test_the_words_before_a_change_bring_the_short_sentence_saying_when(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "sorting out peru at last!! 10 days in May, flying KLM via Amsterdam. Cusco then Lima|"
        "change of plan - Ines talked me into the dry season instead so the peru trip is now "
        "July. same route",
        "What month had I first planned the Peru trip for?",
    )
    assert "May" in reply


def test_a_second_clause_with_its_own_subject_says_who_came_instead(
    assistant: Assistant, memory: MemoryService
) -> None:
    chat(assistant, assistant.start_conversation(), "our coach is Marco Rossi, he's brilliant")
    chat(
        assistant,
        assistant.start_conversation(),
        "big changes at the club - Marco's left and we've got Ines Duarte now",
    )
    current = [i.text for i in memory.active_facts()]
    assert any("Ines Duarte" in text for text in current)
    assert not any("Marco" in text for text in current)


def test_before_a_name_the_facts_never_gave_no_sentence_is_taken_for_the_past(
    assistant: Assistant,
) -> None:
    # the move was missed, so "User lives in Ghent" is current: the words before "Leuven"
    # (the train to work) are no past home
    reply = told_then_asked(
        assistant,
        "hi! I live in Ghent with my girlfriend Lotte. I work at an architecture firm in "
        "Brussels so the train is about 40 min|"
        "still unpacking boxes in Leuven, the train to work is only 20 min",
        "where did I live before Leuven?",
    )
    assert "architecture firm" not in reply and "Ghent" in reply
