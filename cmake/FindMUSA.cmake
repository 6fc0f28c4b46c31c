# FindMUSA: build MUSA programs with CMake, used the way Moore Threads' examples use the
# toolkit's own module (musa-sim installs this one at <prefix>/cmake):
#
#   list(APPEND CMAKE_MODULE_PATH <prefix>/cmake)      # the real toolkit: /usr/local/musa/cmake
#   find_package(MUSA REQUIRED)
#   list(APPEND MUSA_MCC_FLAGS -O3)
#   musa_include_directories(include)
#   musa_add_executable(app main.mu helpers.cpp)
#   set_source_files_properties(b.cpp PROPERTIES MUSA_SOURCE_PROPERTY_FORMAT OBJ)
#   musa_add_library(kernels SHARED a.mu b.cpp)        # b.cpp compiled by mcc too
#
# The toolkit root is the first of these that holds bin/mcc: MUSA_TOOLKIT_ROOT_DIR, the
# environment's MUSA_HOME, MUSA_PATH and MUSA_INSTALL_PATH, the prefix this module was
# installed in, /usr/local/musa.
#
# Result variables: MUSA_FOUND, MUSA_VERSION (and _MAJOR, _MINOR, _PATCH),
# MUSA_TOOLKIT_ROOT_DIR, MUSA_INCLUDE_DIRS, MUSA_LIBRARIES (libmusart), MUSA_MUSART_LIBRARY,
# MUSA_MCC_EXECUTABLE.
#
# Settings read when targets are added: MUSA_MCC_FLAGS and MUSA_MCC_FLAGS_<CONFIG> (mcc
# options for every MUSA source), MUSA_VERBOSE_BUILD (mcc prints the commands it runs),
# MUSA_LINK_LIBRARIES_KEYWORD (PRIVATE, PUBLIC or empty: the target_link_libraries signature
# used to link libmusart; empty by default, so plain `target_link_libraries(app m)` calls
# still mix with it).
#
# Commands:
#   musa_add_executable(target [WIN32] [MACOSX_BUNDLE] [EXCLUDE_FROM_ALL] sources...
#                       [OPTIONS mcc-options...])
#   musa_add_library(target [STATIC|SHARED|MODULE] [EXCLUDE_FROM_ALL] sources...
#                    [OPTIONS mcc-options...])
#   musa_compile(objects-var sources... [STATIC|SHARED|MODULE] [OPTIONS mcc-options...])
#   musa_include_directories(dirs...)
# MUSA sources are .mu and .cu files and any file whose MUSA_SOURCE_PROPERTY_FORMAT source
# property is OBJ; mcc compiles them to objects with the target's include directories and
# compile definitions; the other sources go to the target as usual.

set(_musa_candidates ${MUSA_TOOLKIT_ROOT_DIR} $ENV{MUSA_HOME} $ENV{MUSA_PATH}
    $ENV{MUSA_INSTALL_PATH})
get_filename_component(_musa_module_prefix "${CMAKE_CURRENT_LIST_DIR}" DIRECTORY)
list(APPEND _musa_candidates ${_musa_module_prefix} /usr/local/musa)
set(_musa_root "")
foreach(_musa_dir IN LISTS _musa_candidates)
  if(_musa_dir AND EXISTS "${_musa_dir}/bin/mcc")
    set(_musa_root "${_musa_dir}")
    break()
  endif()
endforeach()
set(MUSA_TOOLKIT_ROOT_DIR "${_musa_root}" CACHE PATH "The MUSA toolkit's root")

find_program(MUSA_MCC_EXECUTABLE mcc PATHS "${MUSA_TOOLKIT_ROOT_DIR}/bin" NO_DEFAULT_PATH)
find_library(MUSA_MUSART_LIBRARY musart PATHS "${MUSA_TOOLKIT_ROOT_DIR}/lib" NO_DEFAULT_PATH)
find_path(MUSA_INCLUDE_DIR musa_runtime.h PATHS "${MUSA_TOOLKIT_ROOT_DIR}/include"
          NO_DEFAULT_PATH)
mark_as_advanced(MUSA_MCC_EXECUTABLE MUSA_MUSART_LIBRARY MUSA_INCLUDE_DIR)

if(MUSA_INCLUDE_DIR AND EXISTS "${MUSA_INCLUDE_DIR}/musa_runtime_api.h")
  file(STRINGS "${MUSA_INCLUDE_DIR}/musa_runtime_api.h" _musa_version_line
       REGEX "^#define MUSART_VERSION [0-9]+")
  string(REGEX REPLACE ".* ([0-9]+)$" "\\1" _musa_version_number "${_musa_version_line}")
  math(EXPR MUSA_VERSION_MAJOR "${_musa_version_number} / 10000")
  math(EXPR MUSA_VERSION_MINOR "${_musa_version_number} % 10000 / 100")
  math(EXPR MUSA_VERSION_PATCH "${_musa_version_number} % 100")
  set(MUSA_VERSION "${MUSA_VERSION_MAJOR}.${MUSA_VERSION_MINOR}.${MUSA_VERSION_PATCH}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MUSA
  REQUIRED_VARS MUSA_TOOLKIT_ROOT_DIR MUSA_MCC_EXECUTABLE MUSA_MUSART_LIBRARY MUSA_INCLUDE_DIR
  VERSION_VAR MUSA_VERSION)
if(NOT MUSA_FOUND)
  return()
endif()
set(MUSA_INCLUDE_DIRS "${MUSA_INCLUDE_DIR}")
set(MUSA_LIBRARIES "${MUSA_MUSART_LIBRARY}")

