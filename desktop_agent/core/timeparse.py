"""Time expressions in questions ("last week", "in May", "2 days ago") as datetime windows.

Windows are half-open ``[start, end)`` in the time zone of ``now``. Only the first expression
found is used: questions rarely carry two, and a wrong guess only re-weights recall.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# A weekday (or weekdays) or a month named in a sentence; "may" is a verb first.
DAY_OR_MONTH = re.compile(
    r"\b(?:(?:"
    + "|".join(WEEKDAYS)
    + r")s?|"
    + "|".join(sorted(set(MONTHS) - {"may"}, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"


@dataclass(frozen=True, slots=True)
class TimeWindow:
    """A half-open window ``[start, end)`` and the words it came from."""

    start: datetime
    end: datetime
    phrase: str
    span: tuple[int, int]

    def contains(self, moment: datetime) -> bool:
        return self.start <= moment < self.end


def _day(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def _month_window(year: int, month: int, now: datetime) -> tuple[datetime, datetime]:
    start = _day(now).replace(year=year, month=month, day=1)
    end = start.replace(year=year + 1, month=1) if month == 12 else start.replace(month=month + 1)
    return start, end


def _latest_year_of(month: int, now: datetime) -> int:
    # "in May" asked in March means last May: questions look back, not ahead.
    return now.year if month <= now.month else now.year - 1


Rule = Callable[[re.Match[str], datetime], tuple[datetime, datetime] | None]


def _on_date(m: re.Match[str], now: datetime) -> tuple[datetime, datetime] | None:
    month = MONTHS[m["month"].lower()]
    day = int(m["day"])
    year = int(m["year"]) if m["year"] else _latest_year_of(month, now)
    try:
        start = _day(now).replace(year=year, month=month, day=day)
    except ValueError:
        return None
    return start, start + timedelta(days=1)


def _in_month(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    month = MONTHS[m["month"].lower()]
    year = int(m["year"]) if m["year"] else _latest_year_of(month, now)
    return _month_window(year, month, now)


def _in_year(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    start = _day(now).replace(year=int(m["year"]), month=1, day=1)
    return start, start.replace(year=start.year + 1)


def _relative_day(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    offset = {"today": 0, "tonight": 0, "yesterday": -1, "day before yesterday": -2}
    start = _day(now) + timedelta(days=offset[m["word"].lower()])
    return start, start + timedelta(days=1)


def _ago(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    count = int(m["n"]) if m["n"].isdigit() else _NUMBERS[m["n"].lower()]
    days = count * _UNIT_DAYS[m["unit"].lower()]
    centre = _day(now) - timedelta(days=days)
    # Fuzzy on purpose: "two weeks ago" rarely means exactly fourteen days.
    slack = timedelta(days=max(1, days // 4))
    return centre - slack, centre + timedelta(days=1) + slack


def _last_unit(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    today = _day(now)
    which, unit = m["which"].lower(), m["unit"].lower()
    if which == "past":
        # "the past week" is a rolling window, "last week" the calendar week before this one.
        return today - timedelta(days=_UNIT_DAYS[unit]), today + timedelta(days=1)
    if unit == "week":
        monday = today - timedelta(days=today.weekday())
        start = monday - timedelta(days=7) if which != "this" else monday
        return start, start + timedelta(days=7)
    if unit == "month":
        if which == "this":
            return _month_window(today.year, today.month, now)
        year, month = (today.year, today.month - 1) if today.month > 1 else (today.year - 1, 12)
        return _month_window(year, month, now)
    year = today.year if which == "this" else today.year - 1
    start = today.replace(month=1, day=1, year=year)
    return start, start.replace(year=year + 1)


def _weekend(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    today = _day(now)
    in_weekend = today.weekday() >= 5
    if (m["which"] or "").lower() == "this":
        saturday = (
            today - timedelta(days=today.weekday() - 5)
            if in_weekend
            else today + timedelta(days=5 - today.weekday())
        )
    else:
        # The most recent weekend that is already over.
        saturday = today - timedelta(days=(today.weekday() - 5) % 7)
        if in_weekend:
            saturday -= timedelta(days=7)
    return saturday, saturday + timedelta(days=2)


def _weekday(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    today = _day(now)
    # The most recent such day before today: questions look back.
    back = (today.weekday() - WEEKDAYS.index(m["weekday"].lower())) % 7 or 7
    start = today - timedelta(days=back)
    return start, start + timedelta(days=1)


def _past(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    count = int(m["n"]) if m["n"].isdigit() else _NUMBERS[m["n"].lower()]
    days = count * _UNIT_DAYS[m["unit"].lower()]
    return _day(now) - timedelta(days=days), _day(now) + timedelta(days=1)


_N = r"(?P<n>\d{1,3}|an?|one|two|three|four|five|six)"
_UNIT = r"(?P<unit>day|week|month|year)s?"
_RULES: tuple[tuple[re.Pattern[str], Rule], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), rule)
    for pattern, rule in (
        (
            rf"\b(?:on\s+)?(?P<day>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?:,?\s+{_YEAR})?\b",
            _on_date,
        ),
        (rf"\b{_MONTH}\s+(?P<day>[0-3]?\d)(?:st|nd|rd|th)?(?:,?\s+{_YEAR})?\b", _on_date),
        (rf"\b(?:in|during|since|of|last)\s+{_MONTH}(?:,?\s+{_YEAR})?\b", _in_month),
        (rf"\b{_MONTH},?\s+{_YEAR}\b", _in_month),
        (rf"\b(?:in|during|of)\s+{_YEAR}\b", _in_year),
        (r"\b(?P<word>day before yesterday|yesterday|today|tonight)\b", _relative_day),
        (rf"\b{_N}\s+{_UNIT}\s+ago\b", _ago),
        (rf"\b(?:in\s+)?the\s+(?:past|last)\s+{_N}\s+{_UNIT}\b", _past),
        (r"\b(?P<which>last|this|past|previous)\s+(?P<unit>week|month|year)\b", _last_unit),
        (r"\b(?P<which>last|this|past)\s+weekend\b", _weekend),
        (r"\b(?:(?P<which>last|this|on)\s+)?(?P<weekday>" + "|".join(WEEKDAYS) + r")\b", _weekday),
    )
)

# "may" and "march" are also verbs: a bare month name never counts, only "in May", "May 2023" or
# a May with a day, which the patterns above require.


def parse_time_window(text: str, now: datetime) -> TimeWindow | None:
    """The window meant by the first time expression in ``text``, relative to ``now``."""
    best: tuple[int, re.Match[str], Rule] | None = None
    for pattern, rule in _RULES:
        match = pattern.search(text)
        # Earliest match wins; on a tie the earlier (more specific) rule does.
        if match and (best is None or match.start() < best[0]):
            best = (match.start(), match, rule)
    if best is None:
        return None
    _, match, rule = best
    window = rule(match, now)
    if window is None:
        return None
    return TimeWindow(window[0], window[1], match.group(0).strip(), match.span())
