"""Protocol v1 adapter for agno (PyPI `agno[mcp,openai]`): see README.md."""
