# expect: exit=1 stderr="fatal: bad config"
raise SystemExit("fatal: bad config")
