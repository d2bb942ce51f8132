# Writes the prelude .py files (core/script/prelude/*.py) into a C++ header: a table of
# (file stem, source) pairs, in name order.
# Usage: cmake -DSRC_DIR=<core/script/prelude> -DOUT=<header> -P embed_prelude.cmake
file(GLOB files RELATIVE "${SRC_DIR}" "${SRC_DIR}/*.py")
list(SORT files)
file(WRITE "${OUT}.tmp" "// Generated from core/script/prelude/*.py by tools/embed_prelude.cmake. Do not edit.\n#pragma once\n\nnamespace fl::script {\nstruct PreludeSource { const char* name; const char* source; };\ninline const PreludeSource kPrelude[] = {\n")
foreach(f ${files})
  string(REGEX REPLACE "\\.py$" "" name "${f}")
  file(READ "${SRC_DIR}/${f}" content)
  file(APPEND "${OUT}.tmp" "    {\"${name}\", R\"FLPRELUDE(${content})FLPRELUDE\"},\n")
endforeach()
file(APPEND "${OUT}.tmp" "    {nullptr, nullptr},\n};\n} // namespace fl::script\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
file(REMOVE "${OUT}.tmp")
