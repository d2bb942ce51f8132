# expect: exit=2 stderr="error: unrecognized arguments: --bogus 7"
# script-args: --bogus 7
import argparse
argparse.ArgumentParser().parse_args()
