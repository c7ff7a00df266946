# Runs EXE and fails unless its standard output equals the file EXPECTED exactly.
execute_process(COMMAND ${EXE} OUTPUT_VARIABLE actual RESULT_VARIABLE result)
file(READ ${EXPECTED} expected)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${EXE} exited with ${result}")
endif()
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "output differs from ${EXPECTED}:\n--- expected\n${expected}\n--- actual\n${actual}")
endif()
