"""Extraction rules for who provides the user's services: "I'm on Vodafone, 25GB for £18",
"internet is Virgin Media, £38 a month", "switched the broadband to Virgin Media", "left Virgin
and went with Community Fibre", "got my PAC code and I'm on giffgaff now". One slot per
service (mobile, broadband, energy), so a switch supersedes the old provider and "who were we
with before we went back to BT?" has an answer.

A provider is named by a capitalised name after words that say the service, or by a name this
module knows (``_KNOWN``), which also says the service when the sentence does not ("went with
Community Fibre"): "I'm on sertraline now" names no provider.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from desktop_agent.core.extraction_phrases import Match

# Providers that say which service they are, lower case -> (service, as written).
_KNOWN: Final[dict[str, tuple[str, str]]] = {
    **{
        name.casefold(): ("mobile", name)
        for name in (
            "Vodafone",
            "EE",
            "O2",
            "Three",
            "giffgaff",
            "Lebara",
            "Lycamobile",
            "Tesco Mobile",
            "Sky Mobile",
            "Smarty",
            "VOXI",
            "iD Mobile",
            "Virgin Mobile",
            "Verizon",
            "T-Mobile",
            "AT&T",
            "Mint Mobile",
            "Visible",
            "Cricket",
            "Telstra",
            "Optus",
            "Rogers",
            "Telus",
            "Fido",
            "Jio",
            "Airtel",
            "Orange",
            "Movistar",
            "Lidl Connect",
            "Asda Mobile",
        )
    },
    **{
        name.casefold(): ("broadband", name)
        for name in (
            "BT",
            "Virgin Media",
            "Virgin",
            "Sky",
            "Sky Broadband",
            "Plusnet",
            "TalkTalk",
            "Community Fibre",
            "Hyperoptic",
            "Zen",
            "Shell Energy Broadband",
            "NOW Broadband",
            "Xfinity",
            "Comcast",
            "Spectrum",
            "Starlink",
            "Vodafone Broadband",
            "Cox",
            "Google Fiber",
            "Optimum",
            "Ziggo",
            "KPN",
            "Eir",
            "Vodafone Fibre",
        )
    },
    **{
        name.casefold(): ("energy", name)
        for name in (
            "Octopus",
            "Octopus Energy",
            "British Gas",
            "EDF",
            "E.ON",
            "EON",
            "E.ON Next",
            "OVO",
            "Scottish Power",
            "So Energy",
            "Bulb",
            "Good Energy",
            "Ecotricity",
        )
    },
}
# Words that say the service, and the slot each is.
_SERVICE_WORDS: Final = {
    **dict.fromkeys("broadband internet wifi wi-fi fibre fiber router isp".split(), "broadband"),
    **dict.fromkeys("mobile phone sim network signal data tariff pac".split(), "mobile"),
    **dict.fromkeys("energy electricity electric gas power".split(), "energy"),
}
_SERVICE: Final = (
    r"(?P<service>broadband|internet|wifi|wi-fi|fibre|fiber|mobile|phone|sim|energy|"
    r"electricity|electric|gas)"
)
# (the phone's network, not "mobile": "what phone am I using?" asks for the handset)
_WHO: Final = {"broadband": "broadband provider", "mobile": "network provider",
               "energy": "energy supplier"}  # fmt: skip
# A name: what this module knows, else capitalised words ("Community Fibre", "Hyperoptic").
_KNOWN_NAMES: Final = "|".join(
    re.escape(name) for _, name in sorted(_KNOWN.values(), key=lambda k: -len(k[1]))
)
_NAME: Final = (
    rf"(?P<name>(?i:{_KNOWN_NAMES})(?![\w&-])|(?!I\b)[A-Z][\w&+.-]*(?:\s+[A-Z][\w&+.-]*)?)"
)
# "our broadband is BT Full Fibre 500", "internet is Virgin Media", "my phone provider is EE"
_SERVICE_IS: Final = re.compile(
    rf"\b(?i:{_SERVICE})(?P<who>\s+(?i:provider|supplier|company|network|contract|plan|deal|"
    r"package|tariff))?\s+(?i:is|'s|’s)\s+(?i:now\s+|still\s+)?(?i:(?:with|through|from)\s+)?"
    rf"(?i:an?\s+|the\s+)?{_NAME}"
)
# "switched the broadband to Virgin Media", "moved our energy over to Octopus"
_SERVICE_TO: Final = re.compile(
    rf"\b(?i:switched|moved|changed|swapped|ported)\s+(?i:(?:the|my|our)\s+)?(?i:{_SERVICE})"
    rf"(?:\s+(?i:provider|supplier|contract|number))?\s+(?i:over\s+)?(?i:to|for)\s+{_NAME}"
)
# "I'm on Vodafone", "we're with Octopus for energy", "went with Community Fibre", "we went
# back to BT", "kept the Vodafone sim": the name says the service, or the sentence does
_ON_OR_WITH: Final = re.compile(
    r"\b(?i:(?:i'm|im|i\s+am|we're|we\s+are|i've\s+been|we've\s+been)\s+(?:now\s+|still\s+|"
    r"currently\s+)?(?:on|with)|went\s+(?:back\s+to|with|for)|gone\s+(?:back\s+to|with|for)|"
    r"going\s+(?:back\s+to|with)|back\s+(?:to|with)|signed\s+up\s+(?:with|to)|moved\s+(?:over\s+)?to|"
    r"switched\s+(?:over\s+)?to|joined|kept\s+(?:the|my|our)|jumped\s+ship\s+to|"
    r"ported\s+(?:my\s+number\s+)?(?:over\s+)?to|"
    # "my phone's a Pixel 7, on Telstra" (not ", on Monday")
    r"(?<=,\s)on(?=\s+(?!(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|"
    r"february|march|april|may|june|july|august|september|october|november|december)\b)))\s+"
    rf"{_NAME}"
)
# "Hyperoptic gets installed tomorrow", "Octopus takes over on the 1st": a new provider coming
_COMING: Final = re.compile(
    rf"(?:^|(?<=[.!?,;]\s)|(?<=\bso\s)){_NAME}\s+(?i:(?:gets?|is\s+getting|is\s+being|are|is|"
    r"got|was|were|'s|’s)\s+(?:(?:finally|being|all|now)\s+)?(?:installed|connected|set\s+up|"
    r"switched\s+on|live|fitted|booked\s+in)|takes?\s+over|kicks?\s+in)\b"
)
_CHANGED: Final = re.compile(
    r"\b(?:now|switched|moved|changed|swapped|went|gone|going|left|back\s+to|ported|signed\s+up|jumped|"
    r"joined|instead|new)\b",
    re.IGNORECASE,
)


def provider(sentence: str) -> Iterator[Match]:
    """The provider of a service the sentence names, as one fact per service."""
    seen: set[str] = set()
    for pattern in (_SERVICE_TO, _SERVICE_IS, _ON_OR_WITH, _COMING):
        for found in pattern.finditer(sentence):
            name = _provider_name(found.group("name"))
            said = found.groupdict().get("service")
            # (the service of the clause it is named in: "broadband is Virgin Media, and I'm on
            # EE for my phone")
            clause = _clause_at(sentence, found.start(), found.end())
            service = (
                _SERVICE_WORDS.get(said.casefold())
                if said
                else _service_of(clause, name) or _cue(sentence)  # "I'm on Spusu, 20GB"
            )
            if name is None or service is None or service in seen:
                continue
            if name.split()[0].casefold() in _MAKES:
                continue  # "switched to a Pixel": a phone, not who connects it
            if (
                said is not None
                and service == "mobile"
                and not found.groupdict().get("who")
                and _KNOWN.get(name.casefold(), ("",))[0] != "mobile"
            ):
                continue  # "my phone is a Fairphone": the handset
            seen.add(service)
            correction = pattern in (_SERVICE_TO, _COMING) or bool(_CHANGED.search(sentence))
            text = f"User's {_WHO[service]} is {name}"
            yield Match("fact", f"provider:{service}", name, text, 0.8, correction=correction)


def _clause_at(sentence: str, start: int, end: int) -> str:
    """The clause of ``sentence`` the words at ``start``-``end`` are in."""
    cuts = [m.end() for m in _CLAUSE_CUT.finditer(sentence, 0, start)]
    after = _CLAUSE_CUT.search(sentence, end)
    return sentence[cuts[-1] if cuts else 0 : after.start() if after else len(sentence)]


_CLAUSE_CUT: Final = re.compile(r"[,;]\s*|\s+(?:and|but)\s+", re.IGNORECASE)


def _provider_name(said: str) -> str | None:
    """The provider in what followed the words: "BT" of "BT Full Fibre", "Virgin Media"."""
    words = said.split()
    for n in range(len(words), 0, -1):
        named = " ".join(words[:n])
        known = _KNOWN.get(named.casefold())
        if known is not None:
            return None if named.islower() and named in _ORDINARY else known[1]
    if said[:1].islower():
        return None
    return " ".join(words)


# Makes of phones and computers: devices, never providers.
_MAKES: Final = frozenset(
    "iphone pixel galaxy samsung oneplus nokia motorola moto xiaomi fairphone huawei apple "
    "google sony oppo honor macbook thinkpad".split()
)

# Names that are ordinary words too: only capitalised ("I'm on three tablets a day").
_ORDINARY: Final = frozenset(
    "three orange sky zen visible cricket virgin spectrum optimum cox bulb power bt ee".split()
)


def _service_of(sentence: str, name: str | None) -> str | None:
    """The service of a provider named without one: the sentence's words, else the name's."""
    cue = _cue(sentence)
    if cue is not None:
        return cue
    known = _KNOWN.get((name or "").casefold())
    return known[0] if known is not None else None


def _cue(sentence: str) -> str | None:
    for word in re.findall(r"[a-z][a-z-]*", sentence.casefold()):
        if word in _SERVICE_WORDS:
            return _SERVICE_WORDS[word]
    if re.search(r"\b\d+\s?gb\b", sentence, re.IGNORECASE):
        return "mobile"  # "25GB plan for £18"
    return None


__all__ = ["provider"]
