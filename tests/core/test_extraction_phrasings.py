"""Everyday ways of saying a fact that the first rules missed (written before the rules that
read them, from a fresh batch of whole-chat scenarios, and varied so that no rule fits one
sentence)."""

from __future__ import annotations

import pytest

from desktop_agent.core.extraction import extract
from tests.core.conftest import facts


@pytest.mark.parametrize(
    ("message", "value"),
    [
        ("hey there, name's Oskar.", "Oskar"),
        ("Hi, the name's Birgit, nice to meet you.", "Birgit"),
        ("Morning! Name is Tobias by the way.", "Tobias"),
    ],
)
def test_a_name_said_without_my(message: str, value: str) -> None:
    assert facts(message).get("name") == f"User's name is {value}"


@pytest.mark.parametrize(
    ("message", "city"),
    [
        ("I've lived in Berlin for ten years.", "Berlin"),
        ("I grew up in Cork, but I have lived in Madrid since 2015.", "Madrid"),
        ("Sam and I just moved in together in Edinburgh!", "Edinburgh"),
        ("My wife and I moved to Bristol in the spring.", "Bristol"),
    ],
)
def test_where_the_user_lives_in_other_words(message: str, city: str) -> None:
    assert facts(message).get("home_city") == f"User lives in {city}"


def test_moving_together_is_a_change_of_home() -> None:
    (moved,) = [
        f for f in extract("Jo and I moved in together in Leeds.") if f.subject_key == "home_city"
    ]
    assert moved.is_correction


def test_having_lived_somewhere_once_is_not_home() -> None:
    # only the home's past: "where did I live before?" has it, "where do I live?" does not
    found = extract("I lived in Rome for a year when I was a student.")
    assert [(f.text, f.past) for f in found if f.subject_key == "home_city"] == [
        ("User lives in Rome", True)
    ]


@pytest.mark.parametrize(
    ("message", "job"),
    [
        ("I work from home as a translator, mostly Portuguese to English.", "translator"),
        ("I work part-time as a librarian.", "librarian"),
        ("I work remotely as a data analyst.", "data analyst"),
    ],
)
def test_a_job_with_how_it_is_done(message: str, job: str) -> None:
    assert facts(message).get("job", "").startswith(f"User works as a {job}")


@pytest.mark.parametrize(
    ("message", "company"),
    [
        ("I'm a junior accountant at Deloitte.", "Deloitte"),
        ("I work as a nurse at St Mary's Hospital.", "St Mary's Hospital"),
    ],
)
def test_a_named_workplace_is_the_employer_too(message: str, company: str) -> None:
    found = facts(message)
    assert found.get("employer") == f"User works at {company}"
    assert "job" in found


def test_an_unnamed_workplace_stays_with_the_job() -> None:
    found = facts("I work as a veterinary nurse at an animal hospital in Leeds.")
    assert "employer" not in found
    assert "animal hospital" in found["job"]


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("My gym is called Iron Temple.", "name_of:gym", "User's gym is called Iron Temple"),
        ("my band is named The Loose Ends", "name_of:band", "User's band is named The Loose Ends"),
        ("Our boat is called Sea Biscuit.", "name_of:boat", "User's boat is called Sea Biscuit"),
    ],
)
def test_things_the_user_named(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_named_thing_is_not_a_description() -> None:
    assert not [k for k in facts("My car is called a hatchback.") if k.startswith("name_of:")]


@pytest.mark.parametrize(
    ("message", "key", "name"),
    [
        ("I live in Valencia with my parrot Kiwi.", "name_of:parrot", "Kiwi"),
        ("I spent the weekend hiking with my brother Anders.", "name_of:brother", "Anders"),
    ],
)
def test_a_named_relation_inside_a_clause(message: str, key: str, name: str) -> None:
    assert facts(message).get(key, "").endswith(name)


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("In my spare time I restore old fountain pens.", "restores old fountain pens"),
        ("For fun I build model railways.", "builds model railways"),
        ("My hobby is birdwatching.", "birdwatching"),
        ("In my free time I like to paint watercolours.", "paints watercolours"),
    ],
)
def test_hobbies(message: str, words: str) -> None:
    hobbies = [t for k, t in facts(message).items() if k.startswith("hobby")]
    assert hobbies and words in hobbies[0]


