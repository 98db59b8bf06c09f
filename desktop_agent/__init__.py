"""desktop-agent: a local-first private assistant with encrypted long-term memory."""

__version__ = "0.1.0"
