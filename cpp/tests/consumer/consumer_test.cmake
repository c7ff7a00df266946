# ctest script: installs fastwire from BUILD_DIR into a scratch prefix, then builds and runs
# the consumer project against it (find_package), and again against the source tree
# (add_subdirectory).
#   cmake -DBUILD_DIR=… -DSOURCE_DIR=<repo>/cpp -DSCHEMA=<repo>/schemas/proto.fbe -DWORK=… -P consumer_test.cmake
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK})
set(here ${CMAKE_CURRENT_LIST_DIR})
# A private copy of the schema, so step 3 can touch it without disturbing the repository.
file(COPY ${SCHEMA} DESTINATION ${WORK}/schema)
get_filename_component(name ${SCHEMA} NAME)
set(SCHEMA ${WORK}/schema/${name})

# 1. find_package after cmake --install.
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/prefix)
run(${CMAKE_COMMAND} -S ${here} -B ${WORK}/installed -G Ninja -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_PREFIX_PATH=${WORK}/prefix -DSCHEMA=${SCHEMA})
run(${CMAKE_COMMAND} --build ${WORK}/installed)
run(${WORK}/installed/consumer)

# 2. add_subdirectory of the source tree.
run(${CMAKE_COMMAND} -S ${here} -B ${WORK}/subdir -G Ninja -DCMAKE_BUILD_TYPE=Release
    -DFASTWIRE_SOURCE_DIR=${SOURCE_DIR} -DSCHEMA=${SCHEMA})
run(${CMAKE_COMMAND} --build ${WORK}/subdir)
run(${WORK}/subdir/consumer)

# 3. Editing the schema regenerates: touch it and the generator runs again.
file(TOUCH ${SCHEMA})
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/subdir OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "fastwire: compiling")
  message(FATAL_ERROR "touching the schema did not rerun the compiler:\n${out}")
endif()
file(REMOVE_RECURSE ${WORK})
