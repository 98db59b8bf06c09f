"""The assistant itself: conversations, the agent loop, and the memory model on top of the vault.

Never imports Qt, llama_cpp, lancedb or keyring: it talks to those through small protocols.
"""
