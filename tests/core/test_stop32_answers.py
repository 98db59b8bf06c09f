"""Shapes seen in the themed blind batches of stop 32 (t1041-t1072), worded apart from them:
people and pets asked about by name after filler words ("roughly how old is ..."), said of
with "her" in the next sentence, or in a message that taught a fact since replaced; a pet
named further on in a sentence; a breed asked for as the pet; a move said as "the new place
in ..."; "mum" read as the parser reads "mom"; "he" that cannot mean the mum."""

from __future__ import annotations

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.grounding import kin_asked, slot_keys
from desktop_agent.core.named_people import asked_name
from desktop_agent.core.questions import SENTENCE
from tests.core.conftest import facts, told_then_asked


def test_a_name_is_asked_after_words_that_only_lead_in() -> None:
    assert asked_name("roughly how old is Pip?") == "Pip"
    assert asked_name("and where does Kasia work?") == "Kasia"
    assert asked_name("remind me, when is Obi's recital?") == "Obi"


def test_an_age_said_as_more_like_answers_how_old(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "we adopted a scruffy terrier called Pip from the rescue centre, they think he's 2|"
        "the vet had a look at Pip's teeth today and reckons he's more like 6",
        "roughly how old is Pip?",
    )
    assert "6" in reply and " 2" not in reply


def test_a_person_said_of_with_her_in_the_next_sentence(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "Noor is loving year 2 so far, she reads everything. her class teacher is Mr. Haddad, "
        "who does magic tricks on fridays",
        "who's Noor's teacher?",
    )
    assert "Haddad" in reply


def test_a_person_named_beside_a_fact_since_replaced_is_still_known(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "my brother-in-law Kwame is a porter at St Thomas' hospital. his son Kojo (my "
        "godson!) turns 9 on 3 October, need to find a lego set|"
        "Kwame left the hospital!! he's a driving instructor now, self-employed",
        "when is Kojo's birthday?",
    )
    assert "3 October" in reply


def test_an_aside_ending_in_a_mark_ends_no_sentence() -> None:
    said = [m.group(0).strip() for m in SENTENCE.finditer("Tilly (my niece!) turns 4 soon. ok")]
    assert said == ["Tilly (my niece!) turns 4 soon.", "ok"]


def test_a_change_whose_message_says_the_thing_asked_answers_of_the_person(
    assistant: Assistant,
) -> None:
    reply = told_then_asked(
        assistant,
        "Ravi starts at Hillside Primary in September, his cousins go there too|"
        "bit of a switch, we got Ravi a place at Meadowbank Academy instead of Hillside. no "
        "more school run by car, it's round the corner",
        "which school is Ravi going to?",
    )
    assert "Meadowbank" in reply


def test_a_pet_named_further_on_in_the_sentence_is_learned() -> None:
    learned = facts(
        "we've got a hamster, Nibbles, and as of this morning a shy old whippet called Dash!!"
    )
    assert learned["name_of:dog"] == "User's dog is named Dash (a shy old whippet)"
    learned = facts(
        "we've got two dogs, Bo and Rex, and as of yesterday a tiny kitten called Tig!!"
    )
    assert learned["name_of:dog"] == "User's dog is named Bo"  # not "(a dogs)"
    assert learned["name_of:cat"] == "User's cat is named Tig (a tiny kitten)"


def test_a_breed_asked_for_is_the_pet_not_a_word_that_only_may_be_one() -> None:
    assert kin_asked("what's my whippet called?") == kin_asked("what's my dog called?")
    assert "name_of:cat" in slot_keys("how old is my tabby?")
    assert not slot_keys("where is my lab?")


def test_the_new_place_in_a_town_is_where_the_user_lives() -> None:
    assert facts("the drive from the new place in Headingley is a nightmare")["home_city"] == (
        "User lives in Headingley"
    )
    assert facts("loving our new flat in Leith already")["home_city"] == "User lives in Leith"
    assert "home_city" not in facts("my sister's new place in Leeds is gorgeous")
    assert "home_city" not in facts("we went to the new place in Soho for dinner")


def test_mum_is_read_as_the_parser_reads_mom_and_said_as_mum() -> None:
    assert facts("my mum lives in Cork")["person:mother:home_city"] == "User's mum lives in Cork"
    assert facts("my mum works at Lidl")["person:mother:employer"] == "User's mum works at Lidl"


def test_he_does_not_stand_for_the_mum() -> None:
    learned = facts(
        "mum's still in her cottage in Kendal, I go up most weekends. dad's birthday is in "
        "June, he'll be 75 so we should plan something"
    )
    assert "person:mother:age" not in learned


def test_where_someone_lives_is_said_by_their_home(assistant: Assistant) -> None:
    reply = told_then_asked(
        assistant,
        "gran's still in her terrace house in Bolton, I ring her every sunday|"
        "well gran did it, she sold the Bolton house and bought a little bungalow in Southport",
        "Where does my gran live now?",
    )
    assert "Southport" in reply
