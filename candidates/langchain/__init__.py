"""LangChain (create_agent with langchain-openai and langchain-mcp-adapters): its protocol v1 adapter."""
