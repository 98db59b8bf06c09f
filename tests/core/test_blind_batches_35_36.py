"""Shapes from the blind batches of stop 24 (t433-t464), written before the rules that read
them: a new job told as news, whom an appointment is with, someone asked for by their role."""

from __future__ import annotations

import pytest

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.questions import by_role
from tests.core.conftest import facts, told_then_asked


@pytest.mark.parametrize(
    ("message", "job", "employer"),
    [
        ("just started as a barista at this cafe called Grindhouse in Fitzroy, pays 28 an hour",
         "User works as a barista", "User works at Grindhouse"),
        ("left grindhouse already. landed a junior designer gig at an agency called Paper Kite!!",
         "User works as a junior designer", "User works at Paper Kite"),
        ("I accepted the offer from Wolt!! starting monday as a product manager",
         "User works as a product manager", "User works at Wolt"),
        ("hi, I'm a data analyst at Nordea here in Helsinki, mostly SQL.",
         "User works as a data analyst", "User works at Nordea"),
    ],
)  # fmt: skip
def test_a_new_job_told_as_news(message: str, job: str, employer: str) -> None:
    found = facts(message)
    assert found.get("job") == job
    assert found.get("employer") == employer


@pytest.mark.parametrize(
    "message", ["We started as friends.", "I started as soon as I could.", "I got a job offer."]
)
def test_what_is_no_new_job(message: str) -> None:
    assert not {"job", "employer"} & set(facts(message))


def test_a_lead_that_says_it_tells() -> None:
    message = "Good morning. I should tell you that I have lived in Dunedin for some thirty years."
    assert facts(message).get("home_city") == "User lives in Dunedin"


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("dentist appt with dr patel march 12 at 3pm, dont let me forget",
         "name_of:dentist", "User's dentist is Dr Patel"),
        ("My physio appointment is with Dr. Mensah on Tuesday.",
         "name_of:physio", "User's physio is Dr Mensah"),
    ],
)  # fmt: skip
def test_whom_an_appointment_is_with(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("who's coaching me?", "who is my coach?"),
        ("Who is teaching me piano these days?", "Who is my piano teacher these days?"),
        ("who do i live with again", "who is my roommate again"),
        ("who's my doctor?", "who's my doctor?"),  # already asks for the role
        ("who is ringing me?", "who is ringing me?"),  # no role
    ],
)
def test_someone_asked_for_by_their_role(question: str, asked: str) -> None:
    assert by_role(question) == asked


@pytest.mark.parametrize(
    ("told", "asked", "answer"),
    [
        ("training for the Berlin Marathon!! my coach Hiroshi has me doing 40 km a week",
         "who's coaching me?", "Hiroshi"),
        ("also my roommate Jade is vegan so we basically cook separate lol",
         "who do i live with again", "Jade"),
        # no fact names the role: the question as asked finds the sentence
        ("I'm learning the cello, lesson every Wednesday at 6:30pm with Mrs Oyelaran.",
         "Who teaches me cello?", "Oyelaran"),
    ],
)  # fmt: skip
def test_someone_asked_for_by_their_role_is_answered(
    assistant: Assistant, told: str, asked: str, answer: str
) -> None:
    assert answer in told_then_asked(assistant, told, asked)