@pytest.mark.parametrize(
    "message",
    [
        "I'm five months pregnant with our first.",
        "I am 20 weeks pregnant.",
    ],
)
def test_pregnancy_with_how_far_along(message: str) -> None:
    assert facts(message).get("condition:pregnancy") == "User is pregnant"


@pytest.mark.parametrize(
    ("message", "drink", "changed"),
    [
        ("I drink way too much espresso.", "espresso", False),
        ("I only drink green tea now.", "green tea", True),
        ("These days I mostly drink oat milk lattes.", "oat milk lattes", True),
    ],
)
def test_what_the_user_drinks(message: str, drink: str, changed: bool) -> None:
    (found,) = [f for f in extract(message) if f.subject_key == "drink"]
    assert found.text == f"User drinks {drink}"
    assert found.is_correction is changed


@pytest.mark.parametrize(
    "message", ["I'm off alcohol and soft cheese for now.", "I've been sober for two years."]
)
def test_not_drinking_alcohol(message: str) -> None:
    assert facts(message).get("drink:alcohol") == "User does not drink alcohol"


@pytest.mark.parametrize(
    ("message", "key", "name"),
    [
        ("My boyfriend Lucas and I share a tiny flat in Lyon.", "name_of:boyfriend", "Lucas"),
        ("My sister Ana and I went hiking in the Alps.", "name_of:sister", "Ana"),
    ],
)
def test_a_named_relation_doing_something_with_the_user(message: str, key: str, name: str) -> None:
    assert facts(message).get(key, "").endswith(name)


# --- a second batch (2026-11-25, 16:10), written before its rules --------------------------


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        (
            "I'm seeing someone new, his name is Felipe.",
            "name_of:partner",
            "User's partner is named Felipe",
        ),
        (
            "I've got a new girlfriend, her name's Priya.",
            "name_of:partner",
            "User's partner is named Priya",
        ),
        ("Hi, I'm Rahul, married to Anjali.", "name_of:partner", "User's partner is Anjali"),
        ("I'm Greta, a carpenter from Bergen.", "job", "User works as a carpenter"),
        ("I'm Greta, a carpenter from Bergen.", "origin", "User is from Bergen"),
        (
            "We have twin boys, Dev and Arjun.",
            "name_of:sons",
            "User's sons are called Dev and Arjun",
        ),
        (
            "I have three daughters: Mia, Zoe and Ava.",
            "name_of:daughters",
            "User's daughters are called Mia, Zoe and Ava",
        ),
    ],
)
def test_names_and_jobs_said_across_a_sentence(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_new_partner_replaces_the_old_one() -> None:
    (found,) = [
        f
        for f in extract("I'm dating someone new, her name is Kim.")
        if f.subject_key == "name_of:partner"
    ]
    assert found.is_correction


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("I support Celtic, have done since I was a kid.", "team", "User supports Celtic"),
        ("I was born in Lagos.", "origin", "User was born in Lagos"),
        ("I earn about 52k a year.", "income", "User earns about 52k a year"),
        ("I make 30 dollars an hour.", "income", "User makes 30 dollars an hour"),
        (
            "I take sertraline every morning for anxiety.",
            "medication:sertraline",
            "User takes sertraline",
        ),
        (
            "I've started learning Japanese on Duolingo.",
            "learning:japanese",
            "User is learning Japanese",
        ),
        ("I started learning the cello last year.", "learning:cello", "User is learning the cello"),
    ],
)
def test_more_everyday_facts(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_corrected_team_supersedes() -> None:
    (found,) = [
        f
        for f in extract("Correction: I actually support Hibs, not Celtic.")
        if f.subject_key == "team"
    ]
    assert found.text == "User supports Hibs" and found.is_correction


def test_giving_up_one_thing_for_another_is_a_replacement() -> None:
    from desktop_agent.core.extraction_changes import read

    changes = read("I gave up on Japanese, switched to Korean instead.")
    assert [(c.kind, c.old, c.new) for c in changes] == [("replace", "Japanese", "Korean")]


@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        (
            "Anjali's a dentist, she runs her own practice.",
            "person:partner:job",
            "User's partner Anjali is a dentist",
        ),
        (
            "Anjali is now a head teacher.",
            "person:partner:job",
            "User's partner Anjali is a head teacher",
        ),
        (
            "It's Isla's birthday on Sunday, she'll be seven.",
            "person:daughter:age",
            "User's daughter Isla will be seven",
        ),
    ],
)
def test_what_is_said_of_a_known_person_by_name(message: str, key: str, text: str) -> None:
    from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE

    token = KNOWN_PEOPLE.set({"anjali": "partner", "isla": "daughter"})
    try:
        assert facts(message).get(key) == text
    finally:
        KNOWN_PEOPLE.reset(token)


