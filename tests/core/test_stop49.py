"""Stop 49: what a change keeps the same, an end that is extended, counts in their unit, and
"she" leaning on the question before that leaned on a name."""

from __future__ import annotations

from collections.abc import Sequence

from desktop_agent.core.assistant import Assistant
from desktop_agent.core.question_pronouns import resolved
from desktop_agent.core.statements import counted_in
from tests.core.conftest import chat, said_in_turn


def asked_in_turn(
    assistant: Assistant, conversations: Sequence[Sequence[str]], questions: Sequence[str]
) -> list[str]:
    """The replies to ``questions``, asked one after another in one new conversation."""
    for messages in conversations:
        conversation = assistant.start_conversation()
        for message in messages:
            chat(assistant, conversation, message)
    asking = assistant.start_conversation()
    return [str(chat(assistant, asking, question).text) for question in questions]


def test_an_extended_end_is_the_end_now_and_what_stays_is_as_said(meaning: Assistant) -> None:
    told = [
        ["my placement at Harrow & Lowe finishes 14 march. they pay me £310 a day"],
        ["they've extended me until the end of june!! the day rate stays the same"],
    ]
    end, rate, before = asked_in_turn(
        meaning,
        told,
        [
            "when does my placement end?",
            "how much is my day rate?",
            "when was it meant to finish originally?",
        ],
    )
    assert "june" in end.casefold() and "march" not in end.casefold()
    assert "310" in rate
    assert "march" in before.casefold()


def test_who_at_work_is_the_one_named_not_what_was_said_of_the_old_one(
    meaning: Assistant,
) -> None:
    reply = said_in_turn(
        meaning,
        [
            ["joined Pellow Freight in may, my supervisor is Ines Carvalho, she's nice enough"],
            ["ines got promoted out of our team. new supervisor is a guy called Bram Visser"],
        ],
        "who's my supervisor at work now?",
    )
    assert "Bram" in reply and "nice" not in reply


def test_a_switch_to_a_day_is_a_change_of_the_day(meaning: Assistant) -> None:
    reply = said_in_turn(
        meaning,
        [
            ["our dog walker pavel comes every tuesday, 2 hours, £12 an hour"],
            ["pavel wants to switch to thursdays from next week, no problem for us"],
        ],
        "what day does pavel come?",
    )
    assert "thursdays" in reply.casefold() and "tuesday" not in reply.casefold()


def test_how_many_hours_is_the_count_not_the_rate_per_hour(meaning: Assistant) -> None:
    told = [
        ["our dog walker pavel takes the dogs out every tuesday, 2 hours, £12 an hour"],
        ["pavel's putting his price up to £14 an hour, fair enough"],
    ]
    price, hours = asked_in_turn(
        meaning,
        told,
        ["what day does pavel come?", "and how many hours does he do?"],
    )
    assert "2 hours" in hours and "14" not in hours


def test_a_count_is_said_in_its_unit() -> None:
    hours = counted_in("how many hours does she do each time?")
    assert hours is not None
    assert hours.search("comes every friday, 3 hours, £15/hr")
    assert not hours.search("her rate's going up to £17 an hour")
    assert counted_in("how much is the rent?") is None


def test_she_leans_past_a_question_that_leaned_on_a_name() -> None:
    people = {"rosa": "cleaner"}
    asked = resolved(
        "how many hours does she do?",
        "how much do we pay her now?",
        people,
        ["what day does rosa come?"],
    )
    assert asked == "how many hours does rosa do?"
    # a question before that names no one, without one before it, leaves the pronoun
    assert resolved("how many hours does she do?", "how much do we pay her now?", people) == (
        "how many hours does she do?"
    )


def test_she_is_whom_the_message_before_named_though_it_told_a_home_since_changed(
    meaning: Assistant,
) -> None:
    # the message naming the wife taught a home the move replaced: recall leaves it out, and
    # "She" must still be her (no rule learns the job from "teaches")
    replies = asked_in_turn(
        meaning,
        [
            [
                "I live in Ballarat with my wife Grainne.",
                "She teaches maths at the grammar school.",
            ],
            ["Moved from Ballarat to Geelong last weekend, still unpacking"],
        ],
        ["Where do we live now?", "What does my wife do?"],
    )
    assert "Geelong" in replies[0]
    assert "maths" in replies[1]


def test_remind_me_the_thing_asks_for_it() -> None:
    from desktop_agent.core.questions import asks_only, plain_question

    assert plain_question("remind me the booking ref for the ferry") == (
        "what's the booking ref for the ferry?"
    )
    assert asks_only("can you remind me our landlord's number")
    # a reminder that tells stays one
    assert not asks_only("remind me my passport expires in may")
    assert not asks_only("remind me to ring the garage")


