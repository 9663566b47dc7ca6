"""toolproof adapter for Microsoft Agent Framework (agent-framework-core + agent-framework-openai)."""
