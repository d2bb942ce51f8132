# expect: exit=1 stderr="socket" stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(socket)\b"
import socket
print(socket)