def test_what_was_paid_is_the_money_not_the_bookings_other_numbers(meaning: Assistant) -> None:
    reply = said_in_turn(
        meaning,
        [["lisbon's booked: casa amora, 9-12 april, booking ref 88213470. paid €430 upfront"]],
        "how much did we pay for the lisbon place?",
    )
    assert "430" in reply


def test_a_name_asked_is_not_answered_by_a_fact_naming_none(
    meaning: Assistant,
    embedder,  # noqa: ANN001
) -> None:
    from desktop_agent.core.extraction_fallback import use_embedder

    use_embedder(embedder)  # the statement classifier learns "User joined a rowing club too"
    reply = said_in_turn(
        meaning,
        [["oh and I joined a rowing club too!! it's called the Tideway Otters, we train sundays"]],
        "what's the name of the rowing club I joined?",
    )
    assert "Otters" in reply


def test_a_change_is_quoted_without_the_parts_that_only_name_the_old_one() -> None:
    from desktop_agent.core.quote_now import _without_the_old, said_as_now

    earlier = "my running buddy is Marcus, we do 10k on sundays. putting 200 a month into savings"
    assert (
        said_as_now(
            "Marcus moved to Glasgow :( so now i run with Hedda from work instead",
            earlier,
            "who do I run with now?",
        )
        == "now i run with Hedda from work instead"
    )
    assert (
        said_as_now(
            "200 a month was way too ambitious, so I've dropped it to 150 a month now",
            earlier,
            "how much am i putting into savings each month?",
        )
        == "I've dropped it to 150 a month now"
    )
    # a part naming the new one with the old stays whole
    both = "Hedda took Marcus's place as my running buddy, great pace too"
    assert _without_the_old(both, earlier, "who do I run with now?", names=True) == both
    # and a question that is not who or how much keeps the quote whole: the day said before
    # may be part of the answer ("my days off are sunday and monday now")
    days = "new rota so my long run moved, it's on saturday, sundays are for rest now"
    assert said_as_now(days, earlier, "what day is my long run?") == days


def test_forget_requests_for_a_detail_said_the_way_people_say_them() -> None:
    from desktop_agent.core.intent import perceive

    asked = {
        "pls forget marta's mobile number, she changed it": "marta's mobile number",
        "can you remove the alarm code from your memory, we reset it": "the alarm code",
        "actually wipe the router password, my flatmate says it's a bad idea": "router password",
        "delete our bank details please": "our bank details",
    }
    for request, topic in asked.items():
        intent = perceive(request)
        assert (intent.kind, intent.command, intent.argument) == ("command", "forget", topic)
    # editing a text stays editing a text
    for request in (
        "delete the code block",
        "remove the password from this email",
        "wipe the kitchen counter",
    ):
        assert perceive(request).command is None


def test_a_detail_forgotten_by_request_never_comes_back(meaning: Assistant) -> None:
    told = ["our alarm code is 4471, the key safe is by the back door"]
    replies = asked_in_turn(
        meaning,
        [told, ["can you remove the alarm code from your memory, we reset it", "yes"]],
        ["what's the alarm code?", "where's the key safe?"],
    )
    assert all("4471" not in reply for reply in replies)


def test_forgetting_a_detail_takes_only_the_words_that_say_it(meaning: Assistant) -> None:
    told = [
        "router is from Zenline and the wifi password is amberfox7731, writing it here so I "
        "stop asking my flatmate",
        "kasia at number 9 has our spare key, her mobile is 07700 900461",
    ]
    replies = asked_in_turn(
        meaning,
        [
            told,
            ["please wipe the wifi password, better not to keep it", "yes"],
            ["forget kasia's phone number, she changed it", "yes"],
        ],
        ["who's our router from?", "who has our spare key?", "what's kasia's number?"],
    )
    assert "Zenline" in replies[0]
    assert "kasia" in replies[1].casefold()
    assert all("amberfox7731" not in r and "900461" not in r for r in replies)


def test_a_detail_of_someone_named_in_the_request_takes_them_too() -> None:
    from desktop_agent.core.forget_request import _NAMED_NOT_OWNING

    assert _NAMED_NOT_OWNING.search("car salesman Tomasz mobile number")
    assert not _NAMED_NOT_OWNING.search("Bernadette's phone number")
    assert not _NAMED_NOT_OWNING.search("the wifi password")
