"""Protocol v1 adapter for openai-agents (PyPI `openai-agents`): see README.md beside this file."""
