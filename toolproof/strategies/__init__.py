"""Public Hypothesis strategies, one module per contract area (small and composable)."""
