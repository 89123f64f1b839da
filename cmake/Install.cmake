# What `cmake --install` puts under the prefix (docs/package.md): the compiler and
# tile-opt, the runtime library and headers, the CMake package (tilecConfig.cmake,
# its version file, the targets and tilec_add_kernels), a pkg-config file for the
# runtime, the docs and the editor files.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(TILEC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/tilec)

set_target_properties(tile_runtime PROPERTIES EXPORT_NAME runtime)
install(TARGETS tile_runtime EXPORT tilecTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY runtime/include/tile DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TILEC_BUILD_COMPILER)
  # Linked against Debian's shared LLVM (without TILEC_STATIC_LLVM), the
  # installed programs keep the path to it.
  set_target_properties(tilec tile-opt tile-lsp-server PROPERTIES
                        INSTALL_RPATH_USE_LINK_PATH TRUE)
  install(TARGETS tilec tile-opt tile-lsp-server EXPORT tilecTargets
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(EXPORT tilecTargets NAMESPACE tilec:: DESTINATION ${TILEC_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/tilecConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tilecConfig.cmake INSTALL_DESTINATION ${TILEC_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tilecConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tilecConfig.cmake
              ${PROJECT_BINARY_DIR}/tilecConfigVersion.cmake cmake/tilecKernels.cmake
        DESTINATION ${TILEC_INSTALL_CMAKEDIR})

# The .pc file finds the prefix from its own place, so the tree can move.
file(RELATIVE_PATH TILEC_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(cmake/tilec-runtime.pc.in ${PROJECT_BINARY_DIR}/tilec-runtime.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tilec-runtime.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY editors/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tilec/editors
        PATTERN "__pycache__" EXCLUDE)
