# tilec_add_kernels: compile .tile (or Triton .py) kernels at build time with tilec.
#
#   tilec_add_kernels(<target>
#     SOURCES <file>...            kernels to compile (relative to the current source dir)
#     [ARCH <sm_80 … sm_90a>]      the GPU (default sm_90)
#     [DEFINES <NAME=VALUE>...]    constexpr parameters (tilec -D)
#     [OPTIONS <flag>...]          any other tilec flags (--num-warps=8, --signature=...)
#     [CUBIN]                      also assemble with ptxas at build time (see below)
#     [OUTPUT_DIR <dir>])          default: <binary dir>/tilec_kernels/<target>
#
# For each source <stem>.<ext> it writes, in OUTPUT_DIR:
#   <stem>.h     a launcher header (PTX and metadata embedded, namespace tilec_kernels::<stem>)
#   <stem>.ptx   the PTX, with <stem>.json (its metadata) beside it; with CUBIN,
#                <stem>.cubin instead (tilec --emit=cubin runs ptxas, so that its
#                errors stop the build; it runs only on GPUs of ARCH's major version)
# adds OUTPUT_DIR to the target's include directories, and makes the target depend on them.
# tilec writes a depfile (-MD) so that a change to a source, or to a file it imports,
# recompiles it. The compiler is the target tilec::tilec (installed package) or tilec
# (inside tilec's own build), or TILEC_EXECUTABLE when set.
function(tilec_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 TK "CUBIN" "ARCH;OUTPUT_DIR" "SOURCES;DEFINES;OPTIONS")
  if(TK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tilec_add_kernels(${target}): unknown arguments: ${TK_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tilec_add_kernels(${target}): no target named ${target}")
  endif()
  if(NOT TK_SOURCES)
    message(FATAL_ERROR "tilec_add_kernels(${target}): no SOURCES")
  endif()
  if(NOT TK_ARCH)
    set(TK_ARCH sm_90)
  endif()
  if(NOT TK_OUTPUT_DIR)
    set(TK_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/tilec_kernels/${target})
  endif()
  if(TILEC_EXECUTABLE)
    set(compiler ${TILEC_EXECUTABLE})
    set(compiler_target)
  elseif(TARGET tilec::tilec)
    set(compiler $<TARGET_FILE:tilec::tilec>)
    set(compiler_target tilec::tilec)
  elseif(TARGET tilec)
    set(compiler $<TARGET_FILE:tilec>)
    set(compiler_target tilec)
  else()
    message(FATAL_ERROR "tilec_add_kernels(${target}): no tilec (find_package(tilec) first, "
                        "or set TILEC_EXECUTABLE)")
  endif()
  set(flags --arch=${TK_ARCH})
  foreach(define IN LISTS TK_DEFINES)
    list(APPEND flags -D${define})
  endforeach()
  list(APPEND flags ${TK_OPTIONS})
  set(outputs)
  foreach(source IN LISTS TK_SOURCES)
    get_filename_component(path ${source} ABSOLUTE)
    get_filename_component(stem ${source} NAME_WE)
    string(MAKE_C_IDENTIFIER ${stem} namespace)
    set(ptx ${TK_OUTPUT_DIR}/${stem}.ptx)
    set(emit)
    if(TK_CUBIN)
      set(ptx ${TK_OUTPUT_DIR}/${stem}.cubin)
      set(emit --emit=cubin)
    endif()
    set(json ${TK_OUTPUT_DIR}/${stem}.json)
    set(header ${TK_OUTPUT_DIR}/${stem}.h)
    add_custom_command(
      OUTPUT ${ptx} ${json}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${TK_OUTPUT_DIR}
      COMMAND ${compiler} ${path} ${flags} ${emit} -o ${ptx} -MD -MF ${ptx}.d
      DEPENDS ${path} ${compiler_target}
      DEPFILE ${ptx}.d
      COMMENT "tilec ${source} -> ${ptx}"
      VERBATIM)
    add_custom_command(
      OUTPUT ${header}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${TK_OUTPUT_DIR}
      COMMAND ${compiler} ${path} ${flags} --emit=header --namespace=tilec_kernels::${namespace}
              -o ${header} -MD -MF ${header}.d
      DEPENDS ${path} ${compiler_target}
      DEPFILE ${header}.d
      COMMENT "tilec ${source} -> ${stem}.h"
      VERBATIM)
    list(APPEND outputs ${ptx} ${json} ${header})
  endforeach()
  target_sources(${target} PRIVATE ${outputs})
  target_include_directories(${target} PRIVATE ${TK_OUTPUT_DIR})
endfunction()
