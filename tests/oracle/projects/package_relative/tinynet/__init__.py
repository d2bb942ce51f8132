from .layers import Block, TinyNet
from . import utils

VERSION = (0, 1)
