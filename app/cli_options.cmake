# facet_cli_options: the command line's values and the small files that give them (camera and
# shading options, cameras files, the defaults file), checked through engine/render/camera_values.h.
# No GL and no window: included by app/CMakeLists.txt, and by tests/fuzz/CMakeLists.txt where
# the app is not built (FACET_BUILD_APP=OFF), so the fuzz targets link the same parsers.
if(NOT TARGET facet_cli_options)
  find_package(CLI11 REQUIRED)
  find_package(nlohmann_json REQUIRED)
  set(FACET_CLI_OPTIONS_SOURCES camera_options.cpp camera_checks.cpp cameras_file.cpp defaults_file.cpp
      defaults_options.cpp)
  list(TRANSFORM FACET_CLI_OPTIONS_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
  add_library(facet_cli_options STATIC ${FACET_CLI_OPTIONS_SOURCES})
  target_include_directories(facet_cli_options PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(facet_cli_options PUBLIC facet_engine CLI11::CLI11 PRIVATE nlohmann_json::nlohmann_json)
endif()
