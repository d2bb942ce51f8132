# A module that lists what `from exported import *` binds.
__all__ = ["Encoder", "make_encoder", "_private_but_listed"]


class Encoder:
    def __init__(self, width):
        self.width = width


def make_encoder(width=4):
    return Encoder(width)


def helper_not_exported():
    return "hidden"


_private_but_listed = "listed"
