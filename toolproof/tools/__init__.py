"""The tools around the suite: the `toolproof` command line, smoke, the runtime matrix, the bench."""
