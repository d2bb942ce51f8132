# expect: exit=0 nostdout=1
# nothing here
# import os
#   print('hidden')


# the end
