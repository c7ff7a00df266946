# fastwire_generate(): compile .fbe schemas into C++ headers at build time.
#
#   fastwire_generate(TARGET app SCHEMAS schemas/proto.fbe [more.fbe …]
#                     [FINAL] [JSON] [PROTO] [OUTPUT_DIR dir] [IMPORT_DIRS dir …])
#
# Runs the fastwire compiler when the build needs the headers, and again whenever a
# schema, a schema it imports, or the compiler itself changes. The generated headers
# (<package>.h, <package>_models.h, …) land in OUTPUT_DIR (default:
# ${CMAKE_CURRENT_BINARY_DIR}/fastwire_generated), which is added to TARGET's include
# path, and TARGET is linked to fastwire::fastwire.
#
# FASTWIRE_COMPILER_DIR must name the folder that holds the `fastwire` Python package: the
# source tree's compiler/ (add_subdirectory) or share/fastwire/compiler (installed).

include_guard(GLOBAL)
# Paths in the depfile are taken relative to the build directory (they are absolute anyway).
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()

function(fastwire_generate)
  # Inside the function: the interpreter's variables must be visible in every directory
  # that calls it, not only in the one that included this file.
  find_package(Python3 3.9 REQUIRED COMPONENTS Interpreter)
  cmake_parse_arguments(FW "FINAL;JSON;PROTO" "TARGET;OUTPUT_DIR" "SCHEMAS;IMPORT_DIRS" ${ARGN})
  if(NOT FW_TARGET)
    message(FATAL_ERROR "fastwire_generate: TARGET is required")
  endif()
  if(NOT FW_SCHEMAS)
    message(FATAL_ERROR "fastwire_generate: SCHEMAS is required")
  endif()
  if(NOT FASTWIRE_COMPILER_DIR OR NOT EXISTS "${FASTWIRE_COMPILER_DIR}/fastwire/__main__.py")
    message(FATAL_ERROR "fastwire_generate: FASTWIRE_COMPILER_DIR (${FASTWIRE_COMPILER_DIR}) "
                        "does not hold the fastwire compiler")
  endif()
  if(NOT FW_OUTPUT_DIR)
    set(FW_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/fastwire_generated")
  endif()

  set(options --lang cpp -q)
  if(FW_FINAL)
    list(APPEND options --final)
  endif()
  if(FW_JSON)
    list(APPEND options --json)
  endif()
  if(FW_PROTO)
    list(APPEND options --proto)
  endif()
  foreach(dir IN LISTS FW_IMPORT_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND options -I "${dir}")
  endforeach()

  # A change in any compiler source regenerates (the compiler is part of the input).
  file(GLOB_RECURSE compiler_sources CONFIGURE_DEPENDS "${FASTWIRE_COMPILER_DIR}/fastwire/*.py")
  set(run ${CMAKE_COMMAND} -E env "PYTHONPATH=${FASTWIRE_COMPILER_DIR}"
          ${Python3_EXECUTABLE} -m fastwire compile)

  set(schemas)
  foreach(schema IN LISTS FW_SCHEMAS)
    get_filename_component(schema "${schema}" ABSOLUTE)
    list(APPEND schemas "${schema}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${schema}")
  endforeach()
  # Ask the compiler which files the schemas (with their imports) produce. One command
  # compiles them all, so a package imported by several schemas has exactly one rule.
  execute_process(COMMAND ${run} ${schemas} ${options} -o "${FW_OUTPUT_DIR}" --print-outputs
                  OUTPUT_VARIABLE all_outputs ERROR_VARIABLE errors RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "fastwire_generate(${FW_TARGET}):\n${errors}")
  endif()
  string(REPLACE "\n" ";" all_outputs "${all_outputs}")
  list(FILTER all_outputs EXCLUDE REGEX "^$")
  # The depfile names the schemas actually read (imports included), so editing an imported
  # schema regenerates even though it is not listed in SCHEMAS.
  set(depfile "${CMAKE_CURRENT_BINARY_DIR}/${FW_TARGET}_fastwire.d")
  add_custom_command(
    OUTPUT ${all_outputs}
    COMMAND ${run} ${schemas} ${options} -o "${FW_OUTPUT_DIR}" --depfile "${depfile}"
    DEPENDS ${schemas} ${compiler_sources}
    DEPFILE "${depfile}"
    COMMENT "fastwire: compiling ${FW_SCHEMAS}"
    VERBATIM)

  set(gen_target "${FW_TARGET}_fastwire_generate")
  add_custom_target(${gen_target} DEPENDS ${all_outputs})
  add_dependencies(${FW_TARGET} ${gen_target})
  target_include_directories(${FW_TARGET} PUBLIC "$<BUILD_INTERFACE:${FW_OUTPUT_DIR}>")
  target_link_libraries(${FW_TARGET} PUBLIC fastwire::fastwire)
  if(FW_JSON)
    # JSON reading parses with simdjson (Debian: libsimdjson-dev).
    find_package(simdjson CONFIG REQUIRED)
    target_link_libraries(${FW_TARGET} PUBLIC simdjson::simdjson)
  endif()
  target_sources(${FW_TARGET} PRIVATE ${all_outputs})
endfunction()
