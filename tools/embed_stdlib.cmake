# Writes core/script/stdlib/*.py into a C++ header: a table of (module name, source) pairs.
# Usage: cmake -DSRC_DIR=<core/script/stdlib> -DOUT=<header> -P embed_stdlib.cmake
file(GLOB files RELATIVE "${SRC_DIR}" "${SRC_DIR}/*.py")
list(SORT files)
file(WRITE "${OUT}.tmp" "// Generated from core/script/stdlib/*.py by tools/embed_stdlib.cmake. Do not edit.\n#pragma once\n\nnamespace fl::script {\nstruct BundledSource { const char* name; const char* source; };\ninline const BundledSource kStdlib[] = {\n")
foreach(f ${files})
  string(REGEX REPLACE "\\.py$" "" name "${f}")
  file(READ "${SRC_DIR}/${f}" content)
  file(APPEND "${OUT}.tmp" "    {\"${name}\", R\"FLSTDLIB(${content})FLSTDLIB\"},\n")
endforeach()
file(APPEND "${OUT}.tmp" "    {nullptr, nullptr},\n};\n} // namespace fl::script\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
file(REMOVE "${OUT}.tmp")
