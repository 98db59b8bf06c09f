"""Chat spellings and short forms, written out: read by extraction before it reads a message
and by the questions before they are understood ("im", "whos", "wat", "w", "rn")."""

from __future__ import annotations

from typing import Final

# Chat spellings and short forms -> standard words. Only words with a single reading in a
# personal statement: "bro" (also a form of address) and "id" (an identifier) are left alone.
INFORMAL: Final = {
    "im": "I'm",
    "i": "I",
    "i'm": "I'm",
    "i've": "I've",
    "i'd": "I'd",
    "i'll": "I'll",
    "ive": "I've",
    "dont": "don't",
    "cant": "can't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "isnt": "isn't",
    "veggie": "vegetarian",
    "veggies": "vegetables",
    "fav": "favourite",
    "fave": "favourite",
    "favs": "favourites",
    "prob": "probably",
    "probs": "probably",
    "def": "definitely",
    "defo": "definitely",
    "deffo": "definitely",
    "luv": "love",
    "h8": "hate",
    "gf": "girlfriend",
    "gfs": "girlfriend's",
    "bfs": "boyfriend's",
    "bf": "boyfriend",
    "hubby": "husband",
    "wifey": "wife",
    "sis": "sister",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "wknd": "weekend",
    "bday": "birthday",
    "yrs": "years",
    "wanna": "want to",
    "gonna": "going to",
    "thx": "thanks",
    "pls": "please",
    "plz": "please",
    "ppl": "people",
    "w/": "with",
    # texting: "transferred to sheffield last wk", "going w the skoda", "moved it bc of the nausea"
    "wk": "week",
    "wks": "weeks",
    "w": "with",
    "thru": "through",
    "bc": "because",
    "cuz": "because",
    "abt": "about",
    "tho": "though",
    "rn": "right now",
    "atm": "at the moment",
    "ur": "your",
    "u": "you",
    # question words, so "wat rate am i getting" reads as the question it is
    "whos": "who's",
    "whats": "what's",
    "wats": "what's",
    "wat": "what",
    "wot": "what",
    "wut": "what",
    "hows": "how's",
    "wheres": "where's",
    "whens": "when's",
}


__all__ = ["INFORMAL"]
