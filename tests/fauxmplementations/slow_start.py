"""Sleeps 1.5 s before it reads stdin (a slow import, say); well behaved after that."""

import time

from _faux import Faux

STARTUP_SECONDS = 1.5

if __name__ == "__main__":
    time.sleep(STARTUP_SECONDS)
    Faux().serve()
