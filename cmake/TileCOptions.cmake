# tile_c_options(TARGET...): the project's C rules for each target: C11
# without compiler extensions, and every warning of -Wall -Wextra an error.
# The runtime, the tools, the Python extension and the C tests all use it,
# so that a rule changes in one place.
function(tile_c_options)
  foreach(target ${ARGN})
    set_target_properties(${target} PROPERTIES
      C_STANDARD 11
      C_STANDARD_REQUIRED ON
      C_EXTENSIONS OFF
    )
    target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
  endforeach()
endfunction()
