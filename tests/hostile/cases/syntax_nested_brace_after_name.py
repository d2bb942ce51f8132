# expect: exit=1 stderr="SyntaxError"
# found by tests/fuzz (fuzz_parse): 40 levels of {y took time exponential in the depth
{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y{y