def test_a_name_nobody_told_says_nothing() -> None:
    assert not facts("Anjali's a dentist.")


# --- a fourth batch, corrections (2026-11-25, 17:00), written before its rules ------------


@pytest.mark.parametrize(
    ("message", "key", "text", "corrects"),
    [
        (
            "Scratch that, I'm in Bath now, moved over the summer.",
            "home_city",
            "User lives in Bath",
            True,
        ),
        ("I've left Siemens, I'm at Bosch now.", "employer", "User works at Bosch", True),
        (
            "My dog is called Bruno, he's a beagle.",
            "person:dog:kind",
            "User's dog Bruno is a beagle",
            False,
        ),
    ],
)
def test_corrections_said_in_passing(message: str, key: str, text: str, corrects: bool) -> None:
    (found,) = [f for f in extract(message) if f.subject_key == key]
    assert found.text == text and found.is_correction is corrects


def test_a_known_persons_new_job() -> None:
    from desktop_agent.core.extraction_grammar import KNOWN_PEOPLE

    token = KNOWN_PEOPLE.set({"piotr": "husband"})
    try:
        (found,) = [
            f
            for f in extract("Piotr quit the bakery, he drives a tram now.")
            if f.subject_key == "person:husband:job"
        ]
    finally:
        KNOWN_PEOPLE.reset(token)
    assert found.text == "User's husband Piotr drives a tram" and found.is_correction


def test_an_allergy_taken_back_in_a_report_has_the_allergys_slot() -> None:
    (told,) = extract("I'm allergic to strawberries.")
    (taken_back,) = extract("The results say I'm no longer allergic to strawberries.")
    assert taken_back.subject_key == told.subject_key
    assert taken_back.text == "User is not allergic to strawberries"
    assert taken_back.negated and taken_back.is_correction


@pytest.mark.parametrize(
    ("message", "ended"),
    [
        ("Bad news, I tore my ACL so no more running for me.", {"running", "run"}),
        ("I've stopped cycling to work since the crash.", {"cycling", "cycle"}),
        ("No more coffee for me, doctor's orders.", {"coffee"}),
    ],
)
def test_what_the_user_stopped_doing_ends(message: str, ended: set[str]) -> None:
    from desktop_agent.core.extraction_changes import read

    changes = read(message)
    assert {c.old for c in changes if c.kind == "end"} >= ended


# --- a fifth batch, the past (2026-11-25, 17:15), written before its rules ----------------


def test_a_pet_that_died_ends() -> None:
    from desktop_agent.core.extraction_changes import read

    changes = read("Nibbles passed away last week.")
    assert [(c.kind, c.old) for c in changes] == [("end", "Nibbles")]


@pytest.mark.parametrize(
    ("message", "key", "name"),
    [
        ("The kids now have a guinea pig named Pip.", "name_of:guinea pig", "Pip"),
        ("We adopted a kitten called Mochi.", "name_of:cat", "Mochi"),
        ("I have a beagle called Max.", "name_of:dog", "Max"),
    ],
)
def test_a_new_pet_named(message: str, key: str, name: str) -> None:
    assert facts(message).get(key, "").endswith(name)


# --- a sixth batch (2026-11-25, 17:37), written before its rules --------------------------


def test_favourites_listed_with_colons() -> None:
    found = facts("Favourite film: Amélie. Favourite band: Fleetwood Mac. My fave season - autumn.")
    assert found.get("favorite:film") == "User's favorite film is Amélie"
    assert found.get("favorite:band") == "User's favorite band is Fleetwood Mac"
    assert found.get("favorite:season") == "User's favorite season is autumn"


