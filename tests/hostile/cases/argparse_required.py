# expect: exit=2 stderr="error: the following arguments are required: data"
import argparse
p = argparse.ArgumentParser()
p.add_argument("data")
p.parse_args()
