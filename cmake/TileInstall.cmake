# Where `cmake --install` puts things, and tile_install(), which installs the
# libraries and tools that are not built by add_mlir_library.
#
# add_mlir_library installs each library it builds (TileDialect,
# TileTransforms, TileConversion, TilePipelines, TileTune, TileInitAll) into
# lib/ and adds it to the export set MLIRTargets, as it does upstream
# (add_mlir_library_install). That set is the project's export set: the
# other libraries and the tools join it through tile_install(), and cmake/
# installs it as TileMLIRTargets.cmake, every target named TileMLIR::<name>.

set(TILE_INSTALL_BINDIR bin)
set(TILE_INSTALL_INCLUDEDIR include)
set(TILE_INSTALL_LIBDIR lib${LLVM_LIBDIR_SUFFIX}) # add_mlir_library's choice
# find_package(TileMLIR) looks in <prefix>/lib/cmake/TileMLIR*/.
set(TILE_INSTALL_PACKAGEDIR ${TILE_INSTALL_LIBDIR}/cmake/TileMLIR)
set(TILE_EXPORT_SET MLIRTargets)

# tile_install(TARGET...): installs libraries into lib/ (their users get
# include/) and executables into bin/, in the export set. Installed, a
# library or tool finds the project's other libraries next to it ($ORIGIN,
# $ORIGIN/../lib) and libMLIR.so / libLLVM.so in LLVM's library directory,
# without LD_LIBRARY_PATH.
function(tile_install)
  foreach(target ${ARGN})
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
      set(origin "\$ORIGIN/../${TILE_INSTALL_LIBDIR}")
    else()
      set(origin "\$ORIGIN")
      target_include_directories(${target} INTERFACE
        $<INSTALL_INTERFACE:${TILE_INSTALL_INCLUDEDIR}>)
    endif()
    set_target_properties(${target} PROPERTIES
      INSTALL_RPATH "${origin};${LLVM_LIBRARY_DIR}")
  endforeach()
  install(TARGETS ${ARGN} EXPORT ${TILE_EXPORT_SET}
    LIBRARY DESTINATION ${TILE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${TILE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${TILE_INSTALL_BINDIR})
endfunction()
