# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(open)\b" nofile="/tmp/fuselab_hostile_pwned"
f = open('/tmp/fuselab_hostile_pwned', 'w')
f.write('pwned')
f.close()
