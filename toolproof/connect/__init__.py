"""Protocol in: reaching a candidate (`py:` in-process, `cmd:` JSON Lines) and speaking protocol v1."""