@pytest.mark.parametrize(
    ("told", "asked", "answer", "stale"),
    [
        ("My GP has started me on metformin for type 2 diabetes, 500 mg twice a day.|"
         "after my latest blood test the doctor has increased the metformin to 1000 mg.",
         "What dose of my diabetes tablets am I taking at the moment?", "1000 mg", "500"),
        ("physio reckons my knee pain is patellar tendinitis, so I'm doing exercises.|"
         "had the MRI. it's actually a meniscus tear, not tendinitis at all.",
         "what's wrong with my knee, according to the latest?", "meniscus", "patellar"),
    ],
)  # fmt: skip
def test_a_later_change_to_what_was_said_is_quoted(
    assistant: Assistant, told: str, asked: str, answer: str, stale: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply
    assert stale not in reply


def test_a_later_change_to_another_topic_of_the_sentence_is_not(assistant: Assistant) -> None:
    told = (
        "flying ANA on April 3rd, and in Kyoto we're staying at a little ryokan called Yamabuki.|"
        "ugh ANA emailed, my flight got pushed to April 5th."
    )
    reply = told_then_asked(assistant, told, "what's the place we're staying at in Kyoto?")
    assert "Yamabuki" in reply


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("My team lead is Hannah and Raj sits next to me.",
         "name_of:team lead", "User's team lead is Hannah"),
        ("my supervisor is Prof. de Vries, super strict.",
         "name_of:supervisor", "User's supervisor is Prof de Vries"),
        ("So Hannah left for Google last week and our new team lead is Marcus.",
         "name_of:team lead", "User's team lead is Marcus"),
    ],
)  # fmt: skip
def test_people_named_by_their_role(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_new_team_lead_replaces_the_old(assistant: Assistant) -> None:
    told = "My team lead is Hannah.|So Hannah left for Google and our new team lead is Marcus."
    reply = told_then_asked(assistant, told, "Who's leading my team now?")
    assert "Marcus" in reply
    assert "Hannah" not in reply


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("sold the old Corsa for scrap lol. picked up a second hand Skoda Fabia on saturday",
         "vehicle", "User drives a Skoda Fabia"),
        ("update — sold the Mazda, we've got a Kia Carnival now, heaps more room",
         "vehicle", "User drives a Kia Carnival"),
        ("We've finally moved!! New place is in Stirling, boxes everywhere.",
         "home_city", "User lives in Stirling"),
    ],
)  # fmt: skip
def test_news_of_a_new_car_or_home(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


@pytest.mark.parametrize(
    "message", ["picked up a pizza on the way", "The new house is near the park."]
)
def test_what_is_no_new_car_or_home(message: str) -> None:
    assert not {"vehicle", "home_city"} & set(facts(message))


@pytest.mark.parametrize(
    ("told", "asked", "answer", "stale"),
    [
        ("I take warfarin, 4 mg every evening.|"
         "Clinic nurse rang - they've put my warfarin up to 5 mg because my INR came back low.",
         "How much of my blood thinner am I meant to take each night?", "5 mg", "4 mg"),
        # the change in the same message, a sentence later
        ("I have swimming lessons at the Fitzroy pool every Saturday morning.|"
         "Ugh, the swimming pool just rang. They're moving my lessons to Thursday afternoons.",
         "Which day are my swimming lessons now?", "Thursday", "Saturday"),
    ],
)  # fmt: skip
def test_a_change_said_in_other_words_is_quoted(
    assistant: Assistant, told: str, asked: str, answer: str, stale: str
) -> None:
    reply = told_then_asked(assistant, told, asked)
    assert answer in reply
    assert stale not in reply


@pytest.mark.parametrize(
    ("told", "asked", "answer"),
    [
        ("We adopted a beagle called Biscuit, he's 9 now.",
         "What's my dog's name again? My memory isn't what it was!", "Biscuit"),
        ("My nephew Kofi is obsessed with dinosaurs.",
         "what's my nephew really into again? want to get him a book", "dinosaurs"),
        ("I drive a 2012 Vauxhall Corsa to get there.|"
         "sold the old Corsa for scrap lol. picked up a second hand Skoda Fabia on saturday",
         "what am I driving to work at the moment?", "Skoda Fabia"),
    ],
)  # fmt: skip
def test_a_question_with_small_talk_around_it_is_answered(
    assistant: Assistant, told: str, asked: str, answer: str
) -> None:
    assert answer in told_then_asked(assistant, told, asked)


def test_a_question_beside_news_is_no_question_alone(assistant: Assistant) -> None:
    reply = told_then_asked(assistant, "I live in York.", "Where do I live? I just moved to Leeds.")
    assert "York" not in reply  # the news is learned, not answered with the old city


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("hi, I am doing an online Python course on Coursera, it finishes in March.",
         "course", "User is doing an online Python course on Coursera"),
        ("switched to a UX design course on Udemy, it suits me better",
         "course", "User is doing a UX design course on Udemy"),
        ("I started a Python course on Monday.", "course", "User is doing a Python course"),
    ],
)  # fmt: skip
def test_the_course_the_user_is_taking(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_person_who_accepted_an_offer_works_there(assistant: Assistant) -> None:
    told = (
        "My husband Rahul is a software tester at Infosys in Pune.|"
        "Big news!! Rahul accepted an offer from Wipro, he starts there on the 1st."
    )
    reply = told_then_asked(assistant, told, "Which company is my husband with now?")
    assert "Wipro" in reply
    assert "Infosys" not in reply
