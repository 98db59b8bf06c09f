"""Dates in plans, resolved forward: "on the 12th" said on 23 November is 12 December.

``core.timeparse`` reads time in questions, which look back ("in May" asked in March means last
May); a plan looks ahead, so the same words resolve to the next such day. The result is an ISO
date ("2026-12-12"), a month ("2027-06") or a year ("2027"), or "" when the words name no date
("every Tuesday", "soon").
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from desktop_agent.core.timeparse import MONTHS, WEEKDAYS

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_DAY_MONTH = re.compile(rf"\b{_DAY}(?:\s+of)?\s+{_MONTH}\b", re.I)
_MONTH_DAY = re.compile(rf"\b{_MONTH}\s+{_DAY}\b", re.I)
_ORDINAL = re.compile(r"\b(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)\b", re.I)
_MONTH_ONLY = re.compile(rf"\b{_MONTH}\b", re.I)
_WEEKDAY = re.compile(r"\b(?P<next>next\s+)?(?P<weekday>" + "|".join(WEEKDAYS) + r")\b", re.I)
_RELATIVE = re.compile(r"\b(?P<which>next|this)\s+(?P<unit>week|weekend|month|year|summer)\b", re.I)


def resolve_date(phrase: str, now: datetime | None = None) -> str:
    """The next date ``phrase`` names, as ISO text, or "" (see the module docstring)."""
    today = (now or datetime.now()).date()
    lower = phrase.casefold()
    if re.search(r"\bevery\b|\b\w+days\b|\bweekends\b", lower):
        return ""  # a habit, not a date
    if "tomorrow" in lower:
        return (today + timedelta(days=1)).isoformat()
    found = _DAY_MONTH.search(lower) or _MONTH_DAY.search(lower)
    if found:
        return _next_day_of_month(today, MONTHS[found["month"]], int(found["day"]))
    found = _ORDINAL.search(lower)
    if found:
        day = int(found["day"])
        month, year = today.month, today.year
        if day < today.day:
            month, year = (1, year + 1) if month == 12 else (month + 1, year)
        return _iso(year, month, day)
    found = _WEEKDAY.search(lower)
    if found:
        ahead = (WEEKDAYS.index(found["weekday"]) - today.weekday()) % 7 or 7
        if found["next"] and ahead < 7:
            ahead += 7 if today.weekday() < WEEKDAYS.index(found["weekday"]) else 0
        return (today + timedelta(days=ahead)).isoformat()
    season = re.search(r"\b(summer|autumn|fall|winter|spring)\b", lower)
    if season and not re.search(r"\b(?:next|this)\b", lower):
        start = _SEASONS[season.group(1)]
        year = today.year if today.month <= start else today.year + 1
        return f"{year}-{start:02d}"
    found = _RELATIVE.search(lower)
    if found:
        return _relative(today, found["which"], found["unit"])
    found = _MONTH_ONLY.search(lower)
    if found and found["month"] != "may" or found and re.search(r"\bin\s+may\b|^may$", lower):
        month = MONTHS[found["month"]]
        year = today.year if month >= today.month else today.year + 1
        return f"{year}-{month:02d}"
    return ""


_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}


def _next_day_of_month(today: date, month: int, day: int) -> str:
    year = today.year if (month, day) >= (today.month, today.day) else today.year + 1
    return _iso(year, month, day)


def _iso(year: int, month: int, day: int) -> str:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return ""


def _relative(today: date, which: str, unit: str) -> str:
    step = 1 if which.casefold() == "next" else 0
    if unit == "year":
        return str(today.year + step)
    if unit == "month":
        month = today.month + step
        year = today.year + (month - 1) // 12
        return f"{year}-{(month - 1) % 12 + 1:02d}"
    if unit == "summer":
        return f"{today.year + step if today.month <= 8 else today.year + 1}-06"
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=step)
    if unit == "weekend":
        return (monday + timedelta(days=5)).isoformat()
    return monday.isoformat()


__all__ = ["resolve_date"]
