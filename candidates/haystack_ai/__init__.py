"""Haystack (haystack-ai with mcp-haystack): its protocol v1 adapter."""
