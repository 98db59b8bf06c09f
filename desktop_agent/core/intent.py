"""Perceive: what kind of message the user sent.

The kind steers the turn: a question recalls harder, a preference or task gets extracted, feedback
updates the outcome of the previous reply (and, when it is about length or style, which answer
style wins), a command is executed, not answered. Deterministic rules decide; given the app's
embedder, a classifier also reads the short messages the rules leave alone as feedback or not
(core/feedback.py).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from desktop_agent.core.extraction import extract
from desktop_agent.core.feedback import Reading, read_by_model, read_by_rules
from desktop_agent.search.tokenize import STOPWORDS

IntentKind = Literal["question", "preference", "task", "feedback", "command", "statement"]
FeedbackAbout = Literal["content", "style"]


@dataclass(frozen=True, slots=True)
class Intent:
    kind: IntentKind
    # Feedback only: True for "thanks, that worked", False for "that's wrong" or "too long".
    positive: bool | None = None
    # Command only: "remember" or "forget", and its argument ("/forget my old address").
    command: str | None = None
    argument: str = ""
    # A forget asked for inside a message: what the message told before it ("I've started at
    # Ocado now. | also, can you please forget what I told you about my salary").
    told: str = ""
    # Feedback only: about the reply's content (right, helpful) or its length or style.
    feedback_about: FeedbackAbout | None = None
    # Style feedback: the style wanted ("too long" -> "concise"); a stated preference ("keep it
    # short"): the style it asks for from now on.
    style: str | None = None


# "... (that) I told you about": says the thing was told, and is no part of it
_I_TOLD = re.compile(
    r"(?:that\s+)?i\s+(?:told\s+you|mentioned|said|gave\s+you)\b(?:\s+about)?"
    r"(?:\s+(?:earlier|before|last\s+time|yesterday))?",
    re.IGNORECASE,
)
# The words that only say a thing is something told: "the therapist stuff", "the sertraline
# note", "the entry about my ex"
_TOLD_THING = r"(?:thing|things|stuff|bit|part|info|information|note|notes|entry|entries)"
# What people type before a request: "hmm actually please forget ..."
_LEAD = (
    r"(?:hey|hi|ok|okay|so|oh|also|and|actually|um|umm|hmm|hm|erm|er|uh|ah|well|right|now|just|"
    r"no|wait|sorry|btw|lol|ugh|yeah|yo|oops)"
)
# Who is asked, as typed: "can u", "would ya", "i'd like you to"
_YOU = r"(?:you|u|ya)"
_SLASH = re.compile(r"^\s*/(remember|forget)\b\s*(.*)$", re.IGNORECASE | re.DOTALL)
_FORGET = re.compile(
    rf"^\s*(?:{_LEAD}[\s,!.]+)*"
    rf"(?:(?:can|could|would|will)\s+{_YOU}\s+|{_YOU}\s+can\s+(?:now\s+|go\s+ahead\s+and\s+)?|"
    rf"i['’]?d\s+like\s+{_YOU}\s+to\s+|i\s+(?:want|need)\s+{_YOU}\s+to\s+)?"
    r"(?:please\s+|pls\s+|plz\s+|kindly\s+|just\s+)*"
    r"(?:(?:forget|delete|erase|remove|wipe|scrub|unlearn)\s+"
    # "forget Gareth's phone number": what someone named has
    r"(?:(?=(?-i:[A-ZÀ-Ý])[\w-]+['’]s\s+\w)|"
    # ... typed in lower case, when it is a detail ("forget bernadette's phone number")
    r"(?=[a-z][\w-]+['’]s\s+(?:[\w-]+\s+){0,2}?(?:number|mobile|phone|address|email|password|"
    r"pin|code|birthday)\b)|"
    # "forget I ever applied at Monzo", "forget that I mentioned the loan": what was done or
    # told is what to forget
    r"(?:(?:that\s+)?i\s+(?:ever\s+)?(?:mentioned|said\s+anything\s+about|told\s+you\s+about)\s+|"
    r"(?:that\s+)?i\s+ever\s+(?=\w)|"
    rf"(?:the|that|all\s+(?:the|that))\s+{_TOLD_THING}\s+"
    r"(?:about|on|re|regarding)|"  # "forget the thing about my therapist"
    r"the\s+(?:part|bit)\s+where\s+i\s+(?:talked|spoke|told\s+you|went\s+on)\s+about|"
    r"that|about|what i (?:said|told you) about|"
    # "delete everything you know about Carla"
    rf"(?:everything|anything)\s+(?:(?:{_YOU}\s+(?:know|have|remember)|{_YOU}['’]ve\s+got)\s+)?"
    r"(?:about|on)|"
    # "forget everything I told you about my therapist"
    r"(?:everything|anything|all)\s+(?:that\s+)?i(?:['’]ve|\s+have)?\s+(?:said|told\s+you|mentioned)"
    r"\s+(?:about|on|regarding)\s+|"
    r"(?=(?:all\s+)?(?:my|our|his|her|their)\s)|"
    r"(?=(?:where|what|who|when|how\s+old|how\s+much|how\s+many)\s+(?:i|i'm|my|we)\b)|"
    # "forget the dentist appointment I told you about": what the user told, named as such
    rf"(?:all\s+)?(?:the|that)\s+(?=[\w'’ -]{{2,60}}?\s+{_I_TOLD.pattern})))"
    # "forget the hotel booking", "forget the therapist thing?": a thing named, then the end
    # (only "forget": "delete the second paragraph" edits a text)
    # ("forget the whole car park incident", not "forget the whole thing": never mind)
    r"|forget\s+(?:the|this)\s+(?:whole\s+(?=[\w'’-]+\s+\w))?(?!(?:past|rest|whole|above|last|previous|first|second|third|"
    r"next|question|answer|reply|email|paragraph|sentence|line)\b)"
    rf"(?=[\w'’ -]{{2,40}}?(?:\s+{_TOLD_THING})?(?:[\s,]+please)?(?:[.!?,;]|$))"
    # "delete the ballet info": a thing of the memory, named as such, never a text to edit
    r"|(?:delete|erase|remove|wipe|scrub)\s+(?:the|that|all\s+the)\s+"
    rf"(?=[\w'’ -]{{2,40}}?\s+(?:{_TOLD_THING}|details)(?:[\s,]+please)?(?:[.!?,;]|$))"
    # "can you take my phone number out of your memory", "remove the gate code from your memory"
    r"|(?:take|delete|erase|remove|wipe|scrub)\s+(?=[\w'’ -]{2,40}?\s+(?:out\s+of|from)\s+"
    r"(?:your\s+|the\s+)?(?:memory|notes|records?)\b)"
    # "wipe the wifi password": a secret or a detail kept, never a text to edit
    r"|(?:delete|erase|remove|wipe|scrub)\s+(?:the|that|my|our)\s+"
    r"(?=(?:[\w'’-]+\s+){0,3}?(?:password|passcode|pin|code(?!\s+(?:block|snippet|sample|review|"
    r"base|example|cell))|phone\s+number|mobile\s+number|bank\s+details|card\s+number|"
    r"account\s+number)\b)"
    r"(?![\w'’ -]{0,40}\bfrom\s+(?:this|that|the|my)\s+(?:text|message|email|doc|document|"
    r"paragraph|code|file|list|draft|letter|post|page|script)\b)"
    # "scrap the bit about my salary", "drop what I said about the vet bill" (not "drop my
    # son at football": these verbs forget only what is named as told)
    r"|(?:scrap|scratch|drop|ditch|bin|lose|clear(?:\s+out)?|get\s+rid\s+of)\s+(?:(?:the|that|all\s+"
    rf"(?:the|that))\s+{_TOLD_THING}\s+(?:about|on|re|"
    r"regarding)|what\s+i\s+(?:said|told\s+you|mentioned)\s+about|(?:anything|everything)\s+"
    r"(?:about|on))"
    # "can you not remember Tom's surgery?"
    # "i don't want you remembering my address", "no need to remember my old number": what is
    # told, named (not "don't keep asking")
    rf"|(?:i\s+don['’]?t\s+want\s+{_YOU}\s+(?:to\s+)?|{_YOU}\s+don['’]?t\s+need\s+to\s+|"
    r"no\s+need\s+to\s+|don['’]?t\s+|do\s+not\s+|stop\s+|not\s+)"
    r"(?:remember(?:ing)?|keep(?:ing)?|stor(?:e|ing)|sav(?:e|ing))\s+(?:that\s+)?"
    r"(?=(?:the|that|this|any|anything|everything|what|my|our|his|her|their|all)\b|"
    r"(?-i:[A-ZÀ-Ý])))"
    r"\b\s*(.*?)(?:[\s,]+please)?[\s.!?]*$",
    re.IGNORECASE | re.DOTALL,
)

# What follows the thing to forget and is not part of it: "forget everything about jake, i
# don't want him in here at all", "forget my address because I'm moving".
_WHY = re.compile(
    r"[,;]\s*(?=(?:i|i'm|im|i've|i'd|it|we|we're|we've|we'll|we\s+won't|because|"
    r"since|as|cos|coz|cause|thanks|thank\s+you|no\s+need|it's|that's|shouldn['’]?t|don['’]?t|"
    # ", probably shouldnt have shared that", ", honestly not sure why I said it"
    r"didn['’]?t|wouldn['’]?t|probably|prob|maybe|honestly|tbh|really|not\s+sure|"
    # ", was just me moaning"
    r"was|just|only|"
    r"not\s+(?:really|my|our|something|important|relevant)|"
    # ", my partner says keeping it in a chat is asking for trouble"
    r"(?:my|our)\s+[\w'’-]+\s+(?:says?|said|thinks?|reckons?|wants?)\b|"
    r"(?:she|he|they)(?:['’](?:s|re|ve|d))?\s+(?:has|have|had|got|changed|reset|stopped|quit|left|is|are|was|"
    r"were|doesn['’]?t|don['’]?t|asked|wants?|moved|finished|isn['’]?t|aren['’]?t)|"
    # ", that really wasn't mine to share"
    r"(?:that|it|this)\s+(?:really\s+|just\s+|honestly\s+|probably\s+)?"
    r"(?:wasn['’]?t|isn['’]?t|shouldn['’]?t|was|is)|"
    # ", the letting agent handles everything now": a clause of its own
    r"the\s+[\w'’-]+(?:\s+[\w'’-]+)?\s+(?:is|are|was|were|has|have|handles|does|did|will|can)"
    r")\b)|\s+(?:because|since|cos|coz)\s+|"
    # "... about Marcus. I don't want him in my head anymore" (not "Dr. Patel")
    r"(?<!\bDr)(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bSt)(?<!\bProf)[.!?]+\s+(?=[A-Z])",
    re.IGNORECASE,
)


def _forget_argument(forget: re.Match[str]) -> str:
    asked = forget.group(1)
    if (meant := _MEANT.search(asked)) is not None:
        # "the therapy stuff? like Dr. Lindqvist and all that": both are to be forgotten
        thing = _bare(asked[: meant.start()])
        what = _ALL_THAT.sub("", _WHY.split(asked[meant.end() :], maxsplit=1)[0].strip(" .!?,)"))
        if thing and what:
            asked = f"{thing} and {what}"
    elif (listed := _LISTED.search(asked)) is not None and _bare(asked[: listed.start()]):
        # "the custody case? lawyer, hearing, all of it": each of them too
        what = re.sub(r"\s*,\s*", " and ", listed["what"].strip(" ,"))
        asked = f"{_bare(asked[: listed.start()])} and {what}"
    argument, *why = _WHY.split(asked, maxsplit=1)
    also = _ALSO.match(why[0]) if why else None
    if also is not None and not re.search(r"\b(?:too|well)$", also[0]) and len(also[0].split()) > 5:
        also = None  # "... and the way you talk is weird": a remark, not one more thing
    if also is not None:
        # "my weight from your memory? and the target too"
        argument = f"{_FROM_MEMORY.sub('', argument)} and {also['thing']}"
    argument = re.sub(rf"\s+{_I_TOLD.pattern}\s*$", "", argument, flags=re.IGNORECASE)
    argument = _FROM_MEMORY.sub("", argument)
    argument = _THING.sub("", argument.strip(" .!?,"))
    argument = re.sub(r"\s+(?:please|pls|plz)\b", "", argument, flags=re.IGNORECASE)
    # "u can forget my bank pin now": when, not what
    argument = re.sub(r"\s+(?:now|anymore|any\s+more|for\s+good)$", "", argument, flags=re.I)
    return argument.strip(" .!,")


# What a request says it means, after the thing: "the therapy stuff? like Dr. Lindqvist and all
# that", "the court case stuff, e.g. Mr Okoro", "the money things (especially the loan)" (not
# "forget that I like pizza": a "like" after a word of the thing is a verb)
_MEANT: Final = re.compile(
    r"(?:[,?!(—–-]|\b(?:stuff|things?|bits?|business|info))\s*\(?\s*"
    r"(?:like|e\.?\s?g\.?|i\.?\s?e\.?|especially|including|incl\.?|namely|mainly|mostly)\s+",
    re.IGNORECASE,
)
_ALL_THAT: Final = re.compile(
    r",?\s+(?:(?:and|&)\s+(?:all\s+that|stuff|everything|so\s+on|that)|etc\.?)$", re.I
)
_THE: Final = re.compile(r"^(?:the|my|our|all\s+the)\s+", re.IGNORECASE)
# What a request lists after the thing, closed by "all of it": "the custody case? lawyer,
# hearing, all of it", "the medication stuff? the sertraline and the dose and all that"
_LISTED: Final = re.compile(
    r"(?:[?:;]|\s[-–—])\s+(?P<what>[^?.!;:]+?),?\s+(?:and\s+)?"
    r"(?:all\s+(?:of\s+)?(?:it|that|them|this)|everything|the\s+lot|etc\.?)(?=[\s,.!?;]|$)",
    re.IGNORECASE,
)


def _bare(thing: str) -> str:
    """The thing a request names, without "the", "stuff", "I told you last time"."""
    thing = re.sub(rf"\s+{_I_TOLD.pattern}\s*$", "", thing.strip(" .!?,"), flags=re.I)
    return _THE.sub("", _THING.sub("", thing.strip(" .!?,")))


# "... and the target too": one more thing to forget, said after the request
_ALSO: Final = re.compile(
    # (or with nothing after it: "forget him please? and the Porto trip, it's off")
    r"^(?:and|also|plus)\s+(?P<thing>(?:the|my|our|his|her|their)\s+[\w'’ -]{2,30}?)"
    r"(?:\s+(?:too|as\s+well)\b|(?=\s*[,.;!?]|\s*$))",
    re.IGNORECASE,
)

# "... from your memory": where it is, not what it is
_FROM_MEMORY: Final = re.compile(
    r"\s+(?:from|out\s+of)\s+(?:your\s+|the\s+)?(?:memory|records?|notes|brain|history)\s*$",
    re.IGNORECASE,
)

# "ok the bonus thing, can you scrub that? ...", "the stuff about my ex, please delete it": the
# thing named first, then a request to forget that points back at it, and the end of a
# sentence (what follows is why, and is not learned)
_FORGET_BACK: Final = re.compile(
    rf"^\s*(?:{_LEAD}[\s,!.]+)*"
    r"(?:ugh\s+)?(?:the|that|all\s+the)\s+(?:(?:thing|stuff|bit|part|info)\s+"
    r"(?:i\s+(?:typed|said|wrote|mentioned|told\s+you)\s+)?(?:about|on|re|regarding)\s+)?"
    r"(?P<topic>(?:(?:the|my|our|his|her|their)\s+)?[\w'’ -]{2,40}?)"
    r"\s*(?:[,:;]|\s[-–—])\s*(?:(?:can|could|would|will)\s+you\s+)?"
    r"(?:please\s+|pls\s+|plz\s+|just\s+)*(?:(?:forget|delete|erase|remove|wipe|scrub)\s+"
    # "can you just forget I mentioned it?"
    r"(?:(?:that\s+)?i\s+(?:ever\s+)?(?:mentioned|said|told\s+you)\s+)?(?:that|it|them|this)|"
    r"take\s+(?:that|it|them|this)\s+out\s+of\s+(?:your\s+)?(?:memory|notes|records?))\b"
    r"(?:\s+(?:please|for\s+me|from\s+(?:your\s+)?memory))*"
    r"\s*(?:[.!?]+(?:\s|$)|,\s+(?=i\b|i['’]|it|that|because|cos|since)|$)",
    re.IGNORECASE,
)


# "I told you about my father's diagnosis earlier. Please remove that": what was told, named
# first in the user's words, then the request pointing back at it
_TOLD_BACK: Final = re.compile(
    rf"^\s*(?:{_LEAD}[\s,!.]+)*"
    r"(?:(?:you\s+know\s+)?(?:what|the\s+(?:thing|stuff|bit)\s+)?)?i\s+(?:(?:told\s+you|"
    r"said\s+something)\s+(?:about|regarding|on)|mentioned(?:\s+(?:about|regarding|on))?)\s+"
    r"(?P<topic>(?:(?:the|my|our|his|her|their)\s+)?[\w'’ -]{2,60}?)"
    r"(?:\s+(?:earlier|before|last\s+time|yesterday|the\s+other\s+day))?"
    r"\s*(?:[.!?,;:]+|\s[-–—])\s*(?:(?:can|could|would|will)\s+you\s+)?"
    r"(?:please\s+|pls\s+|plz\s+|just\s+)*(?:forget|delete|erase|remove|wipe|scrub)\s+"
    r"(?:that|it|them|this)\b",
    re.IGNORECASE,
)


def _forget_back(text: str) -> Intent | None:
    asked = _FORGET_BACK.match(text) or _TOLD_BACK.match(text)
    if asked is None:
        return None
    topic = asked["topic"].strip()
    if not re.match(r"(?:the|my|our|his|her|their)\s", topic, re.IGNORECASE):
        topic = "the " + topic  # "the bonus thing": the thing, as it was named
    argument = _THING.sub("", topic)
    return Intent("command", command="forget", argument=argument)


def _forget_inside(text: str) -> Intent | None:
    """A forget asked for after something told, at the start of a later sentence or clause
    ("... normal hours!! also, one thing, can you please forget what I told you about my
    salary"). What the message says after the request is left unlearned: it often says more
    of what is to be forgotten ("the sertraline and the dose and all that")."""
    for start in _PART_START.finditer(text):
        told = _TRAILING_LEAD.sub("", text[: start.start()])
        back = _forget_back(text[start.end() :])
        if back is not None and len(told.split()) >= 3:
            # "... still 10am. also ugh that thing I typed about my mum's maiden name, take it
            # out of your memory please"
            return dataclasses.replace(back, told=told)
        forget = _FORGET.match(text[start.end() :])
        # (not "I love my job, | don't keep asking": only forgetting, asked for by name)
        if forget is None or not (
            _FORGETTING.search(lead := forget.group(0)[: forget.start(1)])
            # "and don't keep the bit about his first theory score"
            or (_NOT_KEEPING.search(lead) and _A_THING_TOLD.match(forget.group(1)))
        ):
            continue
        argument = _whose(_forget_argument(forget), told)
        if (
            argument.casefold().removesuffix(" please") in _POINTING
            and (said := _TOLD_OF.search(told)) is not None
        ):
            # "I feel bad I told you about Liam's gambling, ... can you delete that please"
            argument = said["topic"].strip()
        if argument.casefold() not in _NO_TOPIC and len(told.split()) >= 3:
            return Intent("command", command="forget", argument=argument, told=told)
    return None


# What a request points back with: "delete that please", "forget it"
_POINTING: Final = frozenset({"please", "it", "that", "this", "them"})
# What the user says they told: "I told you about Liam's gambling"
_TOLD_OF: Final = re.compile(
    r"\bi\s+(?:told\s+you|mentioned|said\s+something)\s+(?:about\s+)?"
    r"(?P<topic>(?:(?:the|my|our|his|her|their)\s+)?[\w'’ -]{2,40}?)(?=\s*[,.;!?]|$)",
    re.IGNORECASE,
)


def _whose(argument: str, told: str) -> str:
    """ "Kai bailed on the airport thing so please forget his number": "his" is the last person
    the message named before the request ("Kai's number")."""
    pronoun = re.match(r"(?:his|her|their)\s+", argument, re.IGNORECASE)
    names = _names_in(told)
    if pronoun is None or not names:
        return argument
    whose = re.sub(r"['’]s$", "", names[-1])  # ("cancelled Jayden's test": Jayden)
    return f"{whose}'s {argument[pronoun.end() :]}"


def whom_meant(topic: str, earlier: Sequence[str], known: Collection[str] = ()) -> str:
    """ "him and the Porto trip" as "Tomás and the Porto trip": a topic that opens with "him",
    "her" or "them" means the last person the user's ``earlier`` messages (oldest first)
    named ("Tomás and I broke up on Sunday." | "can you forget everything about him?"); of
    the names of a message, one the memory knows as someone's (``known``, in lower case)
    before any other ("Rui and I had a row at the Algarve house": Rui)."""
    pronoun = re.match(r"(?:him|her|them)\b", topic, re.IGNORECASE)
    if pronoun is None:
        return topic
    for said in reversed(earlier):
        names = _names_in(said)
        people = [n for n in names if n.casefold() in known] or names
        if people:
            return str(people[-1]) + topic[pronoun.end() :]
    return topic


def _names_in(text: str) -> list[str]:
    """The capitalised words of ``text`` that may be names, in order."""
    return [n for n in _NAMED.findall(text) if n.casefold() not in _NOT_NAMES | STOPWORDS]


# a capitalised word (at a sentence's start only when it is no common word: "Tom moved out")
_NAMED: Final = re.compile(r"\b([A-Z][a-zà-ÿ'’-]+)\b")
_NOT_NAMES: Final = frozenset(
    "i i'm i've i'll i'd monday tuesday wednesday thursday friday saturday sunday january "
    "february march april may june july august september october november december anyway "
    "also oh ok okay well yeah yes hey hi thanks sorry please btw ugh honestly".split()
)

_FORGETTING: Final = re.compile(r"\b(?:forget|delete|erase|wipe|scrub)\b", re.IGNORECASE)
# (and "Kai bailed on the airport thing | so please forget his number": a plea joined by "so")
_NOT_KEEPING: Final = re.compile(r"\b(?:don['’]?t|do\s+not)\s+(?:keep|store)\b", re.IGNORECASE)
_A_THING_TOLD: Final = re.compile(
    r"(?:the|that|this|any|anything|everything|what|my|our|his|her|their|all)\b", re.IGNORECASE
)
_PART_START: Final = re.compile(
    r"[.!?]+\s+|[,;:]\s+|\s[-–—]\s+|\s[^\w\s.,;:!?'’\"()&/-]+\s+|\s(?=(?:so|and|but)\s+(?:please|pls|plz|can\s+you|"
    r"could\s+you)\s+(?:forget|delete|erase|wipe|scrub)\b)",
    re.IGNORECASE,
)
# "also, one thing, | can you please forget ...": leads that belong to the request
_TRAILING_LEAD: Final = re.compile(
    r"(?:[\s,;:.!?–—-]*\b(?:also|and|oh|so|btw|anyway|one\s+thing|you\s+know\s+what|"
    r"actually|but))*[\s,;:–—-]*$",
    re.IGNORECASE,
)
_NO_TOPIC: Final = frozenset({"", "it", "that", "this", "them", "everything", "all"})

# "the therapist thing": the word that only says it is a thing
_THING = re.compile(r"\s+(?:thing|stuff|bit|part|info|note|notes|entry)$", re.IGNORECASE)

_QUESTION_START = re.compile(
    r"^\s*(?:what|what's|where|when|who|whom|whose|why|how|which|do|does|did|can|could|would|"
    r"will|should|shall|is|are|am|was|were|have|has|may|might|tell me|explain|remind me (?:what|"
    r"when|where|who|how|of))\b",
    re.IGNORECASE,
)
_TASK = re.compile(
    r"^\s*(?:please\s+)?(?:remind me to|don't let me forget|add (?:a )?(?:task|todo|to-do|"
    r"reminder)|i need to|i have to|i must|i've got to|help me|write|draft|make|create|plan|"
    r"summari[sz]e|translate|fix|find|book|schedule|list|compose|rewrite|generate|set up)\b",
    re.IGNORECASE,
)


_WH_START = re.compile(r"^\s*(?:what|where|when|who|why|how|which)\b", re.IGNORECASE)


def perceive(message: str, embedder: Any = None) -> Intent:
    """Classify one user message (commands first, then feedback, style preferences, questions,
    tasks, facts). ``embedder``, the app's, lets a classifier read short messages as feedback;
    without it the rules alone decide."""
    text = message.strip()
    slash = _SLASH.match(text)
    if slash:
        return Intent("command", command=slash.group(1).casefold(), argument=slash.group(2).strip())
    forget = _FORGET.match(text)
    if forget:
        return Intent("command", command="forget", argument=_forget_argument(forget))
    if (back := _forget_back(text)) is not None:
        return back
    if (inside := _forget_inside(text)) is not None:
        return inside
    reading = read_by_rules(text)
    if reading.label == "none" and embedder is not None and _may_be_feedback(text):
        reading = read_by_model(text, embedder)
    # "Thanks! Now convert it to Python" is a request first.
    if reading.is_feedback and not (reading.positive and _has_task(text)):
        return Intent(
            "feedback", positive=reading.positive, feedback_about=reading.about, style=reading.style
        )
    if reading.label == "preference" and not _WH_START.match(text) and not _has_task(text):
        return Intent("preference", style=reading.style)
    if text.endswith("?") or _QUESTION_START.match(text):
        return Intent("question")
    facts = extract(text)
    if any(fact.type == "task" for fact in facts) or _has_task(text):
        return Intent("task")
    # Facts about oneself ("my name is...") are statements: extraction stores them either way.
    if any(fact.type == "preference" for fact in facts):
        return Intent("preference")
    return Intent("statement")


def _has_task(text: str) -> bool:
    # "Great idea, now write a haiku": the request may follow a short remark.
    clauses = (
        re.sub(r"^\s*(?:now|then|ok|okay|so|and)\b[\s,]*", "", c) for c in re.split(r"[,.!;]", text)
    )
    return any(_TASK.match(c) for c in clauses)


_POLITE = re.compile(r"^\s*(?:can|could|would) you\b", re.IGNORECASE)


def _may_be_feedback(text: str) -> bool:
    """Whether the classifier should look: feedback is not a question or a request (but "could
    you go into more detail" may be)."""
    question = _QUESTION_START.match(text) and not _POLITE.match(text)
    return not (question or _has_task(text))


def reading_of(intent: Intent) -> Reading:
    """The feedback reading an intent carries (for benches and tests)."""
    if intent.kind == "feedback":
        label = "positive" if intent.positive else "content"
        if intent.feedback_about == "style":
            label = {"concise": "shorter", "detailed": "longer"}.get(intent.style or "", label)
        return Reading(label, style=intent.style)
    if intent.kind == "preference" and intent.style:
        return Reading("preference", style=intent.style)
    return Reading("none")
