# ctest script: installs fastwire from BUILD_DIR into a scratch prefix, then builds and runs
# the consumer project against only that prefix (find_package, and pkg-config with the
# installed bin/fastwire), and again against the source tree (add_subdirectory).
#   cmake -DBUILD_DIR=… -DSOURCE_DIR=<repo>/cpp -DSCHEMA=<repo>/schemas/proto.fbe -DWORK=… -P consumer_test.cmake
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()
function(run_all dir)
  foreach(exe consumer consumer_again consumer_final consumer_via_library)
    run(${dir}/${exe})
  endforeach()
endfunction()

file(REMOVE_RECURSE ${WORK})
set(here ${CMAKE_CURRENT_LIST_DIR})
# A private copy of the schema, so step 4 can touch it without disturbing the repository.
file(COPY ${SCHEMA} DESTINATION ${WORK}/schema)
get_filename_component(name ${SCHEMA} NAME)
set(SCHEMA ${WORK}/schema/${name})
set(prefix ${WORK}/prefix)

# 1. cmake --install: the command, the config package, pkg-config, the licence.
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f bin/fastwire lib/cmake/fastwire/fastwireConfig.cmake share/pkgconfig/fastwire.pc
          share/doc/fastwire/LICENSE include/fastwire/version.h)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "cmake --install did not install ${f}")
  endif()
endforeach()
execute_process(COMMAND ${prefix}/bin/fastwire --version OUTPUT_VARIABLE version RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT version MATCHES "^fastwire [0-9]+\\.[0-9]+\\.[0-9]+")
  message(FATAL_ERROR "bin/fastwire --version: ${rc} ${version}")
endif()

# 2. find_package against the prefix alone.
run(${CMAKE_COMMAND} -S ${here} -B ${WORK}/installed -G Ninja -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_PREFIX_PATH=${prefix} -DSCHEMA=${SCHEMA})
run(${CMAKE_COMMAND} --build ${WORK}/installed)
run_all(${WORK}/installed)

# 3. pkg-config and the installed command, no CMake package.
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  run(${prefix}/bin/fastwire compile ${SCHEMA} --lang cpp -q -o ${WORK}/pc/gen)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/share/pkgconfig
                          ${PKG_CONFIG} --cflags fastwire
                  OUTPUT_VARIABLE cflags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT cflags MATCHES "-I.*/include")
    message(FATAL_ERROR "pkg-config --cflags fastwire: ${rc} '${cflags}'")
  endif()
  separate_arguments(cflags UNIX_COMMAND "${cflags}")
  run(${CXX} -std=c++17 ${cflags} -I${WORK}/pc/gen ${here}/main.cpp -o ${WORK}/pc/consumer)
  run(${WORK}/pc/consumer)
endif()

# 4. add_subdirectory of the source tree, by absolute path.
run(${CMAKE_COMMAND} -S ${here} -B ${WORK}/subdir -G Ninja -DCMAKE_BUILD_TYPE=Release
    -DFASTWIRE_SOURCE_DIR=${SOURCE_DIR} -DSCHEMA=${SCHEMA})
run(${CMAKE_COMMAND} --build ${WORK}/subdir)
run_all(${WORK}/subdir)

# 5. Editing the schema regenerates: touch it and the generator runs again.
file(TOUCH ${SCHEMA})
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/subdir OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "fastwire: compiling")
  message(FATAL_ERROR "touching the schema did not rerun the compiler:\n${out}")
endif()

# 6. A schema error prints as the compiler prints it (file:line:col, the line, the caret).
file(WRITE ${WORK}/bad/bad.fbe "package bad\nstruct A {\n    int8 x = 300;\n}\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${here} -B ${WORK}/bad/build -G Ninja
                        -DCMAKE_PREFIX_PATH=${prefix} -DSCHEMA=${SCHEMA} -DBAD_SCHEMA=${WORK}/bad/bad.fbe
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(expected "${WORK}/bad/bad.fbe:3:14: error: default 300 of field 'x' is out of range for int8 (-128..127)\n    int8 x = 300;\n             ^~~\n1 error generated.\n")
string(FIND "${err}" "${expected}" at)
if(rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "a bad schema should fail with the compiler's own diagnostics; got (${rc}):\n${err}")
endif()

# 7. Installing at the top level without GoogleTest: the tests are skipped, not required.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK}/nogtest -G Ninja -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON
    -DFASTWIRE_BUILD_BENCH=OFF)
run(${CMAKE_COMMAND} --install ${WORK}/nogtest --prefix ${WORK}/prefix2)
file(REMOVE_RECURSE ${WORK})
