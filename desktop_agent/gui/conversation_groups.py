"""Where a conversation is listed: its title or "New chat", its date heading ("Pinned",
"Today", "Yesterday", ...), and the list's order, pinned first."""

from __future__ import annotations

from datetime import date, datetime

from desktop_agent.core.conversation import Conversation

UNTITLED = "New chat"


def display_title(conversation: Conversation) -> str:
    return conversation.title or UNTITLED


def date_group(conversation: Conversation, today: date | None = None) -> str:
    """The heading a conversation is listed under: pinned ones first, then by when it began."""
    if conversation.pinned:
        return "Pinned"
    today = today or datetime.now().astimezone().date()
    day = conversation.started_at.astimezone().date()
    age = (today - day).days
    if age <= 0:
        return "Today"
    if age == 1:
        return "Yesterday"
    if age < 7:
        return "Previous 7 days"
    if age < 30:
        return "Previous 30 days"
    return day.strftime("%B %Y") if day.year == today.year else str(day.year)


def listed_order(conversations: list[Conversation]) -> list[Conversation]:
    """Pinned first, each part newest first (the core lists newest first already)."""
    return sorted(conversations, key=lambda c: (not c.pinned, -c.started_at.timestamp()))
