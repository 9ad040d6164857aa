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

# tile_c_objects(NAME SOURCES...): C sources as position-independent objects
# (NAMEObjects, with the project's C rules), in the static library NAME that
# the tools and tests link; the objects also go into shared libraries
# (libtile_tune.so). Both see the calling folder's headers.
function(tile_c_objects name)
  add_library(${name}Objects OBJECT ${ARGN})
  tile_c_options(${name}Objects)
  set_target_properties(${name}Objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name}Objects PUBLIC
    ${CMAKE_CURRENT_SOURCE_DIR}
    ${PROJECT_SOURCE_DIR}/include
    ${MLIR_INCLUDE_DIRS}
  )
  add_library(${name} STATIC $<TARGET_OBJECTS:${name}Objects>)
  target_include_directories(${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()
