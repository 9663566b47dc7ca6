"""Misbehaves nowhere: the control every other fauxmplementation differs from in exactly one way."""

from _faux import Faux

if __name__ == "__main__":
    Faux().serve()
