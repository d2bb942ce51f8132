# Writes the prelude .py files into a C++ header as raw string literals.
# Usage: cmake -DSRC_DIR=<dir with init.py nn.py optim.py> -DOUT=<header> -P embed_prelude.cmake
file(WRITE "${OUT}.tmp" "// Generated from core/script/prelude/*.py by tools/embed_prelude.cmake. Do not edit.\n#pragma once\n\nnamespace fl::script {\n")
foreach(pair "init;Init" "nn;Nn" "optim;Optim" "utils;Utils")
  list(GET pair 0 name)
  list(GET pair 1 camel)
  file(READ "${SRC_DIR}/${name}.py" content)
  file(APPEND "${OUT}.tmp" "inline const char* kPrelude${camel} = R\"FLPRELUDE(${content})FLPRELUDE\";\n")
endforeach()
file(APPEND "${OUT}.tmp" "\n} // namespace fl::script\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
file(REMOVE "${OUT}.tmp")
