# glad: the OpenGL 4.5 core loader, generated at build time by Debian's python3-glad into the
# build tree, as the static library `facet_glad` exposing <glad/gl.h>. No loader of glad's own
# (no --loader): callers pass glfwGetProcAddress or eglGetProcAddress to gladLoadGL.
# --reproducible uses the Khronos XML shipped with the package; without it glad goes to the network,
# which the build must never need.
include_guard(GLOBAL)
find_program(FACET_GLAD_EXECUTABLE glad)
if(NOT FACET_GLAD_EXECUTABLE)
  message(FATAL_ERROR "glad not found: install the Debian package python3-glad")
endif()

set(FACET_GLAD_DIR ${CMAKE_BINARY_DIR}/glad)
set(FACET_GLAD_API gl:core=4.5)
add_custom_command(
  OUTPUT ${FACET_GLAD_DIR}/src/gl.c ${FACET_GLAD_DIR}/include/glad/gl.h
         ${FACET_GLAD_DIR}/include/KHR/khrplatform.h
  COMMAND ${FACET_GLAD_EXECUTABLE} --quiet --api ${FACET_GLAD_API} --out-path ${FACET_GLAD_DIR}
          --reproducible c
  COMMENT "Generating the OpenGL 4.5 core loader (glad ${FACET_GLAD_API})"
  VERBATIM)

add_library(facet_glad STATIC ${FACET_GLAD_DIR}/src/gl.c)
# The include directory only exists after generation; create it now so CMake accepts it.
file(MAKE_DIRECTORY ${FACET_GLAD_DIR}/include)
target_include_directories(facet_glad SYSTEM PUBLIC ${FACET_GLAD_DIR}/include)
target_link_libraries(facet_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(facet_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
