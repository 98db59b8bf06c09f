"""Extraction rules for the user's devices: "My phone is an old iPhone 8", "I replaced my phone,
I've got a Pixel 9 now", "I upgraded my laptop to a MacBook Air". One slot per kind of device,
so the new one supersedes the old and "which phone did I have before?" has an answer.

``device`` reads one clause anchored at its start, as ``extraction_rules`` do;
``device_replaced`` reads a whole sentence (``extraction_sentences``), since the new device is
often named after a comma.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from desktop_agent.core.extraction_phrases import Match

_DEVICES: Final = (
    r"(?P<thing>phone|mobile|laptop|computer|pc|tablet|ipad|watch|smartwatch|camera|e-reader|"
    r"kindle|console|tv|television|headphones)"
)
# A device's name: a capitalised make, then up to two words or numbers ("iPhone 8", "Pixel 9
# Pro", "MacBook Air"); "iPhone" and "iPad" start lower case.
_NAME: Final = r"(?P<name>(?:[A-Z]|i[A-Z])[\w+-]*(?:\s+(?:[A-Z0-9][\w+-]*|(?!now\b|too\b|and\b|but\b)[a-z]{2,3}\b)){0,2})"
_ADJECTIVES: Final = (
    r"(?:(?:old|new|ancient|battered|trusty|cheap|brand[- ]new|second-hand|refurbished)\s+)*"
)
_MY_DEVICE = re.compile(
    # ("phone is a Pixel 6, had it since 2021": the user's, said first without "my")
    # ("my phone's a Pixel 7")
    rf"^(?i:(?:my\s+)?(?P<new>new\s+)?){_DEVICES.replace('(?P<thing>', '(?P<thing>(?i:')})"
    rf"(?:\s+(?i:is)|\s*['’]s)\s+(?i:an?\s+|the\s+)?(?i:{_ADJECTIVES}){_NAME}"
)
_REPLACED = re.compile(
    rf"(?i:\b(?:replaced|upgraded|swapped|changed|got\s+a\s+new|bought\s+a\s+new)\s+(?:my\s+)?)"
    rf"{_DEVICES.replace('(?P<thing>', '(?P<thing>(?i:')})\b"
    r"(?:\s+(?i:to|for)\s+|[^.!?]*?\b(?i:got|bought|have|it's|it\s+is|went\s+for|now\s+have)\s+)"
    rf"(?i:an?\s+|the\s+)?(?i:{_ADJECTIVES}){_NAME}"
)
_KIND: Final = {"mobile": "phone", "smartwatch": "watch", "television": "tv", "pc": "computer"}


def device(clause: str) -> Iterator[Match]:
    """ "My phone is an old iPhone 8", "my new laptop is a ThinkPad"."""
    found = _MY_DEVICE.match(clause.strip())
    if found:
        yield _device(found, correction=bool(found.group("new")), said=clause)


def device_replaced(sentence: str) -> Iterator[Match]:
    """ "Finally replaced my phone, I've got a Pixel 9 now": the new device replaces the old;
    "I finally upgraded to a Pixel 9": the make says which device; "I've got a Pixel 7 phone
    and a ThinkPad X1 Carbon laptop": each device named with its kind."""
    found = _REPLACED.search(sentence)
    if found:
        yield _device(found, correction=True, said=sentence)
        return
    named = list(_named_with_kind(sentence))
    if named:
        yield from named
        return
    upgraded = _UPGRADED_TO.search(sentence)
    if (
        upgraded
        and upgraded.group("bought")
        and not _BY_USER.search(sentence[: upgraded.start()])
        and not _TO_ME.match(upgraded.group(0))  # ("work sent me a MacBook Air")
    ):
        return  # "my son got an iPhone for his birthday"
    name = upgraded and (upgraded.group("name") or upgraded.group("bought")).strip()
    name = name and re.sub(r"(?:\s+[a-z]+)+$", "", name)  # "iPhone | for his"
    # "a Samsung Galaxy S21", "a Google Pixel 8": the maker, then the make that says the device
    kind = name and next(filter(None, map(_MAKES.get, name.casefold().split())), None)
    if name and kind:
        article = "an" if name[:1].casefold() in "aeiou" else "a"
        text = f"User's {kind} is {article} {name}"
        yield Match("fact", f"device:{kind}", name, text, 0.8, correction=True)


# "a ThinkPad X1 Carbon laptop", after "I've got" / "I have" / "I use" at the sentence's start
_HAVE_DEVICES = re.compile(r"(?i:\bi(?:['’]ve|\s+have)?\s+(?:got|have|use|own)\b)")
_NAMED_KIND = re.compile(
    rf"(?i:\b(?:an?|my)\s+{_ADJECTIVES}){_NAME}\s+{_DEVICES.replace('(?P<thing>', '(?P<thing>(?i:')})\b"
)


def _named_with_kind(sentence: str) -> Iterator[Match]:
    have = _HAVE_DEVICES.search(sentence)
    if have is None:
        return
    for found in _NAMED_KIND.finditer(sentence, have.end()):
        yield _device(found, correction=False, said=sentence)


_UPGRADED_TO = re.compile(
    rf"(?i:\bi(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+)?(?:upgraded|switched|"
    rf"changed|moved)\s+to\s+(?:an?\s+|the\s+)?(?:new\s+)?){_NAME}|"
    # "dropped the pixel in the canal and got an iPhone 15", "got a Pixel 8 now"
    # ("went with a Pixel 9 this time", "ended up with an iPhone 15", "work sent me a MacBook")
    rf"(?i:\b(?:got|bought|picked\s+up|ordered|went\s+(?:with|for)|ended\s+up\s+(?:with|getting)|"
    rf"settled\s+on|opted\s+for|(?:sent|gave|given|issued|handed)\s+me)\s+(?:myself\s+)?"
    rf"(?:an?\s+|the\s+)(?:new\s+|used\s+|"
    rf"refurbished\s+|second[- ]?hand\s+)?){_NAME.replace('?P<name>', '?P<bought>')}"
    r"(?!\s+(?i:charger|case|cable|cover|screen|protector|adapter|box|stand|holder|mount|dock|"
    r"earbuds|pencil|keyboard|app)\b)"
)
# What "got" follows when the user got it: the sentence's start (or a mark, an emoji, before
# it), "I", or "and" after what they did.
_BY_USER: Final = re.compile(
    r"(?:^|[^\w\s'’]\s*|\b(?:i|i've|ive|and|just|finally|then|so)\s+)$", re.I
)
_TO_ME: Final = re.compile(r"(?:sent|gave|given|issued|handed)\s+me\b", re.IGNORECASE)
# Makes that say what device they are: "upgraded to a Pixel 9" is a phone.
_MAKES: Final = {
    **dict.fromkeys(
        "iphone pixel galaxy oneplus nokia motorola moto xiaomi fairphone huawei".split(), "phone"
    ),
    **dict.fromkeys("macbook thinkpad chromebook".split(), "laptop"),
    "ipad": "tablet",
    "kindle": "e-reader",
}


def _device(found: re.Match[str], *, correction: bool, said: str) -> Match:
    thing = found.group("thing").casefold()
    kind = _KIND.get(thing, thing)
    name = found.group("name").strip()
    old = re.search(rf"\b(?:old|ancient|battered)\s+{re.escape(name)}", said, re.IGNORECASE)
    said = f"{'old ' if old else ''}{name}"
    article = "an" if said[:1].casefold() in "aeiou" else "a"
    text = f"User's {kind} is {article} {said}"
    return Match("fact", f"device:{kind}", name, text, 0.8, correction=correction)


__all__ = ["device", "device_replaced"]