# The seventh batch of whole-chat scenarios (t75-t82), and variations of each sentence.
@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        ("Hey, I'm Priya. I'm a developer.", "name", "User's name is Priya"),
        ("I'm Ngozi.", "name", "User's name is Ngozi"),
        ("Hi, I'm Marta. I live in Porto.", "name", "User's name is Marta"),  # a GPE to spaCy
        (
            "Big news: I quit the startup. I'm freelancing as a UX designer now.",
            "job",
            "User works as a UX designer",
        ),
        ("I freelance as a copywriter.", "job", "User works as a copywriter"),
        (
            "Sold the Civic last week and bought a Tesla Model 3!",
            "vehicle",
            "User drives a Tesla Model 3",
        ),
        ("Just bought a Tesla.", "vehicle", "User drives a Tesla"),
        ("Moved to Porto last month.", "home_city", "User lives in Porto"),
        (
            "We just moved from Austin to Denver for Sofia's new job.",
            "home_city",
            "User lives in Denver",
        ),
        ("We moved to San Francisco for my new job.", "home_city", "User lives in San Francisco"),
        ("My gym locker code is 9930.", "detail:gym locker code", "User's gym locker code is 9930"),
        ("My shoe size is 42.", "detail:shoe size", "User's shoe size is 42"),
        (
            "My passport number is X1234567.",
            "detail:passport number",
            "User's passport number is X1234567",
        ),
    ],
)
def test_the_seventh_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


@pytest.mark.parametrize(
    "message",
    [
        "I'm Canadian.",
        "I'm Jewish.",
        "I'm Vegan.",
        "My phone is broken.",
        "Live in the moment.",
        "Got it.",
    ],
)
def test_no_name_detail_or_move_where_none_was_said(message: str) -> None:
    assert not {k for k in facts(message) if k in ("name", "home_city") or k.startswith("detail")}


# The eighth batch (t83-t90), and variations.
@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        (
            "My sister Ines lives in Madrid and teaches Spanish.",
            "name_of:sister",
            "User's sister is named Ines",
        ),
        (
            "My sister Ines lives in Madrid.",
            "person:sister:home_city",
            "User's sister Ines lives in Madrid",
        ),
        (
            "My work email is lena.k@example.org and my shoe size is 39.",
            "detail:work email",
            "User's work email is lena.k@example.org",
        ),
        (
            "My work email is lena.k@example.org and my shoe size is 39.",
            "detail:shoe size",
            "User's shoe size is 39",
        ),
        (
            "Marco and I broke up. I'm seeing someone new now, her name is Jade.",
            "name_of:partner",
            "User's partner is named Jade",
        ),
        (
            "I drink about four coffees a day, always a flat white.",
            "drink",
            "User drinks about four coffees a day, always a flat white",
        ),
        (
            "I've cut out coffee completely, I only drink green tea now.",
            "drink",
            "User drinks green tea",
        ),
    ],
)
def test_the_eighth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_news_of_someone_remembered_by_a_name_the_parser_calls_a_noun() -> None:
    from desktop_agent.core.extraction_subjects import KNOWN_PEOPLE

    token = KNOWN_PEOPLE.set({"ines": "sister"})
    try:
        found = facts("Ines has moved to Valencia, she got a job at the university there.")
    finally:
        KNOWN_PEOPLE.reset(token)
    assert found.get("person:sister:home_city") == "User's sister Ines has moved to Valencia"


# The ninth batch (t91-t98), and variations.
@pytest.mark.parametrize(
    ("message", "key", "text"),
    [
        (
            "Change of plan: we're adopting a rescue dog instead of a kitten, a beagle called "
            "Toffee.",
            "name_of:dog",
            "User's beagle is named Toffee",
        ),
        (
            "My brother Felix is a chef at a restaurant in Lyon.",
            "person:brother:home_city",
            "User's brother is based in Lyon",
        ),
        (
            "I gave up the guitar, I'm learning piano now.",
            "learning:piano",
            "User is learning piano now",
        ),
    ],
)
def test_the_ninth_batch(message: str, key: str, text: str) -> None:
    assert facts(message).get(key) == text


def test_a_dated_plan_said_with_now_is_a_correction() -> None:
    (plan,) = [
        f
        for f in extract(
            "The conference got moved, so I'm now flying to Lisbon on the 2nd of April."
        )
        if f.subject_key == "plan:flying lisbon"
    ]
    assert plan.text.startswith("User is now flying to Lisbon on the 2nd of April (")
    assert plan.is_correction


def test_what_is_chosen_instead_of_something_is_not_learned_as_had() -> None:
    found = facts("We're adopting a rescue dog instead of a kitten.")
    assert "pet:cat" not in found and found.get("pet:dog")


def test_switched_from_one_thing_to_another_is_a_replacement() -> None:
    from desktop_agent.core.extraction_changes import read

    changes = read("My doctor switched me from warfarin to apixaban last week.")
    assert [(c.kind, c.old, c.new) for c in changes] == [("replace", "warfarin", "apixaban")]