macro(musa_include_directories)
  list(APPEND MUSA_MCC_INCLUDE_DIRS_USER ${ARGN})
endmacro()

# Whether `source` is compiled by mcc.
function(_musa_is_musa_source source out)
  get_source_file_property(_format "${source}" MUSA_SOURCE_PROPERTY_FORMAT)
  if(source MATCHES "\\.(mu|cu)$" OR _format STREQUAL "OBJ")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Compiles the MUSA sources among ARGN for `target` (its include directories and definitions
# apply) into objects; `objects` gets them, `others` the remaining sources, `keywords` the
# add_executable/add_library keywords found (WIN32, SHARED, EXCLUDE_FROM_ALL, ...).
function(_musa_compile_for target objects others keywords)
  set(_objects "")
  set(_others "")
  set(_keywords "")
  set(_options "")
  set(_in_options FALSE)
  set(_pic "")
  foreach(_arg IN LISTS ARGN)
    if(_in_options)
      list(APPEND _options "${_arg}")
    elseif(_arg STREQUAL "OPTIONS")
      set(_in_options TRUE)
    elseif(_arg MATCHES "^(WIN32|MACOSX_BUNDLE|EXCLUDE_FROM_ALL|STATIC|SHARED|MODULE)$")
      list(APPEND _keywords "${_arg}")
      if(_arg MATCHES "^(SHARED|MODULE)$")
        set(_pic "-fPIC")
      endif()
    else()
      list(APPEND _others "${_arg}")
    endif()
  endforeach()
  if(NOT _keywords MATCHES "STATIC|SHARED|MODULE" AND BUILD_SHARED_LIBS)
    set(_pic "-fPIC")
  endif()
  set(_sources "${_others}")
  set(_others "")
  set(_verbose "")
  if(MUSA_VERBOSE_BUILD)
    set(_verbose "-v")
  endif()
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _config)
  set(_includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(_defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  foreach(_source IN LISTS _sources)
    _musa_is_musa_source("${_source}" _is_musa)
    if(NOT _is_musa)
      list(APPEND _others "${_source}")
      continue()
    endif()
    get_filename_component(_path "${_source}" ABSOLUTE)
    file(RELATIVE_PATH _relative "${CMAKE_CURRENT_SOURCE_DIR}" "${_path}")
    string(REGEX REPLACE "[^A-Za-z0-9_.]" "_" _name "${_relative}")
    set(_object "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.dir/musa/${_name}.o")
    set(_user_includes "")
    foreach(_dir IN LISTS MUSA_MCC_INCLUDE_DIRS_USER)
      get_filename_component(_dir "${_dir}" ABSOLUTE)
      list(APPEND _user_includes "-I${_dir}")
    endforeach()
    add_custom_command(OUTPUT "${_object}"
      COMMAND "${MUSA_MCC_EXECUTABLE}" ${_verbose} ${MUSA_MCC_FLAGS} ${MUSA_MCC_FLAGS_${_config}}
              ${_options} ${_pic} ${_user_includes}
              "$<$<BOOL:${_includes}>:-I$<JOIN:${_includes},;-I>>"
              "$<$<BOOL:${_defines}>:-D$<JOIN:${_defines},;-D>>"
              -MD -MF "${_object}.d" -x musa -c "${_path}" -o "${_object}"
      DEPENDS "${_path}"
      DEPFILE "${_object}.d"
      COMMENT "Building MUSA object ${_relative}"
      COMMAND_EXPAND_LISTS VERBATIM)
    set_source_files_properties("${_object}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    list(APPEND _objects "${_object}")
  endforeach()
  set(${objects} "${_objects}" PARENT_SCOPE)
  set(${others} "${_others}" PARENT_SCOPE)
  set(${keywords} "${_keywords}" PARENT_SCOPE)
endfunction()

function(_musa_link target)
  target_link_libraries(${target} ${MUSA_LINK_LIBRARIES_KEYWORD} "${MUSA_MUSART_LIBRARY}")
  target_include_directories(${target} SYSTEM PRIVATE "${MUSA_INCLUDE_DIRS}")
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
endfunction()

function(musa_add_executable target)
  _musa_compile_for(${target} _objects _others _keywords ${ARGN})
  add_executable(${target} ${_keywords} ${_others} ${_objects})
  _musa_link(${target})
endfunction()

function(musa_add_library target)
  _musa_compile_for(${target} _objects _others _keywords ${ARGN})
  add_library(${target} ${_keywords} ${_others} ${_objects})
  _musa_link(${target})
endfunction()

# musa_compile(objects-var sources... [STATIC|SHARED|MODULE] [OPTIONS ...]): objects to add
# to a target of one's own (compiled with the current directory's includes and definitions).
function(musa_compile objects)
  string(MAKE_C_IDENTIFIER "musa_compile_${objects}" _scope)
  if(NOT TARGET ${_scope})
    add_custom_target(${_scope})
  endif()
  get_directory_property(_dir_includes INCLUDE_DIRECTORIES)
  get_directory_property(_dir_defines COMPILE_DEFINITIONS)
  set_target_properties(${_scope} PROPERTIES INCLUDE_DIRECTORIES "${_dir_includes}"
                                             COMPILE_DEFINITIONS "${_dir_defines}")
  _musa_compile_for(${_scope} _objects _others _keywords ${ARGN})
  set(${objects} ${_objects} PARENT_SCOPE)
endfunction()
