"""Protocol v1 adapter for pydantic-ai (PyPI `pydantic-ai-slim[openai,mcp]`): see README.md."""
